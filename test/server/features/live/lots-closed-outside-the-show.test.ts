import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatPage } from '../../../../src/domain/chat.js';
import type { LiveSessionDetail, LotView } from '../../../../src/domain/live.js';
import { auctions, liveLotRuns, liveLots } from '../../../../src/server/db/schema.js';
import { closeDueAuctions } from '../../../../src/server/features/bids/scheduler.js';
import { type Actor, type Bidder, buildActor, buildBidder } from '../../../support/actors.js';
import { buildAuction, buildSession } from '../../../support/factories.js';
import { caller, placeBid, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * Only a lot that was on the block sells in the show. An online auction with its own end time that
 * is added as a lot keeps that end while it waits in the queue; if the end comes first it closes as
 * an ordinary auction, outside the show: its lot is passed and not offered (the Hub and the live
 * page show it as closed outside the show), and it may leave the queue, whatever its auction did
 * on its own. On the block (the timer, 'Establecer actual' while it
 * runs on its own clock, a quick auction started at once) it is the show's: its lot is finished and
 * offered. An auction that waited in one show and sold in the next is the next one's.
 * No scheduler runs here: the test closes auctions by hand.
 */

const COMPANY = 'fuera-del-show';
let server: TestServer;
let seller: Actor;
let ana: Bidder;
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer();
  seller = await buildActor(server, { email: 'vende@fuera.mx', name: 'Fina Fuera', roles: ['seller'], companyId: COMPANY });
  ana = await buildBidder(server);
}, 60_000);
afterAll(async () => server?.close());

