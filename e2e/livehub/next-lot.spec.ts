import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { rows } from '../../src/server/db/connect.js';
import { auctions } from '../../src/server/db/schema.js';
import { messages } from '../../src/server/messages.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';
import { buildShow } from './hub-show.js';

/**
 * One tap between lots: 'Siguiente lote' (the button and the N key) opens the lots in turn, the keys
 * 1/2/3 press the timer buttons but never while the seller types or holds a modifier, 'Volver a
 * subastar' sends an unsold lot to the end of the queue, and 'Avance automático' opens the next lot
 * after a close unless the seller paused it.
 */
const ctx = setupAppAndBrowser();
const f = t.livehub.flow;

const SELLER = { email: 'nora.siguiente@ejemplo.mx', name: 'Nora Siguiente' };
let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'siguiente-en-vivo', companyName: 'Siguiente en Vivo' });
  categoryId = await buildCategory(ctx.app, 'Artesanías');
});

async function signedIn(user: Pick<E2eUser, 'email' | 'name'>): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, user);
  return page;
}

/** The lot's time runs out now: the closing scheduler closes it (unsold, nobody bid). */
async function runOut(auctionId: string) {
  await ctx.app.ctx.db
    .update(auctions)
    .set({ endTime: new Date(Date.now() - 1_000) })
    .where(eq(auctions.id, auctionId));
}

async function closedAt(auctionId: string): Promise<Date | null> {
  const [row] = await ctx.app.ctx.db.select({ closedAt: auctions.closedAt }).from(auctions).where(eq(auctions.id, auctionId));
  return row?.closedAt ?? null;
}

/** The lot row marked current in the Hub. */
const currentRow = (page: Page) => page.locator('li[data-current]');

describe('one tap between lots', () => {
  it('Siguiente lote by button and by N, the timer keys (not while typing), and Volver a subastar', async () => {
    const hub = await signedIn(seller);
    const show = await buildShow(hub, ctx.app, { title: 'Artesanías en vivo', lots: ['Jarrón de Talavera', 'Sarape de Saltillo', 'Rebozo'], categoryId });
    const [jarron, sarape, rebozo] = [show.lotOf('Jarrón de Talavera'), show.lotOf('Sarape de Saltillo'), show.lotOf('Rebozo')];
    const posts: string[] = [];
    hub.on('request', (req) => {
      if (req.method() === 'POST' && /\/(next|timer)$/.test(req.url())) posts.push(req.url().endsWith('/next') ? 'next' : 'timer');
    });
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);

    await hub.getByRole('button', { name: f.next }).click();
    await eventually(() => currentRow(hub).getAttribute('data-lot-id')).toBe(jarron.id);
    await eventually(async () => (await show.api.session(show.id)).session.status).toBe('live');
    expect(await hub.getByTestId('hub-shortcuts').innerText()).toBe(f.shortcuts);

    // Typing in the custom seconds, or holding a modifier: no key is a shortcut.
    const custom = hub.getByLabel(t.livehub.timer.custom);
    await custom.click();
    await hub.keyboard.press('3');
    await hub.keyboard.press('n');
    await hub.getByRole('heading', { name: t.livehub.timer.title }).click();
    await hub.keyboard.press('Control+3');
    await hub.keyboard.press('Alt+n');
    // A fence: 1 (15 s) would cut the running lot, so it asks first; the keys before it sent nothing.
    await hub.keyboard.press('1');
    const ask = hub.getByRole('dialog', { name: t.livehub.timer.shortenTitle });
    await ask.waitFor();
    expect(posts).toEqual(['next']);
    // With a window open, the keys are the window's.
    await hub.keyboard.press('3');
    await ask.getByRole('button', { name: t.livehub.timer.shortenCancel }).click();
    await ask.waitFor({ state: 'detached' });
    expect(posts).toEqual(['next']);
    // 3 sets 60 s (no cut): sent at once.
    await hub.keyboard.press('3');
    await eventually(() => posts).toEqual(['next', 'timer']);

    // N while the lot runs: the server says why.
    await hub.keyboard.press('n');
    await hub.getByRole('alert').getByText(messages.live.currentLotRunning).waitFor();

    // The lot runs out unsold: N opens the next one.
    await runOut(jarron.auctionId);
    await eventually(() => closedAt(jarron.auctionId)).not.toBeNull();
    await hub.keyboard.press('N');
    await eventually(() => currentRow(hub).getAttribute('data-lot-id')).toBe(sarape.id);

    // 'Volver a subastar' on the unsold lot: it goes to the end of the queue.
    await hub.getByRole('button', { name: `${f.requeue} Jarrón de Talavera` }).click();
    await eventually(async () => (await show.api.session(show.id)).lots.map((l) => l.id)).toEqual([sarape.id, rebozo.id, jarron.id]);
    await eventually(() => hub.getByRole('button', { name: `${f.requeue} Jarrón de Talavera` }).count()).toBe(0);
  });

  it('Avance automático opens the next lot after the close, and Pausar stops it until Reanudar', async () => {
    const hub = await signedIn(seller);
    const show = await buildShow(hub, ctx.app, { title: 'Avance en vivo', lots: ['Molcajete', 'Huipil', 'Alebrije'], categoryId });
    const [molcajete, huipil, alebrije] = [show.lotOf('Molcajete'), show.lotOf('Huipil'), show.lotOf('Alebrije')];
    await show.api.put(`/api/live-sessions/${show.id}`, {
      biddingConfig: { minIncrement: 20, antiSnipeSeconds: 10, timerSecondsDefault: 60, autoAdvanceSeconds: 3 },
    });
    await show.api.post<LiveSessionDetail>(`/api/live-sessions/${show.id}/next`, {});
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    await eventually(() => currentRow(hub).getAttribute('data-lot-id')).toBe(molcajete.id);

    await runOut(molcajete.auctionId);
    await hub
      .getByTestId('auto-advance')
      .getByText(/^Siguiente lote en \d+ s$/)
      .waitFor();
    await eventually(() => currentRow(hub).getAttribute('data-lot-id')).toBe(huipil.id);

    // Pausar while the next lot runs; its close then opens nothing.
    await hub.getByRole('button', { name: f.pause }).click();
    await hub.getByTestId('auto-advance').getByText(f.autoPaused).waitFor();
    await runOut(huipil.auctionId);
    await eventually(() => closedAt(huipil.auctionId)).not.toBeNull();
    const due = ((await closedAt(huipil.auctionId))?.getTime() ?? 0) + 3_000;
    // Until the database's clock passed the time it would have opened, and more than one scheduler pass after it.
    await eventually(async () => {
      const [row] = rows<{ now: string | number }>(await ctx.app.ctx.db.execute(sql`select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`));
      return Number(row?.now) > due + 2_500;
    }).toBe(true);
    expect((await show.api.session(show.id)).session.currentLotId).toBe(huipil.id);
    expect(await currentRow(hub).getAttribute('data-lot-id')).toBe(huipil.id);

    await hub.getByRole('button', { name: f.resume }).click();
    await eventually(() => currentRow(hub).getAttribute('data-lot-id')).toBe(alebrije.id);
  });
});
