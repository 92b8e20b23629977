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

/** Opens the phone show's sheet (another amount, the lots, the results) with its button, whichever label it wears. */
export async function openSheet(page: Page) {
  await page.getByTestId('open-sheet').click();
  const sheet = page.getByRole('dialog', { name: t.live.phone.sheetTitle });
  await sheet.waitFor();
  return sheet;
}

/** Closes the sheet with its own close button. */
export async function closeSheet(page: Page): Promise<void> {
  const sheet = page.getByRole('dialog', { name: t.live.phone.sheetTitle });
  await sheet.getByRole('button', { name: t.common.close }).first().click();
  await sheet.waitFor({ state: 'detached' });
}