async function detailOf(sessionId: string): Promise<LiveSessionDetail> {
  const res = await call(seller, 'GET', `/api/live-sessions/${sessionId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const lotOf = async (sessionId: string, auctionId: string): Promise<LotView> => {
  const lot = (await detailOf(sessionId)).lots.find((l) => l.auctionId === auctionId);
  if (!lot) throw new Error('lot not found');
  return lot;
};

/** An online auction running on its own clock (an hour left), with Ana's bid, added to the session as its last lot. */
async function onlineLotWithBid(sessionId: string): Promise<string> {
  const auction = await buildAuction(server.ctx.db, {
    companyId: COMPANY,
    sellerId: seller.id,
    status: 'active',
    startingPrice: 300,
    endTime: new Date(Date.now() + 3_600_000),
  });
  const bid = await placeBid(server, ana, auction.id, { amount: 300 });
  expect(bid.statusCode, bid.body).toBe(201);
  const added = await call(seller, 'POST', `/api/live-sessions/${sessionId}/lots`, { auctionId: auction.id });
  expect(added.statusCode, added.body).toBe(201);
  return auction.id;
}

/** Its end time comes now, and the closing scheduler closes it and publishes the close (as its pass does). */
async function endNow(auctionId: string) {
  await server.ctx.db.update(auctions).set({ endTime: sql`clock_timestamp()` }).where(eq(auctions.id, auctionId));
  const closed = await closeDueAuctions(server.ctx.db);
  await server.ctx.publisher.publish(closed.map((state) => ({ type: 'auctionClosed', state }) as const));
  const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auctionId));
  expect(row?.status).toBe('ended');
  return row;
}

/** The show's own chat lines ('Vendido…', 'Sin venta…'), as its viewers read them. */
const systemEvents = async (sessionId: string) =>
  ((await call(null, 'GET', `/api/live-sessions/${sessionId}/chat`)).json() as ChatPage).items.filter((l) => l.kind === 'system').map((l) => l.system?.event);

const runsOf = (lotId: string) => server.ctx.db.select().from(liveLotRuns).where(eq(liveLotRuns.lotId, lotId));

describe('an online auction added as a lot', () => {
  it('closes at its own end as an ordinary auction while it waits in the queue: passed, not offered, sold to its leader', async () => {
    const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    const auctionId = await onlineLotWithBid(session.id);
    expect(await lotOf(session.id, auctionId)).toMatchObject({ status: 'queued', offered: false });

    const closed = await endNow(auctionId);
    expect(closed?.currentWinnerId).toBe(ana.id);
    const lot = await lotOf(session.id, auctionId);
    expect(lot).toMatchObject({ status: 'passed', offered: false });
    expect(lot.auction.state.status).toBe('ended');
    expect(await runsOf(lot.id)).toEqual([]);
    // Its viewers never read that it sold in the show.
    expect(await systemEvents(session.id)).not.toContain('lotSold');
  });

  it('may leave the queue, running online with bids or closed outside the show: no result of the show, its auction untouched', async () => {
    const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    const runningId = await onlineLotWithBid(session.id);
    const closedId = await onlineLotWithBid(session.id);
    await endNow(closedId);
    for (const auctionId of [runningId, closedId]) {
      const lot = await lotOf(session.id, auctionId);
      const res = await call(seller, 'DELETE', `/api/live-sessions/${session.id}/lots/${lot.id}`);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await detailOf(session.id)).lots).toEqual([]);
    const [running] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, runningId));
    expect(running).toMatchObject({ status: 'active', bidCount: 1 });
    // A session left with no sale of its own may go.
    const again = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    await endNow(await onlineLotWithBid(again.id));
    expect((await call(seller, 'DELETE', `/api/live-sessions/${again.id}`)).statusCode).toBe(200);
  });

  it('is on the block once set current while it runs on its own clock: its close is the show’s', async () => {
    const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    const auctionId = await onlineLotWithBid(session.id);
    const queued = await lotOf(session.id, auctionId);
    const current = await call(seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: queued.id });
    expect(current.statusCode, current.body).toBe(200);
    expect(await runsOf(queued.id)).toHaveLength(1);
    expect(await lotOf(session.id, auctionId)).toMatchObject({ offered: true });
    // Setting it current again starts no second run.
    await call(seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: queued.id });
    expect(await runsOf(queued.id)).toHaveLength(1);

    await endNow(auctionId);
    expect(await lotOf(session.id, auctionId)).toMatchObject({ status: 'finished', offered: true });
    await expect.poll(() => systemEvents(session.id)).toContain('lotSold');
  });

  it('runs on the show’s clock once its timer starts, and a pending lot set current waits for it without a run', async () => {
    const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    const pending = await buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'pending', startingPrice: 100 });
    const added = await call(seller, 'POST', `/api/live-sessions/${session.id}/lots`, { auctionId: pending.id });
    const lotId = (added.json() as LiveSessionDetail).lots[0]?.id as string;
    await call(seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId });
    expect(await runsOf(lotId)).toEqual([]);
    const timer = await call(seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 30 });
    expect(timer.statusCode, timer.body).toBe(200);
    expect(await runsOf(lotId)).toHaveLength(1);
    expect((await placeBid(server, ana, pending.id, { amount: 100 })).statusCode).toBe(201);
    await endNow(pending.id);
    expect(await lotOf(session.id, pending.id)).toMatchObject({ status: 'finished', offered: true });
  });

  it('a quick auction started at once is on the block from its first second', async () => {
    const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    const res = await call(seller, 'POST', `/api/live-sessions/${session.id}/quick-auction`, {
      name: 'Aretes de plata',
      startingPrice: 150,
      timerSeconds: 30,
      addToSession: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { auction } = res.json() as { auction: { id: string } };
    const lot = await lotOf(session.id, auction.id);
    expect(lot.offered).toBe(true);
    expect(await runsOf(lot.id)).toHaveLength(1);
  });

  it('belongs to the show that had it on the block last: waiting in one show and sold in the next is the next one’s sale', async () => {
    const first = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    const auction = await buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'pending', startingPrice: 200 });
    await call(seller, 'POST', `/api/live-sessions/${first.id}/lots`, { auctionId: auction.id });
    // The first show ends with the lot never on the block; the second sells it.
    expect((await call(seller, 'PUT', `/api/live-sessions/${first.id}`, { status: 'ended' })).statusCode).toBe(200);
    const second = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    const added = await call(seller, 'POST', `/api/live-sessions/${second.id}/lots`, { auctionId: auction.id });
    expect(added.statusCode, added.body).toBe(201);
    const lotId = (added.json() as LiveSessionDetail).lots[0]?.id as string;
    await call(seller, 'POST', `/api/live-sessions/${second.id}/current`, { lotId });
    await call(seller, 'POST', `/api/live-sessions/${second.id}/timer`, { seconds: 30 });
    expect((await placeBid(server, ana, auction.id, { amount: 200 })).statusCode).toBe(201);
    await endNow(auction.id);

    expect(await lotOf(second.id, auction.id)).toMatchObject({ status: 'finished', offered: true });
    expect(await lotOf(first.id, auction.id)).toMatchObject({ status: 'passed', offered: false });
    const [firstLot] = await server.ctx.db
      .select()
      .from(liveLots)
      .where(and(eq(liveLots.sessionId, first.id), eq(liveLots.auctionId, auction.id)));
    expect(firstLot?.status).toBe('passed');
  });
});
