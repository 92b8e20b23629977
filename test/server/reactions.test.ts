import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskName } from '../../src/domain/bidding.js';
import type { ChatPage } from '../../src/domain/chat.js';
import { closeDueAuctions } from '../../src/server/features/bids/scheduler.js';
import { installReactions, reactions } from '../../src/server/reactions.js';
import type { DomainEventType } from '../../src/server/realtime/publisher.js';
import { buildBidder } from '../support/actors.js';
import { buildAuction, buildLot } from '../support/factories.js';
import { caller, startTestServer, type TestServer } from '../support/server.js';
import { eventually } from '../support/wait.js';
import { buildShow, chatUrl } from './features/chat/fixtures.js';

/** The registry of what the server does when its own events are published (src/server/reactions.ts). */

let server: TestServer;
beforeAll(async () => {
  // No job runs: the test closes the lot by hand, so what follows the close is the reactions' doing.
  server = await startTestServer({ listen: false });
}, 60_000);
afterAll(async () => server?.close());

const call = caller(() => server);

describe('the reactions registry', () => {
  it('subscribes each reaction to its event, and the uninstall takes every one away', () => {
    const subscribed: DomainEventType[] = [];
    let unsubscribed = 0;
    const publisher = {
      subscribe(type: DomainEventType) {
        subscribed.push(type);
        return () => {
          unsubscribed++;
        };
      },
    };
    const uninstall = installReactions(publisher as never, {} as never);
    expect(subscribed).toEqual(['auctionClosed', 'lotTimerSet', 'lotTimerSet', 'lotFinished', 'sessionChanged']);
    expect(reactions.map((r) => r.name)).toEqual(['lot-finished', 'chat-lot-opened', 'recording-keyframe', 'chat-lot-finished', 'rehearsal-restore']);
    for (const r of reactions) expect(r.description.length, r.name).toBeGreaterThan(10);
    uninstall();
    expect(unsubscribed).toBe(reactions.length);
  });

  it('a sold lot writes "¡Vendido…!" in the show\'s chat: the close finishes the lot, the finish writes the line', async () => {
    const show = await buildShow(server);
    const auction = await buildAuction(server.ctx.db, { companyId: show.companyId, sellerId: show.seller.id, name: 'Reloj de bolsillo', startingPrice: 800 });
    const lot = await buildLot(server.ctx.db, { sessionId: show.sessionId, auctionId: auction.id });
    expect((await call(show.seller, 'POST', `/api/live-sessions/${show.sessionId}/current`, { lotId: lot.id })).statusCode).toBe(200);
    expect((await call(show.seller, 'POST', `/api/live-sessions/${show.sessionId}/timer`, { seconds: 60 })).statusCode).toBe(200);
    const bidder = await buildBidder(server);
    expect((await call(bidder, 'POST', `/api/auctions/${auction.id}/bids`, { amount: 800 })).statusCode).toBe(201);

    // Past its end, closed and published as the closing job does.
    await server.ctx.db.execute(sql`update auctions set end_time = clock_timestamp() - interval '1 second' where id = ${auction.id}::uuid`);
    const closed = await closeDueAuctions(server.ctx.db);
    expect(closed.map((s) => s.id)).toContain(auction.id);
    await server.ctx.publisher.publish(closed.map((state) => ({ type: 'auctionClosed', state }) as const));

    const systemLines = async () =>
      ((await call(null, 'GET', chatUrl(show.sessionId))).json() as ChatPage).items.filter((l) => l.kind === 'system').map((l) => l.system);
    await eventually(async () => (await systemLines()).some((s) => s?.event === 'lotSold'));
    expect(await systemLines()).toEqual([
      { event: 'lotOpened', lotId: lot.id, auctionName: 'Reloj de bolsillo', startingPrice: 800 },
      { event: 'lotSold', lotId: lot.id, auctionName: 'Reloj de bolsillo', price: 800, winnerName: maskName(bidder.name) },
    ]);
  });
});
