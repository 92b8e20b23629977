import { asc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../src/domain/live.js';
import type { PrebidResultEvent, PrebidStatus } from '../../../../src/domain/prebids.js';
import { AUCTION_STATE_EVENT, type AuctionStateEvent, LOT_TIMER_EVENT, type LotTimerEvent, PREBID_RESULT_EVENT } from '../../../../src/domain/realtime.js';
import { auctions, bids, companyBlocks, prebids, userProfiles } from '../../../../src/server/db/schema.js';
import { type Actor, type Bidder, buildActor, buildBidder } from '../../../support/actors.js';
import { buildAuction } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../../support/sockets.js';

/**
 * A lot opening with pre-bids: the Hub's timer button takes its waiting maximums into the bid
 * engine by the time they were left, so the lot opens at the proxy price with its leader (the
 * earlier of equal maximums), the rooms hear that state at once, and each pre-bidder hears on
 * their own socket whether they lead. A buyer blocked, or whose profile lost what bidding needs,
 * since they left it is refused by the engine at the opening, and told.
 */

const COMPANY = 'remates-apertura';
let server: TestServer;
let seller: Actor;
const call = caller(() => server);
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await startTestServer();
  seller = await buildActor(server, { email: 'vende@apertura.mx', name: 'Olga Organizadora', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => server?.close());

async function ok<T>(res: LightMyRequestResponse, status = 200): Promise<T> {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

async function scheduledLot(startingPrice = 100) {
  const auction = await buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'pending', startingPrice, name: 'Lámpara de latón' });
  const made = await ok<LiveSessionDetail>(
    await call(seller, 'POST', '/api/live-sessions', { title: 'Show de apertura', scheduledAt: Date.UTC(2030, 0, 4, 18) }),
    201,
  );
  const detail = await ok<LiveSessionDetail>(await call(seller, 'POST', `/api/live-sessions/${made.session.id}/lots`, { auctionId: auction.id }), 201);
  const lot = detail.lots.find((l) => l.auction.id === auction.id);
  if (!lot) throw new Error('no lot');
  return { auctionId: auction.id, sessionId: made.session.id, lotId: lot.id };
}

const leave = async (who: Actor, auctionId: string, maxAmount: number) => ok(await call(who, 'POST', `/api/auctions/${auctionId}/prebids`, { maxAmount }), 201);

/** A socket signed in as `who` (its own room receives the pre-bid's result). */
async function socketOf(who: Actor | null): Promise<Socket> {
  const s = connectSocket(server.url, who ? { cookie: who.cookie } : {});
  sockets.push(s);
  await connected(s);
  return s;
}

/** 'Establecer actual' and the timer button, as the seller does in the Hub. */
async function open(show: { sessionId: string; lotId: string }) {
  await ok(await call(seller, 'POST', `/api/live-sessions/${show.sessionId}/current`, { lotId: show.lotId }));
  await ok(await call(seller, 'POST', `/api/live-sessions/${show.sessionId}/timer`, { seconds: 60 }));
}

const resultFor = (s: Socket, auctionId: string) => eventMatching<PrebidResultEvent>(s, PREBID_RESULT_EVENT, (e) => e.auctionId === auctionId);
const tag = (auctionId: string, who: Actor) => server.ctx.bidding.present.tag(auctionId, who.id);

describe('a lot opening with pre-bids', () => {
  it('opens at the proxy price with the highest maximum leading, shown at once to the rooms, and tells each pre-bidder', async () => {
    const show = await scheduledLot();
    const [high, low] = [await buildBidder(server), await buildBidder(server)];
    await leave(low, show.auctionId, 300);
    await leave(high, show.auctionId, 500);

    const viewer = await socketOf(null);
    expect(await viewer.timeout(5000).emitWithAck('joinSession', { sessionId: show.sessionId })).toMatchObject({ ok: true });
    expect(await viewer.timeout(5000).emitWithAck('joinAuction', { auctionId: show.auctionId })).toMatchObject({ ok: true });
    const [highSocket, lowSocket] = [await socketOf(high), await socketOf(low)];
    const heard = {
      timer: eventMatching<LotTimerEvent>(viewer, LOT_TIMER_EVENT, (e) => e.auctionId === show.auctionId),
      room: eventMatching<AuctionStateEvent>(viewer, AUCTION_STATE_EVENT, (e) => e.state.id === show.auctionId && e.bids.length > 0),
      high: resultFor(highSocket, show.auctionId),
      low: resultFor(lowSocket, show.auctionId),
    };
    await open(show);

    // The earlier maximum (300) bid the starting price; the later (500) takes the lead one increment above it.
    const timer = await heard.timer;
    expect(timer.state).toMatchObject({ status: 'live', currentPrice: 320, leaderTag: tag(show.auctionId, high), nextMinimum: 340 });
    expect(timer.state.endTime).toBe(timer.endTime);
    const room = await heard.room;
    expect(room.state).toMatchObject({ currentPrice: 320, leaderTag: tag(show.auctionId, high) });
    expect(room.bids.map((b) => b.amount)).toEqual([100, 300, 320]);
    expect(await heard.high).toMatchObject({
      outcome: 'leading',
      maxAmount: 500,
      currentPrice: 320,
      sessionId: show.sessionId,
      auctionName: 'Lámpara de latón',
    });
    expect(await heard.low).toMatchObject({ outcome: 'outbid', maxAmount: 300, currentPrice: 320 });

    const [auction] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, show.auctionId));
    expect(auction).toMatchObject({ currentPrice: 320, leaderId: high.id, leaderMax: 500, bidCount: 3 });
    const entered = await server.ctx.db.select().from(prebids).where(eq(prebids.auctionId, show.auctionId)).orderBy(asc(prebids.createdAt));
    expect(entered.map((p) => [p.bidderId, p.outcome, p.enteredAt !== null])).toEqual([
      [low.id, 'outbid', true],
      [high.id, 'leading', true],
    ]);
    // Entered pre-bids no longer count in the Hub, and the lot takes none now.
    const hub = await ok<LiveSessionDetail>(await call(seller, 'GET', `/api/live-sessions/${show.sessionId}`));
    expect(hub.lots[0]?.prebidCount).toBe(0);
    const status = await ok<PrebidStatus>(await call(high, 'GET', `/api/auctions/${show.auctionId}/prebids/mine`));
    expect(status).toMatchObject({ open: false, mine: { outcome: 'leading', binding: true } });
  });

  it('gives the lead to the earlier of two equal maximums, and refuses a maximum below the opening minimum', async () => {
    const show = await scheduledLot();
    const [first, second, short] = [await buildBidder(server), await buildBidder(server), await buildBidder(server)];
    await leave(first, show.auctionId, 400);
    await leave(second, show.auctionId, 400);
    await leave(short, show.auctionId, 350);
    const [firstSocket, secondSocket, shortSocket] = [await socketOf(first), await socketOf(second), await socketOf(short)];
    const heard = [resultFor(firstSocket, show.auctionId), resultFor(secondSocket, show.auctionId), resultFor(shortSocket, show.auctionId)];
    await open(show);

    const [toFirst, toSecond, toShort] = await Promise.all(heard);
    expect(toFirst).toMatchObject({ outcome: 'leading', currentPrice: 400 });
    expect(toSecond).toMatchObject({ outcome: 'outbid', currentPrice: 400 });
    expect(toShort).toMatchObject({ outcome: 'BID_TOO_LOW', currentPrice: 400 });
    const [auction] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, show.auctionId));
    expect(auction).toMatchObject({ currentPrice: 400, leaderId: first.id });
    const placed = await server.ctx.db.select().from(bids).where(eq(bids.auctionId, show.auctionId));
    expect(placed.some((b) => b.bidderId === short.id)).toBe(false);
  });

  it('refuses at the opening a buyer blocked or left with an incomplete profile since, records it and tells them', async () => {
    const show = await scheduledLot();
    const [blocked, incomplete, fine]: [Bidder, Bidder, Bidder] = [await buildBidder(server), await buildBidder(server), await buildBidder(server)];
    await leave(blocked, show.auctionId, 900);
    await leave(incomplete, show.auctionId, 800);
    await leave(fine, show.auctionId, 200);
    await server.ctx.db.insert(companyBlocks).values({ companyId: COMPANY, userId: blocked.id });
    await server.ctx.db.update(userProfiles).set({ lastName: null }).where(eq(userProfiles.userId, incomplete.id));
    const [blockedSocket, incompleteSocket, fineSocket] = [await socketOf(blocked), await socketOf(incomplete), await socketOf(fine)];
    const heard = [resultFor(blockedSocket, show.auctionId), resultFor(incompleteSocket, show.auctionId), resultFor(fineSocket, show.auctionId)];
    await open(show);

    const [toBlocked, toIncomplete, toFine] = await Promise.all(heard);
    expect(toBlocked).toMatchObject({ outcome: 'BUYER_BLOCKED' });
    expect(toIncomplete).toMatchObject({ outcome: 'PROFILE_INCOMPLETE' });
    expect(toFine).toMatchObject({ outcome: 'leading', currentPrice: 100 });
    const outcomes = Object.fromEntries(
      (await server.ctx.db.select().from(prebids).where(eq(prebids.auctionId, show.auctionId))).map((p) => [p.bidderId, p.outcome]),
    );
    expect(outcomes).toEqual({ [blocked.id]: 'BUYER_BLOCKED', [incomplete.id]: 'PROFILE_INCOMPLETE', [fine.id]: 'leading' });
    const placed = await server.ctx.db.select().from(bids).where(eq(bids.auctionId, show.auctionId));
    expect(placed.map((b) => b.bidderId)).toEqual([fine.id]);
  });
});
