import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LiveDirectory, LiveSessionDetail } from '../../src/domain/live.js';
import { livePath } from '../../src/domain/live-public.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';
import { hubApi } from './hub-show.js';

/**
 * 'Ensayo': a seller new to live shows creates a rehearsal in the Live Hub, puts a lot on the block,
 * and watches the server's simulated bidders bid on it, under "Ensayo: nada es real" in the Hub and
 * on the public page (which /live does not list). Ending the rehearsal puts the auction back.
 */
const ctx = setupAppAndBrowser();
const h = t.livehub;

const SELLER = { email: 'rocio.ensayo@ejemplo.mx', name: 'Rocío Ensayo' };
const LOTS = ['Guitarra Paracho', 'Sarape de Saltillo'] as const;

let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'artesanias-rocio', companyName: 'Artesanías Rocío' });
  categoryId = await buildCategory(ctx.app, 'Artesanías');
});

async function signedIn(user: Pick<E2eUser, 'email' | 'name'>): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, user);
  return page;
}

describe('a rehearsal from the Live Hub', () => {
  it('takes simulated bids on an open lot under the rehearsal banner, and puts the auction back when it ends', async () => {
    const hub = await signedIn(seller);
    const api = hubApi(hub, ctx.app);
    const auctions = [];
    for (const name of LOTS) auctions.push(await createAuctionAs(hub, ctx.app, { name, categoryId, startingPrice: 500, status: 'pending' }));

    // 'Crear sesión' with 'Ensayo (práctica con postores simulados)' ticked.
    await hub.goto(`${ctx.app.url}/admin/livehub`);
    await hub.getByRole('button', { name: h.header.createSession }).click();
    const create = hub.getByRole('dialog', { name: h.create.title });
    await create.waitFor();
    await create.getByRole('textbox', { name: h.create.name }).fill('Práctica del lunes');
    await create.getByRole('button', { name: h.create.presetNow }).click();
    await create.getByRole('checkbox', { name: h.rehearsal.checkbox }).check();
    await create.getByRole('button', { name: h.create.submit, exact: true }).click();
    await create.waitFor({ state: 'detached' });
    await eventually(() => new URL(hub.url()).searchParams.get('session')).toMatch(/^[0-9a-f-]{36}$/);
    const sessionId = new URL(hub.url()).searchParams.get('session') as string;
    await hub.getByTestId('rehearsal-banner').getByText(h.rehearsal.banner).waitFor();
    expect((await api.session(sessionId)).session.rehearsal).toBe(true);

    // Two lots; the first on the block for a minute.
    for (const auction of auctions) await api.post(`/api/live-sessions/${sessionId}/lots`, { auctionId: auction.id });
    const upcoming = hub.getByRole('region', { name: h.lots.upcoming });
    await eventually(() => upcoming.getByRole('listitem').count()).toBe(2);
    const before = (await api.session(sessionId)).lots.map((l) => l.auction.state);
    await upcoming
      .getByRole('listitem', { name: LOTS[0] })
      .getByRole('button', { name: fill(h.lots.setCurrentLabel, { name: LOTS[0] }) })
      .click();
    await hub.getByRole('button', { name: fill(h.timer.set, { seconds: '60' }) }).click();

    // The public page: the banner, and the simulated bids arriving on the lot.
    const detail = await api.session(sessionId);
    const viewer = await newPage(ctx.browser);
    await viewer.goto(`${ctx.app.url}${livePath(detail.session)}`);
    await viewer.getByTestId('current-lot-name').getByText(LOTS[0]).waitFor();
    await viewer.getByTestId('rehearsal-banner').getByText(t.live.rehearsal.banner).waitFor();
    await eventually(async () => (await api.session(sessionId)).lots.find((l) => l.auction.name === LOTS[0])?.auction.state.bidCount ?? 0).toBeGreaterThan(0);
    const directory = (await (await viewer.request.get(`${ctx.app.url}/api/live-sessions/public`)).json()) as LiveDirectory;
    expect([...directory.live, ...directory.upcoming].map((s) => s.id)).not.toContain(sessionId);

    // Ended: every auction is as it was before the rehearsal.
    await api.put(`/api/live-sessions/${sessionId}`, { status: 'ended' });
    await eventually(async () => (await api.session(sessionId)).lots.map((l) => l.auction.state.bidCount)).toEqual([0, 0]);
    const after = (await api.get<LiveSessionDetail>(`/api/live-sessions/${sessionId}`)).lots.map((l) => l.auction.state);
    for (const [i, state] of after.entries()) {
      expect(state).toMatchObject({
        status: before[i]?.status,
        currentPrice: before[i]?.currentPrice,
        bidCount: before[i]?.bidCount,
        endTime: before[i]?.endTime,
      });
    }
  });
});
