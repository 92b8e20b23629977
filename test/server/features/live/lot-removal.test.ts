import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../src/domain/live.js';
import { auctions, liveLots, liveSessions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * A lot that sold carries the show's results, and a running one has bidders on it: neither leaves
 * its session (409 with the reason in Spanish), nor is a session holding one deleted (the seller
 * ends it instead). An unsold lot, waiting or closed without bids, is still removed.
 */

const COMPANY = 'quita-vivo';
let server: TestServer;
let seller: Actor;
let bidder: Actor;

beforeAll(async () => {
  // A lot whose time is up stays unclosed for as long as a test needs: nothing closes it in the background.
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@quita.mx', name: 'Quetzal Vende', roles: ['seller'], companyId: COMPANY });
  bidder = await buildActor(server, { email: 'puja@quita.mx', name: 'Paula Puja', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => server?.close());

/** A session with one lot per auction state: sold (a real bid, then closed), running (its timer on), waiting, and closed unsold. */
async function show() {
  const db = server.ctx.db;
  const session = await buildSession(db, { sellerId: seller.id, companyId: COMPANY });
  const lotOf = async (name: string) => {
    const auction = await buildAuction(db, { name, companyId: COMPANY, sellerId: seller.id, status: 'pending' });
    return { auction, lot: await buildLot(db, { sessionId: session.id, auctionId: auction.id }) };
  };
  const sold = await lotOf('Vendido');
  const running = await lotOf('Corriendo');
  const waiting = await lotOf('En espera');
  const unsold = await lotOf('Sin pujas');
  const post = (path: string, body: Record<string, unknown>, as = seller) => injectAs(server, as, 'POST', path, body);
  // The sold lot runs, takes a real bid, and closes.
  expect((await post(`/api/live-sessions/${session.id}/current`, { lotId: sold.lot.id })).statusCode).toBe(200);
  expect((await post(`/api/live-sessions/${session.id}/timer`, { seconds: 60 })).statusCode).toBe(200);
  const bid = await post(`/api/auctions/${sold.auction.id}/bids`, { amount: 500 }, bidder);
  expect(bid.statusCode, bid.body).toBe(201);
  await db
    .update(auctions)
    .set({ status: 'ended', closedAt: new Date(), currentWinnerId: bidder.id, currentWinnerName: 'Paula Puja' })
    .where(eq(auctions.id, sold.auction.id));
  // The unsold lot closed without bids.
  await db
    .update(auctions)
    .set({ status: 'ended', closedAt: new Date(), endTime: new Date(Date.now() - 1000) })
    .where(eq(auctions.id, unsold.auction.id));
  // The running lot is on the block now, its timer on.
  expect((await post(`/api/live-sessions/${session.id}/current`, { lotId: running.lot.id })).statusCode).toBe(200);
  expect((await post(`/api/live-sessions/${session.id}/timer`, { seconds: 60 })).statusCode).toBe(200);
  return { session, sold, running, waiting, unsold };
}

const lotsOf = (sessionId: string) => server.ctx.db.select().from(liveLots).where(eq(liveLots.sessionId, sessionId)).orderBy(liveLots.order);
const remove = (sessionId: string, lotId: string) => injectAs(server, seller, 'DELETE', `/api/live-sessions/${sessionId}/lots/${lotId}`);

describe('removing a lot from its session', () => {
  it('refuses a sold lot and a running one with the reason, keeping them and the results', async () => {
    const s = await show();
    const before = await lotsOf(s.session.id);
    const sold = await remove(s.session.id, s.sold.lot.id);
    expect(sold.statusCode).toBe(409);
    expect(sold.json()).toEqual({ error: { code: 'CONFLICT', message: messages.live.lotRemoveSold } });
    const running = await remove(s.session.id, s.running.lot.id);
    expect(running.statusCode).toBe(409);
    expect(running.json()).toEqual({ error: { code: 'CONFLICT', message: messages.live.lotRemoveRunning } });
    expect(await lotsOf(s.session.id)).toEqual(before);
    const detail = (await injectAs(server, seller, 'GET', `/api/live-sessions/${s.session.id}`)).json() as LiveSessionDetail;
    expect(detail.lots.find((l) => l.id === s.sold.lot.id)?.auction.state).toMatchObject({ status: 'ended', currentPrice: 500, bidCount: 1 });
  });

  it('still removes an unsold lot, waiting or closed without bids, and closes the gap', async () => {
    const s = await show();
    expect((await remove(s.session.id, s.waiting.lot.id)).statusCode).toBe(200);
    const res = await remove(s.session.id, s.unsold.lot.id);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as LiveSessionDetail).lots.map((l) => [l.auction.name, l.order])).toEqual([
      ['Vendido', 1],
      ['Corriendo', 2],
    ]);
  });

  it('refuses a running lot that took a bid, once its time is up but before the close', async () => {
    const s = await show();
    await server.ctx.db
      .update(auctions)
      .set({ bidCount: 1, currentPrice: 300, endTime: new Date(Date.now() - 1000) })
      .where(eq(auctions.id, s.running.auction.id));
    const res = await remove(s.session.id, s.running.lot.id);
    expect([res.statusCode, res.json().error.message]).toEqual([409, messages.live.lotRemoveSold]);
  });
});

describe('deleting a session', () => {
  it('refuses one with a sold lot, and one with a running lot, deleting nothing', async () => {
    const s = await show();
    const hasSales = await injectAs(server, seller, 'DELETE', `/api/live-sessions/${s.session.id}`);
    expect(hasSales.statusCode).toBe(409);
    expect(hasSales.json()).toEqual({ error: { code: 'CONFLICT', message: messages.live.deleteHasSales } });

    const running = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const auction = await buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'live', endTime: new Date(Date.now() + 60_000) });
    await buildLot(server.ctx.db, { sessionId: running.id, auctionId: auction.id });
    const onAir = await injectAs(server, seller, 'DELETE', `/api/live-sessions/${running.id}`);
    expect(onAir.statusCode).toBe(409);
    expect(onAir.json()).toEqual({ error: { code: 'CONFLICT', message: messages.live.deleteRunning } });

    for (const id of [s.session.id, running.id]) {
      expect(await server.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, id))).toHaveLength(1);
    }
    expect(await lotsOf(s.session.id)).toHaveLength(4);
  });

  it('deletes an ended one whose lots are all unsold, keeping their auctions', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'ended' });
    const auction = await buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'pending' });
    await buildLot(server.ctx.db, { sessionId: session.id, auctionId: auction.id });
    const res = await injectAs(server, seller, 'DELETE', `/api/live-sessions/${session.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await server.ctx.db.select().from(auctions).where(eq(auctions.id, auction.id))).toHaveLength(1);
  });
});
