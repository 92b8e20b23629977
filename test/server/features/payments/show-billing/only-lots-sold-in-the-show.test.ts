import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../../src/domain/live.js';
import type { WinnersSummary } from '../../../../../src/domain/payments.js';
import type { ShowBillAnswer, ShowBillOverview } from '../../../../../src/domain/show-billing.js';
import { auctions } from '../../../../../src/server/db/schema.js';
import { closeDueAuctions } from '../../../../../src/server/features/bids/scheduler.js';
import { type Actor, type Bidder, buildActor, buildBidder } from '../../../../support/actors.js';
import { buildAuction, buildSession } from '../../../../support/factories.js';
import { caller, placeBid, startTestServer, type TestServer } from '../../../../support/server.js';

/**
 * 'Cobrar el show' and the winners summary filtered to a show bill only what sold on the show's
 * block. An online auction whose own end came while its lot waited in the queue sold outside the
 * show: it is billed as any ordinary sale (the winners summary without a show), never in the show's
 * bill. An auction that waited in one show and sold in the next is the next show's. No scheduler runs.
 */

const COMPANY = 'cobro-bloque';
const rules = { mode: 'flat', flatFee: 150, perExtraItem: 50, freeOver: null, pickupAddress: null };
let server: TestServer;
let seller: Actor;
let ana: Bidder;
let beto: Bidder;
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer();
  seller = await buildActor(server, { email: 'vende@cobro-bloque.mx', name: 'Cora Cobro', roles: ['seller'], companyId: COMPANY });
  ana = await buildBidder(server);
  beto = await buildBidder(server);
}, 60_000);
afterAll(async () => server?.close());

async function endNow(auctionId: string) {
  await server.ctx.db.update(auctions).set({ endTime: sql`clock_timestamp()` }).where(eq(auctions.id, auctionId));
  await closeDueAuctions(server.ctx.db);
}

const auctionIdsOf = (summary: WinnersSummary) => Object.values(summary).flatMap((s) => s.wonItems.map((i) => i.auctionId));

/** Puts the lot of this auction on the block ('Establecer actual' and the timer), has `who` bid on it, and closes it. */
async function sellOnTheBlock(sessionId: string, auctionId: string, who: Bidder, amount: number) {
  const detail = (await call(seller, 'GET', `/api/live-sessions/${sessionId}`)).json() as LiveSessionDetail;
  const lotId = detail.lots.find((l) => l.auctionId === auctionId)?.id;
  expect((await call(seller, 'POST', `/api/live-sessions/${sessionId}/current`, { lotId })).statusCode).toBe(200);
  const timer = await call(seller, 'POST', `/api/live-sessions/${sessionId}/timer`, { seconds: 30 });
  expect(timer.statusCode, timer.body).toBe(200);
  expect((await placeBid(server, who, auctionId, { amount })).statusCode).toBe(201);
  await endNow(auctionId);
}

describe('billing a show', () => {
  it('bills what sold on its block, not an auction that closed at its own end while its lot waited', async () => {
    const db = server.ctx.db;
    const session = await buildSession(db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    const reloj = await buildAuction(db, { companyId: COMPANY, sellerId: seller.id, status: 'pending', name: 'Reloj', startingPrice: 500 });
    const lampara = await buildAuction(db, {
      companyId: COMPANY,
      sellerId: seller.id,
      status: 'active',
      name: 'Lámpara',
      startingPrice: 900,
      endTime: new Date(Date.now() + 3_600_000),
    });
    expect((await placeBid(server, beto, lampara.id, { amount: 900 })).statusCode).toBe(201);
    for (const a of [reloj, lampara]) expect((await call(seller, 'POST', `/api/live-sessions/${session.id}/lots`, { auctionId: a.id })).statusCode).toBe(201);
    await sellOnTheBlock(session.id, reloj.id, ana, 500);
    await endNow(lampara.id);
    expect((await call(seller, 'PUT', `/api/live-sessions/${session.id}/shipping`, rules)).statusCode).toBe(200);

    const overview = (await call(seller, 'GET', `/api/live-sessions/${session.id}/bill`)).json() as ShowBillOverview;
    expect(overview.preview.map((p) => [p.winnerId, p.wonItems.map((i) => i.auctionId)])).toEqual([[ana.id, [reloj.id]]]);
    const billed = (await call(seller, 'POST', `/api/live-sessions/${session.id}/bill`)).json() as ShowBillAnswer;
    expect(billed.created).toBe(1);
    expect(billed.payments.flatMap((p) => p.auctionIds)).toEqual([reloj.id]);

    // Beto's win is an ordinary sale: in the winners summary, not in the show's.
    expect(auctionIdsOf((await call(seller, 'GET', `/api/winners-summary?sessionId=${session.id}`)).json())).toEqual([]);
    expect(auctionIdsOf((await call(seller, 'GET', '/api/winners-summary')).json())).toContain(lampara.id);
  });

  it('bills an auction that waited in one show and sold in the next only in the next one', async () => {
    const db = server.ctx.db;
    const first = await buildSession(db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    const aretes = await buildAuction(db, { companyId: COMPANY, sellerId: seller.id, status: 'pending', name: 'Aretes', startingPrice: 200 });
    expect((await call(seller, 'POST', `/api/live-sessions/${first.id}/lots`, { auctionId: aretes.id })).statusCode).toBe(201);
    expect((await call(seller, 'PUT', `/api/live-sessions/${first.id}`, { status: 'ended' })).statusCode).toBe(200);
    const second = await buildSession(db, { companyId: COMPANY, sellerId: seller.id, status: 'live' });
    expect((await call(seller, 'POST', `/api/live-sessions/${second.id}/lots`, { auctionId: aretes.id })).statusCode).toBe(201);
    await sellOnTheBlock(second.id, aretes.id, ana, 200);
    for (const s of [first, second]) expect((await call(seller, 'PUT', `/api/live-sessions/${s.id}/shipping`, rules)).statusCode).toBe(200);

    expect(((await call(seller, 'GET', `/api/live-sessions/${first.id}/bill`)).json() as ShowBillOverview).preview).toEqual([]);
    expect(auctionIdsOf((await call(seller, 'GET', `/api/winners-summary?sessionId=${first.id}`)).json())).toEqual([]);
    expect(((await call(seller, 'POST', `/api/live-sessions/${first.id}/bill`)).json() as ShowBillAnswer).created).toBe(0);
    const billed = (await call(seller, 'POST', `/api/live-sessions/${second.id}/bill`)).json() as ShowBillAnswer;
    expect(billed.payments.flatMap((p) => p.auctionIds)).toEqual([aretes.id]);
  });
});
