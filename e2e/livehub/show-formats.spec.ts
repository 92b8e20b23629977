import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { livePath } from '../../src/domain/live-public.js';
import { formatMoney } from '../../src/domain/money.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { oneTapButton } from '../support/live-phone.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * A show's formats, set by the seller and seen by buyers: in 'Editar Sesión' the seller picks
 * Contrapuja and the price-band table (a row out of order is refused on its row, with what was
 * typed kept), saves, and a buyer on the live page (wide and on a phone) reads "Contrapuja 10 s"
 * on the lot and is offered amounts that step by the band of the price; a lot's own format, set
 * from its row in the Hub, reaches the buyer too.
 */
const ctx = setupAppAndBrowser();
const h = t.livehub;

const SELLER = { email: 'fernanda.formatos@ejemplo.mx', name: 'Fernanda Formatos' };
const FIRST = { email: 'primero.formatos@ejemplo.mx', name: 'Pablo Primero' };
const BUYER = { email: 'bea.formatos@ejemplo.mx', name: 'Bea Compradora' };

let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'formatos-fernanda', companyName: 'Formatos Fernanda' });
  await prepareUser(ctx.app, { ...FIRST, roles: ['buyer'] });
  await prepareUser(ctx.app, { ...BUYER, roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Relojes');
});

async function signedIn(user: Pick<E2eUser, 'email' | 'name'>, opts: { mobile?: boolean } = {}): Promise<Page> {
  const page = await newPage(ctx.browser, opts);
  await signInPage(page, ctx.app, user);
  return page;
}

describe('timer formats and price bands', () => {
  it('the seller sets Contrapuja and a band table; a buyer sees the format and bids by the band', async () => {
    const hub = await signedIn(seller);
    const post = async <T>(page: Page, path: string, data: unknown): Promise<T> => {
      const res = await page.request.post(`${ctx.app.url}${path}`, { data, headers: { origin: ctx.app.url } });
      expect(res.status(), await res.text()).toBeLessThan(300);
      return (await res.json()) as T;
    };
    const made = await post<LiveSessionDetail>(hub, '/api/live-sessions', { title: 'Relojes con contrapuja', scheduledAt: Date.now() + 3_600_000 });
    const id = made.session.id;
    const auction = await createAuctionAs(hub, ctx.app, { name: 'Reloj Seiko 5', categoryId, startingPrice: 120, status: 'pending' });
    const withLot = await post<LiveSessionDetail>(hub, `/api/live-sessions/${id}/lots`, { auctionId: auction.id });
    const lotId = withLot.lots[0]?.id as string;
    const read = async () => (await (await hub.request.get(`${ctx.app.url}/api/live-sessions/${id}`)).json()) as LiveSessionDetail;

    // 'Editar Sesión': Contrapuja (W and R 10 s by default) and 'Por rango de precio' with the suggested table.
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${id}`);
    await hub.getByRole('heading', { name: 'Relojes con contrapuja' }).waitFor();
    await hub.getByRole('button', { name: h.header.manageSessions }).click();
    await hub.getByRole('dialog', { name: h.manage.title }).getByRole('button', { name: 'Editar Relojes con contrapuja' }).click();
    const edit = hub.getByRole('dialog', { name: h.edit.title });
    await edit.waitFor();
    await edit.getByTestId('timer-mode').getByText(h.formats.counterBid, { exact: true }).click();
    expect(await edit.getByRole('textbox', { name: h.formats.window }).inputValue()).toBe('10');
    expect(await edit.getByRole('textbox', { name: h.formats.reset }).inputValue()).toBe('10');
    await edit.getByTestId('increment-kind').getByText(h.formats.bands, { exact: true }).click();
    await eventually(() => edit.getByTestId('band-row').count()).toBe(6);

    // A row below the one before it: refused on that row, in Spanish, and the typed 80 stays.
    const third = edit.getByRole('textbox', { name: fill(h.formats.bandFromLabel, { row: '3' }) });
    await third.fill('80');
    await edit.getByRole('button', { name: h.edit.save }).click();
    await edit.getByTestId('band-row').nth(2).getByText(h.errors.bandsNotAscending).waitFor();
    expect(await third.inputValue()).toBe('80');
    expect(await edit.getByTestId('band-row').nth(1).getByText(h.errors.bandsNotAscending).count()).toBe(0);
    expect((await read()).session.biddingConfig.timerMode).toBe('extend');

    // Fixed, it saves.
    await third.fill('500');
    await edit.getByRole('button', { name: h.edit.save }).click();
    await hub.getByText(h.edit.saved).waitFor();
    const config = (await read()).session.biddingConfig;
    expect(config).toMatchObject({ timerMode: 'counterBid', counterBidWindowSeconds: 10, counterBidResetSeconds: 10 });
    expect(config.incrementBands?.slice(0, 3)).toEqual([
      { from: 0, increment: 5 },
      { from: 100, increment: 10 },
      { from: 500, increment: 20 },
    ]);
    await edit.getByRole('button', { name: h.edit.cancel }).first().click();
    await edit.waitFor({ state: 'detached' });
    // Back in 'Sesiones en vivo', which opened it.
    const manage = hub.getByRole('dialog', { name: h.manage.title });
    await hub.keyboard.press('Escape');
    await manage.waitFor({ state: 'detached' });

    // The lot runs, and a first bid puts it at $120.
    await post(hub, `/api/live-sessions/${id}/current`, { lotId });
    await post(hub, `/api/live-sessions/${id}/timer`, { seconds: 300 });
    const first = await signedIn(FIRST);
    await post(first, `/api/auctions/${auction.id}/bids`, { amount: 120 });

    // The buyer reads the format before bidding, and the amounts step by the band of $120 ($10).
    const buyer = await signedIn(BUYER);
    await buyer.goto(`${ctx.app.url}${livePath((await read()).session)}`);
    const lot = buyer.getByTestId('current-lot');
    await lot.getByTestId('current-lot-name').getByText('Reloj Seiko 5').waitFor();
    await eventually(() => lot.getByTestId('current-price').innerText()).toBe(formatMoney(120));
    await eventually(() => lot.getByTestId('timer-format-label').innerText()).toBe(fill(t.bidding.timerFormat.counterBid, { seconds: '10' }));
    await eventually(() => lot.getByTestId('next-minimum').innerText()).toBe(fill(t.bidding.price.nextMinimum, { amount: formatMoney(130) }));
    expect(await lot.getByTestId('quick-bid').allInnerTexts()).toEqual([formatMoney(130), formatMoney(140), formatMoney(150)]);

    // On a phone: the lot card names the format, and the one tap offers the band's next bid.
    const phone = await signedIn(BUYER, { mobile: true });
    await phone.goto(`${ctx.app.url}${livePath((await read()).session)}`);
    await oneTapButton(phone, 130).waitFor();
    await eventually(() => phone.getByTestId('current-lot').first().getByTestId('timer-format-label').innerText()).toBe(
      fill(t.bidding.timerFormat.counterBid, { seconds: '10' }),
    );

    // The seller gives this lot its own format from its row in the Hub: Muerte súbita, and the buyer's label follows.
    await hub.getByRole('button', { name: fill(h.formats.lotMenu, { name: 'Reloj Seiko 5' }) }).click();
    await hub.getByRole('radio', { name: h.formats.suddenDeath }).check();
    await hub.getByTestId('lot-format-save').click();
    await eventually(() => lot.getByTestId('timer-format-label').innerText()).toBe(t.bidding.timerFormat.suddenDeath);
    expect((await read()).lots[0]?.timerOverride.timerMode).toBe('suddenDeath');
  });
});
