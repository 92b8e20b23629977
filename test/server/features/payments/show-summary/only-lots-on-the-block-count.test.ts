import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../../src/domain/live.js';
import type { ShowSummary } from '../../../../../src/domain/show-summary.js';
import { auctions } from '../../../../../src/server/db/schema.js';
import { closeDueAuctions } from '../../../../../src/server/features/bids/scheduler.js';
import { type Actor, type Bidder, buildActor, buildBidder } from '../../../../support/actors.js';
import { buildAuction, buildSession } from '../../../../support/factories.js';
import { caller, placeBid, startTestServer, type TestServer } from '../../../../support/server.js';

/**
 * The show's summary counts only what sold on its block: an online auction added as a lot whose own
 * end came while it waited in the queue closed outside the show, and is neither a sale, nor an
 * unsold lot, nor a buyer of the show ('notOffered'). No scheduler runs here.
 */

const COMPANY = 'resumen-bloque';
let server: TestServer;
let seller: Actor;
let ana: Bidder;
let beto: Bidder;
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer();
  seller = await buildActor(server, { email: 'vende@bloque.mx', name: 'Blanca Bloque', roles: ['seller'], companyId: COMPANY });
  ana = await buildBidder(server);
  beto = await buildBidder(server);
}, 60_000);
afterAll(async () => server?.close());

async function endNow(auctionId: string) {
  await server.ctx.db.update(auctions).set({ endTime: sql`clock_timestamp()` }).where(eq(auctions.id, auctionId));
  await closeDueAuctions(server.ctx.db);
}

describe('a show’s summary', () => {
  it('leaves out an auction that closed at its own end while its lot waited in the queue', async () => {
    const db = server.ctx.db;
    const session = await buildSession(db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    const onBlock = await buildAuction(db, { companyId: COMPANY, sellerId: seller.id, status: 'pending', name: 'Reloj', startingPrice: 500 });
    const online = await buildAuction(db, {
      companyId: COMPANY,
      sellerId: seller.id,
      status: 'active',
      name: 'Lámpara',
      startingPrice: 900,
      endTime: new Date(Date.now() + 3_600_000),
    });
    expect((await placeBid(server, beto, online.id, { amount: 900 })).statusCode).toBe(201);
    for (const a of [onBlock, online]) expect((await call(seller, 'POST', `/api/live-sessions/${session.id}/lots`, { auctionId: a.id })).statusCode).toBe(201);

    // The first lot runs in the show and sells to Ana; the online one reaches its own end while it waits.
    const opened = await call(seller, 'POST', `/api/live-sessions/${session.id}/next`, {});
    expect((opened.json() as LiveSessionDetail).session.currentLotId).not.toBeNull();
    expect((await placeBid(server, ana, onBlock.id, { amount: 500 })).statusCode).toBe(201);
    await endNow(onBlock.id);
    await endNow(online.id);

    const res = await call(seller, 'GET', `/api/live-sessions/${session.id}/summary`);
    expect(res.statusCode, res.body).toBe(200);
    const summary = res.json() as ShowSummary;
    expect(summary.lots.map((l) => [l.name, l.status, l.finalPrice])).toEqual([
      ['Reloj', 'sold', 500],
      ['Lámpara', 'notOffered', null],
    ]);
    expect(summary.totals).toMatchObject({ grossSold: 500, lotsSold: 1, lotsUnsold: 0, buyers: 1, unpaidAmount: 500 });
    expect(summary.buyers.map((b) => b.buyerId)).toEqual([ana.id]);
  });
});
