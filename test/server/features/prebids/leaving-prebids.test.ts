import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../src/domain/live.js';
import { formatMoney } from '../../../../src/domain/money.js';
import type { MySessionPrebids, PrebidAnswer, PrebidStatus } from '../../../../src/domain/prebids.js';
import { auctions, bids, companyBlocks, prebids } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor, buildBidder } from '../../../support/actors.js';
import { buildAuction } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * 'Puja anticipada' before the lot opens: a buyer leaves a maximum on a show's queued lot, raises
 * it, may not lower it, and withdraws it only while the show has not gone live. Every refusal
 * answers in Spanish and writes nothing. The opening is opening-prebids.test.ts.
 */

const COMPANY = 'remates-anticipados';
let server: TestServer;
let seller: Actor;
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@anticipa.mx', name: 'Vera Vendedora', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterAll(async () => server?.close());

async function ok<T>(res: LightMyRequestResponse, status = 200): Promise<T> {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

/** A scheduled show with one queued lot: a pending auction starting at $100. */
async function scheduledLot() {
  const auction = await buildAuction(server.ctx.db, {
    companyId: COMPANY,
    sellerId: seller.id,
    status: 'pending',
    startingPrice: 100,
    name: 'Reloj de bolsillo',
  });
  const made = await ok<LiveSessionDetail>(
    await call(seller, 'POST', '/api/live-sessions', { title: 'Show del viernes', scheduledAt: Date.UTC(2030, 0, 3, 18) }),
    201,
  );
  const detail = await ok<LiveSessionDetail>(await call(seller, 'POST', `/api/live-sessions/${made.session.id}/lots`, { auctionId: auction.id }), 201);
  const lot = detail.lots.find((l) => l.auction.id === auction.id);
  if (!lot) throw new Error('no lot');
  return { auction, sessionId: made.session.id, lotId: lot.id };
}

const leave = (who: Actor | null, auctionId: string, body: unknown) => call(who, 'POST', `/api/auctions/${auctionId}/prebids`, body);
const mine = (who: Actor | null, auctionId: string) => call(who, 'GET', `/api/auctions/${auctionId}/prebids/mine`);
const withdraw = (who: Actor | null, auctionId: string) => call(who, 'DELETE', `/api/auctions/${auctionId}/prebids/mine`);
const rowsOf = (auctionId: string) => server.ctx.db.select().from(prebids).where(eq(prebids.auctionId, auctionId));

describe('leaving a pre-bid', () => {
  it('makes one (201), answers a repeat with the same (200), raises it keeping its place in line, and shows it to its buyer alone', async () => {
    const { auction, sessionId } = await scheduledLot();
    const buyer = await buildBidder(server);
    const other = await buildBidder(server);

    const made = await ok<PrebidAnswer>(await leave(buyer, auction.id, { maxAmount: 150 }), 201);
    expect(made.prebid).toMatchObject({ auctionId: auction.id, maxAmount: 150, binding: false, enteredAt: null, outcome: null });
    expect(made.status).toMatchObject({ open: true, sessionId, sessionStatus: 'scheduled', minimum: 100 });

    const repeated = await ok<PrebidAnswer>(await leave(buyer, auction.id, { maxAmount: 150 }), 200);
    expect(repeated.prebid).toEqual(made.prebid);

    const raised = await ok<PrebidAnswer>(await leave(buyer, auction.id, { maxAmount: 400 }), 200);
    expect(raised.prebid).toMatchObject({ maxAmount: 400, createdAt: made.prebid.createdAt });
    expect(await rowsOf(auction.id)).toHaveLength(1);

    expect((await ok<PrebidStatus>(await mine(buyer, auction.id))).mine).toMatchObject({ maxAmount: 400, binding: false });
    // No one else's maximum leaves the server, and the count alone shows in the Hub.
    expect(await ok<PrebidStatus>(await mine(other, auction.id))).toMatchObject({ open: true, mine: null });
    expect(await ok<PrebidStatus>(await mine(null, auction.id))).toMatchObject({ open: true, mine: null });
    // The live page reads the buyer's own on the whole show in one request.
    const show = await ok<MySessionPrebids>(await call(buyer, 'GET', `/api/live-sessions/${sessionId}/prebids/mine`));
    expect(show.items).toEqual([raised.prebid]);
    expect((await ok<MySessionPrebids>(await call(other, 'GET', `/api/live-sessions/${sessionId}/prebids/mine`))).items).toEqual([]);
    expect((await ok<MySessionPrebids>(await call(null, 'GET', `/api/live-sessions/${sessionId}/prebids/mine`))).items).toEqual([]);
    const hub = await ok<LiveSessionDetail>(await call(seller, 'GET', `/api/live-sessions/${sessionId}`));
    expect(hub.lots[0]?.prebidCount).toBe(1);
    expect(JSON.stringify(hub)).not.toContain('"maxAmount"');
  });

  it('refuses to lower a maximum, in Spanish, and keeps the one standing', async () => {
    const { auction } = await scheduledLot();
    const buyer = await buildBidder(server);
    await ok(await leave(buyer, auction.id, { maxAmount: 300 }), 201);
    const res = await leave(buyer, auction.id, { maxAmount: 250 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(messages.prebids.lower.replace('{{amount}}', formatMoney(300)));
    expect((await rowsOf(auction.id)).map((r) => r.maxAmount)).toEqual([300]);
  });
});

describe('refusals write nothing', () => {
  it.each([
    ['signed out', 401, async (): Promise<Actor | null> => null, { maxAmount: 200 }, null],
    [
      'below the starting price',
      409,
      async (): Promise<Actor> => buildBidder(server),
      { maxAmount: 99 },
      messages.prebids.tooLow.replace('{{amount}}', formatMoney(100)),
    ],
    [
      'an incomplete profile',
      403,
      async (): Promise<Actor> => buildActor(server, { email: `incompleto-${Date.now()}@ejemplo.mx`, name: 'Ina Incompleta', roles: ['buyer'] }),
      { maxAmount: 200 },
      messages.prebids.profileIncomplete,
    ],
    [
      'the auction’s own company',
      403,
      async () =>
        buildActor(server, { email: `colega-${Date.now()}@anticipa.mx`, name: 'Coco Colega', roles: ['seller'], companyId: COMPANY, completeProfile: true }),
      { maxAmount: 200 },
      messages.prebids.ownAuction,
    ],
    [
      'a buyer the company blocked',
      403,
      async (): Promise<Actor> => {
        const buyer = await buildBidder(server);
        await server.ctx.db.insert(companyBlocks).values({ companyId: COMPANY, userId: buyer.id });
        return buyer;
      },
      { maxAmount: 200 },
      messages.prebids.blocked,
    ],
    ['cents', 400, async (): Promise<Actor> => buildBidder(server), { maxAmount: 150.5 }, messages.errors.validation],
  ] as const)('%s', async (_label, status, who, body, message) => {
    const { auction } = await scheduledLot();
    const res = await leave(await who(), auction.id, body);
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json().error.message).toBe(message);
    if (status === 400) expect(res.json().error.fields.maxAmount).toBe(messages.prebids.fields.prebidInteger);
    expect(await rowsOf(auction.id)).toEqual([]);
  });

  it('refuses an auction outside a show, a lot already open, and an unknown auction', async () => {
    const buyer = await buildBidder(server);
    const loose = await buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'pending', startingPrice: 100 });
    const outside = await leave(buyer, loose.id, { maxAmount: 200 });
    expect(outside.statusCode).toBe(409);
    expect(outside.json().error.message).toBe(messages.prebids.notInShow);
    expect(await ok<PrebidStatus>(await mine(buyer, loose.id))).toMatchObject({ open: false, sessionId: null, mine: null });

    const { auction, sessionId, lotId } = await scheduledLot();
    await ok(await call(seller, 'POST', `/api/live-sessions/${sessionId}/current`, { lotId }));
    await ok(await call(seller, 'POST', `/api/live-sessions/${sessionId}/timer`, { seconds: 60 }));
    const opened = await leave(buyer, auction.id, { maxAmount: 200 });
    expect(opened.statusCode).toBe(409);
    expect(opened.json().error.message).toBe(messages.prebids.notOpen);
    expect(await ok<PrebidStatus>(await mine(buyer, auction.id))).toMatchObject({ open: false, sessionStatus: 'live' });

    expect((await leave(buyer, '00000000-0000-4000-8000-000000000000', { maxAmount: 200 })).statusCode).toBe(404);
    expect(await rowsOf(auction.id)).toEqual([]);
    expect(await rowsOf(loose.id)).toEqual([]);
    const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auction.id));
    expect(row?.bidCount).toBe(0);
    expect(await server.ctx.db.select().from(bids).where(eq(bids.auctionId, auction.id))).toEqual([]);
  });
});

