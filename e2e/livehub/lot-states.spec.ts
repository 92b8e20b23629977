import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';
import { buildShow, hubApi } from './hub-show.js';

/**
 * What the Hub says of the current lot is true: 'Listo para iniciar' before its timer (not
 * 'Finalizado'), 'En subasta ahora' while it runs, 'Vendido' once sold (not 'En subasta ahora');
 * the timer buttons say they set the time left, ask before cutting it and say why they cannot once
 * bids stand; a sold or running lot offers no removal (with the reason), an unsold one still does.
 */
const ctx = setupAppAndBrowser();
const h = t.livehub;
const SELLER = { email: 'lola.lotes@ejemplo.mx', name: 'Lola Lotes' };
const BUYER = { email: 'beto.puja@ejemplo.mx', name: 'Beto Puja' };
const set = (seconds: number) => fill(h.timer.set, { seconds: String(seconds) });

let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'lotes-ciertos', companyName: 'Lotes Ciertos' });
  await prepareUser(ctx.app, { ...BUYER, roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Cerámica');
});

async function signedIn(user: Pick<E2eUser, 'email' | 'name'>): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, user);
  return page;
}

async function bid(auctionId: string, amount: number): Promise<void> {
  const buyer = await signedIn(BUYER);
  await hubApi(buyer, ctx.app).post(`/api/auctions/${auctionId}/bids`, { amount }, { 'Idempotency-Key': crypto.randomUUID() });
  await buyer.context().close();
}

/** The reason a disabled control gives, read through its aria-describedby. */
async function describedBy(page: Page, control: ReturnType<Page['getByRole']>): Promise<string> {
  const id = await control.getAttribute('aria-describedby');
  return id ? ((await page.locator(`[id="${id}"]`).textContent()) ?? '') : '';
}

describe('the current lot in the Live Hub', () => {
  it('waits for its timer, then runs; the buttons set the time left, ask before cutting it (a bid closes the question), and refuse once bids stand', async () => {
    const hub = await signedIn(seller);
    const show = await buildShow(hub, ctx.app, { title: 'Talavera', lots: ['Jarrón de Talavera'], categoryId });
    const lot = show.lotOf('Jarrón de Talavera');
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    const row = hub.getByRole('listitem', { name: 'Jarrón de Talavera' });
    await row.getByRole('button', { name: fill(h.lots.setCurrentLabel, { name: 'Jarrón de Talavera' }) }).click();

    // Never started: ready, not finished.
    await row.getByTestId('current-lot-phase').getByText(h.lots.phase.ready).waitFor();
    expect(await hub.getByRole('timer').innerText()).toBe(h.timer.ready);
    expect(await hub.getByText(h.timer.finished, { exact: true }).count()).toBe(0);
    const remove = row.getByRole('button', { name: fill(h.lots.removeLabel, { name: 'Jarrón de Talavera' }) });
    expect(await remove.isDisabled()).toBe(false);

    // 'Quedan 60 s' starts it: running, and not removable while it runs.
    await hub.getByRole('button', { name: set(60), exact: true }).click();
    await row.getByTestId('current-lot-phase').getByText(h.lots.current).waitFor();
    await eventually(() => hub.getByRole('timer').innerText()).toMatch(/^En curso: 00:[45]\d$/);
    expect(await remove.isDisabled()).toBe(true);
    expect(await describedBy(hub, remove)).toBe(h.lots.removeBlocked.running);

    // 'Quedan 15 s' would cut it: it asks first; 'Cancelar' leaves the time as it was.
    await hub.getByRole('button', { name: set(15), exact: true }).click();
    const shorten = hub.getByRole('dialog', { name: h.timer.shortenTitle });
    await shorten.getByRole('button', { name: h.timer.shortenCancel }).click();
    await shorten.waitFor({ state: 'detached' });
    const detail = await show.api.session(show.id);
    const endTime = detail.lots.find((l) => l.id === lot.id)?.auction.state.endTime ?? 0;
    expect(endTime - detail.serverNow).toBeGreaterThan(20_000);

    // A bid arrives while the question is open: the question goes (the server refuses the cut now),
    // and the buttons say why.
    await hub.getByRole('button', { name: set(15), exact: true }).click();
    await shorten.waitFor();
    await bid(lot.auctionId, 400);
    await shorten.waitFor({ state: 'detached' });
    await eventually(() => row.getByTestId('current-lot-bids').innerText()).toBe(fill(h.lots.bids_one, { count: '1' }));
    const fifteen = hub.getByRole('button', { name: set(15), exact: true });
    await eventually(() => fifteen.isDisabled()).toBe(true);
    expect(await describedBy(hub, fifteen)).toBe(h.timer.blocked.bidsStand);
    expect(await hub.getByRole('button', { name: set(60), exact: true }).isDisabled()).toBe(false);
  });

  it("says 'Vendido' (not 'En subasta ahora') once sold, keeps a sold lot in the session, and removes an unsold one after SPEC's question", async () => {
    const hub = await signedIn(seller);
    const show = await buildShow(hub, ctx.app, { title: 'Barro', lots: ['Olla de barro', 'Plato de barro'], categoryId });
    const sold = show.lotOf('Olla de barro');
    await show.api.post(`/api/live-sessions/${show.id}/current`, { lotId: sold.id });
    await show.api.post(`/api/live-sessions/${show.id}/timer`, { seconds: 15 });
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    const row = hub.getByRole('listitem', { name: 'Olla de barro' });
    await row.getByTestId('current-lot-phase').getByText(h.lots.current).waitFor();
    await bid(sold.auctionId, 400);

    // The server closes it: sold, said as such, with its price and winner.
    await row.getByTestId('current-lot-phase').getByText(h.lots.phase.sold).waitFor({ timeout: 40_000 });
    expect(await row.getByText(h.lots.current).count()).toBe(0);
    expect(await hub.getByRole('timer').innerText()).toBe(h.timer.finished);
    const remove = row.getByRole('button', { name: fill(h.lots.removeLabel, { name: 'Olla de barro' }) });
    expect(await remove.isDisabled()).toBe(true);
    expect(await describedBy(hub, remove)).toBe(h.lots.removeBlocked.sold);
    const again = hub.getByRole('button', { name: set(60), exact: true });
    expect(await again.isDisabled()).toBe(true);
    expect(await describedBy(hub, again)).toBe(h.timer.blocked.sold);

    // The lot that never ran is removable, after SPEC's question.
    const other = hub.getByRole('listitem', { name: 'Plato de barro' });
    await other.getByRole('button', { name: fill(h.lots.removeLabel, { name: 'Plato de barro' }) }).click();
    const confirm = hub.getByRole('dialog', { name: h.lots.removeTitle });
    await confirm.getByText(h.lots.removeConfirm).waitFor();
    await confirm.getByRole('button', { name: h.lots.removeYes }).click();
    await other.waitFor({ state: 'detached' });
    expect((await show.api.session(show.id)).lots.map((l) => l.auction.name)).toEqual(['Olla de barro']);
  });
});
