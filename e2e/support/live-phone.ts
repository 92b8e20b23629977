import type { Page } from 'playwright-core';
import { formatMoney } from '../../src/domain/money.js';
import { fill, t } from './catalogue.js';

/** The phone's one-tap bid button, showing `amount` (or any amount). */
export function oneTapButton(page: Page, amount?: number) {
  const button = page.getByTestId('one-tap-bid');
  return amount === undefined ? button : page.getByRole('button', { name: fill(t.live.phone.bid, { amount: formatMoney(amount) }) });
}

/**
 * One tap on 'Pujar $X' on the phone's show; the first bid in a show asks once that bids are binding
 * (`firstInShow`), and 'Entendido' sends the amount the button showed.
 */
export async function tapToBid(page: Page, amount: number, opts: { firstInShow?: boolean } = {}): Promise<void> {
  await oneTapButton(page, amount).click();
  if (opts.firstInShow) {
    const dialog = page.getByRole('dialog', { name: t.live.phone.binding.title });
    await dialog.getByRole('button', { name: fill(t.live.phone.binding.confirm, { amount: formatMoney(amount) }) }).click();
    await dialog.waitFor({ state: 'detached' });
  }
}