describe('withdrawing a pre-bid', () => {
  it('is allowed while the show is scheduled, and binding once it is live (raising still allowed)', async () => {
    const { auction, sessionId, lotId } = await scheduledLot();
    const buyer = await buildBidder(server);
    await ok(await leave(buyer, auction.id, { maxAmount: 200 }), 201);
    expect((await withdraw(buyer, auction.id)).statusCode).toBe(204);
    expect(await rowsOf(auction.id)).toEqual([]);
    const none = await withdraw(buyer, auction.id);
    expect(none.statusCode).toBe(404);
    expect(none.json().error.message).toBe(messages.prebids.notFound);

    await ok(await leave(buyer, auction.id, { maxAmount: 200 }), 201);
    // 'Establecer actual' puts the show live; the lot has no timer yet, so it still takes pre-bids.
    await ok(await call(seller, 'POST', `/api/live-sessions/${sessionId}/current`, { lotId }));
    const binding = await withdraw(buyer, auction.id);
    expect(binding.statusCode).toBe(409);
    expect(binding.json().error.message).toBe(messages.prebids.binding);
    expect((await rowsOf(auction.id)).map((r) => r.maxAmount)).toEqual([200]);
    expect((await ok<PrebidStatus>(await mine(buyer, auction.id))).mine).toMatchObject({ binding: true, maxAmount: 200 });

    expect((await ok<PrebidAnswer>(await leave(buyer, auction.id, { maxAmount: 260 }), 200)).prebid).toMatchObject({ maxAmount: 260, binding: true });
    // A pause is part of the show: the pre-bid stays binding.
    await ok(await call(seller, 'PUT', `/api/live-sessions/${sessionId}`, { status: 'paused' }));
    expect((await withdraw(buyer, auction.id)).statusCode).toBe(409);
    expect((await ok<PrebidAnswer>(await leave(buyer, auction.id, { maxAmount: 280 }), 200)).prebid).toMatchObject({ maxAmount: 280, binding: true });
    expect((await withdraw(null, auction.id)).statusCode).toBe(401);
  });
});
