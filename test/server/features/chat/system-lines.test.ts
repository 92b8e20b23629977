import { eq, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskName } from '../../../../src/domain/bidding.js';
import type { ChatMessage, ChatPage } from '../../../../src/domain/chat.js';
import { liveSessions } from '../../../../src/server/db/schema.js';
import { writeLotFinished, writeLotOpened } from '../../../../src/server/features/chat/system-lines.js';
import type { DomainEventOf } from '../../../../src/server/realtime/publisher.js';
import { buildBidder } from '../../../support/actors.js';
import { buildAuction, buildLot } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { eventMatching } from '../../../support/sockets.js';
import { eventually } from '../../../support/wait.js';
import { buildShow, chatUrl, type Show, viewerIn } from './fixtures.js';

/**
 * The show's own events in its chat: a lot goes on the block when its timer first starts, sold to a
 * masked bidder for a price, or unsold; each written once, and nothing added to an ended show.
 */

let server: TestServer;
const open: Socket[] = [];
beforeAll(async () => {
  server = await startTestServer({ jobs: ['closing'] });
}, 60_000);
afterAll(async () => {
  for (const s of open) s.disconnect();
  await server?.close();
});

const call = caller(() => server);

async function lotOnShow(show: Show, name: string, startingPrice = 500) {
  const auction = await buildAuction(server.ctx.db, { companyId: show.companyId, sellerId: show.seller.id, name, startingPrice });
  const lot = await buildLot(server.ctx.db, { sessionId: show.sessionId, auctionId: auction.id });
  const current = await call(show.seller, 'POST', `/api/live-sessions/${show.sessionId}/current`, { lotId: lot.id });
  expect(current.statusCode, current.body).toBe(200);
  return { auction, lot };
}

async function startTimer(show: Show, seconds: number) {
  const res = await call(show.seller, 'POST', `/api/live-sessions/${show.sessionId}/timer`, { seconds });
  expect(res.statusCode, res.body).toBe(200);
}

/** The scheduler closes the auction once its end, brought near, passes. */
async function closeSoon(auctionId: string) {
  await server.ctx.db.execute(sql`update auctions set end_time = clock_timestamp() + interval '50 milliseconds' where id = ${auctionId}::uuid`);
}

const systemLines = async (sessionId: string) =>
  ((await call(null, 'GET', chatUrl(sessionId))).json() as ChatPage).items.filter((l) => l.kind === 'system').map((l) => l.system);

describe('system lines', () => {
  it('puts a lot on the block once, however often its timer moves, and says it sold, to whom (masked) and for how much', async () => {
    const show = await buildShow(server);
    const { auction, lot } = await lotOnShow(show, 'Reloj de bolsillo', 800);
    const viewer = await viewerIn(server, show.sessionId, open);
    const opened = eventMatching<ChatMessage>(viewer, 'chatMessage', (m) => m.system?.event === 'lotOpened');
    await startTimer(show, 60);
    const line = await opened;
    expect(line).toMatchObject({
      kind: 'system',
      authorName: null,
      authorTag: null,
      text: 'Reloj de bolsillo',
      system: { event: 'lotOpened', lotId: lot.id, auctionName: 'Reloj de bolsillo', startingPrice: 800 },
    });
    await startTimer(show, 120);

    const bidder = await buildBidder(server);
    const bid = await call(bidder, 'POST', `/api/auctions/${auction.id}/bids`, { amount: 800 });
    expect(bid.statusCode, bid.body).toBe(201);
    const sold = eventMatching<ChatMessage>(viewer, 'chatMessage', (m) => m.system?.event === 'lotSold');
    await closeSoon(auction.id);
    expect((await sold).system).toEqual({ event: 'lotSold', lotId: lot.id, auctionName: 'Reloj de bolsillo', price: 800, winnerName: maskName(bidder.name) });
    expect(JSON.stringify(await sold)).not.toContain(bidder.id);
    expect((await systemLines(show.sessionId)).map((s) => s?.event)).toEqual(['lotOpened', 'lotSold']);
  });

  it('says a lot went unsold, and a re-run puts it on the block again', async () => {
    const show = await buildShow(server);
    const { auction, lot } = await lotOnShow(show, 'Jarrón de Talavera');
    await startTimer(show, 30);
    await closeSoon(auction.id);
    await eventually(async () => (await systemLines(show.sessionId)).length === 2);
    await startTimer(show, 30);
    await closeSoon(auction.id);
    await eventually(async () => (await systemLines(show.sessionId)).length === 4);
    const unsold = { event: 'lotUnsold', lotId: lot.id, auctionName: 'Jarrón de Talavera' };
    const opened = { event: 'lotOpened', lotId: lot.id, auctionName: 'Jarrón de Talavera', startingPrice: 500 };
    expect(await systemLines(show.sessionId)).toEqual([opened, unsold, opened, unsold]);
  });

  it('writes each line once even when two instances hear of the same event at once', async () => {
    const show = await buildShow(server);
    const { auction, lot } = await lotOnShow(show, 'Guitarra');
    await startTimer(show, 30);
    await eventually(async () => (await systemLines(show.sessionId)).length === 1);
    const bidder = await buildBidder(server);
    await call(bidder, 'POST', `/api/auctions/${auction.id}/bids`, { amount: 500 });
    const opened = { timer: { sessionId: show.sessionId, lotId: lot.id }, auction: { name: 'Guitarra', startingPrice: 500 } } as DomainEventOf<'lotTimerSet'>;
    const state = { winnerName: 'Po***', currentPrice: 500, endTime: 1 };
    const finished = { finished: { sessionId: show.sessionId, lotId: lot.id, state } } as DomainEventOf<'lotFinished'>;
    const db = server.ctx.db;
    const [firstSold, secondSold] = await Promise.all([writeLotFinished(db, finished), writeLotFinished(db, finished)]);
    expect([firstSold, secondSold].filter(Boolean)).toHaveLength(1);
    // The lot is on the block already: its timer moving again writes nothing.
    expect(await Promise.all([writeLotOpened(db, opened), writeLotOpened(db, opened)])).toEqual([null, null]);
    expect((await systemLines(show.sessionId)).map((s) => s?.event)).toEqual(['lotOpened', 'lotSold']);
  });

  it('adds nothing to an ended show’s chat', async () => {
    const show = await buildShow(server);
    const { lot } = await lotOnShow(show, 'Cámara antigua');
    await startTimer(show, 30);
    await eventually(async () => (await systemLines(show.sessionId)).length === 1);
    await server.ctx.db.update(liveSessions).set({ status: 'ended' }).where(eq(liveSessions.id, show.sessionId));
    const state = { winnerName: null, currentPrice: null, endTime: 2 };
    expect(await writeLotFinished(server.ctx.db, { finished: { sessionId: show.sessionId, lotId: lot.id, state } } as DomainEventOf<'lotFinished'>)).toBeNull();
    expect((await systemLines(show.sessionId)).map((s) => s?.event)).toEqual(['lotOpened']);
  });
});
