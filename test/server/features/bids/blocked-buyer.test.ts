import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../../src/domain/role-rules.js';
import { auctions, auditLog, bids, liveLots } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildCompany, buildSession } from '../../../support/factories.js';
import { bidCaller, caller, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * A buyer a company blocked (from its chat, by a moderator, or from the panel) is refused by the
 * bid engine itself on every auction of that company, regular or a live show's lot: a bid, a
 * maximum and a buy-now. Other companies' auctions take their bids, and unblocking lets them bid again.
 */

let server: TestServer;
let seller: Actor;
let companyAdmin: Actor;
let otherSeller: Actor;
const bid = bidCaller(() => server);
const call = caller(() => server);

const person = (name: string, roles: Role[], companyId: string | null = null) =>
  buildActor(server, { email: `${name.toLowerCase()}-${randomUUID().slice(0, 6)}@ejemplo.mx`, name, roles, companyId, completeProfile: true });

function buyNow(actor: Actor, auctionId: string) {
  return server.app.inject({ method: 'POST', url: `/api/auctions/${auctionId}/buy-now`, headers: { cookie: actor.cookie, 'idempotency-key': randomUUID() } });
}

const inOneHour = () => new Date(Date.now() + 3_600_000);

function regularAuction(companyId: string, sellerId: string) {
  return buildAuction(server.ctx.db, { status: 'active', endTime: inOneHour(), startingPrice: 500, buyNowPrice: 5000, companyId, sellerId });
}

/** A lot on the block of a live show: the auction is live, its timer running. */
async function liveLot(companyId: string, sellerId: string) {
  const session = await buildSession(server.ctx.db, { companyId, sellerId, status: 'live' });
  const auction = await buildAuction(server.ctx.db, { status: 'live', endTime: inOneHour(), startingPrice: 500, buyNowPrice: 5000, companyId, sellerId });
  await server.ctx.db.insert(liveLots).values({ sessionId: session.id, auctionId: auction.id, order: 1 });
  return auction;
}

/** What a refusal must leave untouched: the auction row, its bids and the audit log about it. */
async function trace(auctionId: string) {
  const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auctionId));
  const placed = await server.ctx.db.select().from(bids).where(eq(bids.auctionId, auctionId));
  const audited = await server.ctx.db.select().from(auditLog).where(eq(auditLog.entityId, auctionId));
  return { row, placed, audited };
}

async function block(buyer: Actor) {
  expect((await call(companyAdmin, 'POST', '/api/companies/tianguis/blocks', { userId: buyer.id })).statusCode).toBe(201);
}

beforeAll(async () => {
  server = await startTestServer();
  await buildCompany(server.ctx.db, { id: 'tianguis' });
  await buildCompany(server.ctx.db, { id: 'norte' });
  seller = await person('Vendedora', ['seller'], 'tianguis');
  companyAdmin = await person('Jefa', ['admin'], 'tianguis');
  otherSeller = await person('Norteño', ['seller'], 'norte');
});
afterAll(async () => server?.close());

describe('a buyer blocked by a company', () => {
  it.each([
    ['a regular auction', regularAuction],
    ['a live show’s lot', liveLot],
  ] as const)('is refused a bid, a maximum and a buy-now on %s, and nothing is written', async (_label, build) => {
    const buyer = await person('Bloqueado', ['buyer']);
    const other = await person('Otro', ['buyer']);
    const auction = await build('tianguis', seller.id);
    // Someone else already bids, so the refusal meets a standing price it must not move.
    expect((await bid(other, auction.id, { amount: 500 })).statusCode).toBe(201);
    await block(buyer);
    const before = await trace(auction.id);

    for (const res of [
      await bid(buyer, auction.id, { amount: 520 }),
      await bid(buyer, auction.id, { amount: 520, maxAmount: 2000 }),
      await bid(buyer, auction.id, { amount: 520 }, { 'idempotency-key': randomUUID() }),
      await buyNow(buyer, auction.id),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'BUYER_BLOCKED', message: messages.bidding.blocked });
    }
    expect(await trace(auction.id)).toEqual(before);
  });

  it.each([
    ['a regular auction', regularAuction],
    ['a live show’s lot', liveLot],
  ] as const)('still bids and buys on another company’s %s', async (_label, build) => {
    const buyer = await person('Bloqueado', ['buyer']);
    await block(buyer);
    const auction = await build('norte', otherSeller.id);
    expect((await bid(buyer, auction.id, { amount: 500 })).statusCode).toBe(201);
    const bought = await buyNow(buyer, auction.id);
    expect(bought.statusCode).toBe(200);
    expect(bought.json().state).toMatchObject({ status: 'ended', currentPrice: 5000 });
  });

  it('bids again once unblocked', async () => {
    const buyer = await person('Perdonado', ['buyer']);
    const regular = await regularAuction('tianguis', seller.id);
    const lot = await liveLot('tianguis', seller.id);
    await block(buyer);
    expect((await bid(buyer, regular.id, { amount: 500 })).json().error.code).toBe('BUYER_BLOCKED');
    expect((await call(companyAdmin, 'DELETE', `/api/companies/tianguis/blocks/${buyer.id}`)).statusCode).toBe(204);

    const res = await bid(buyer, regular.id, { amount: 500 });
    expect(res.statusCode).toBe(201);
    expect(res.json().state).toMatchObject({ currentPrice: 500, bidCount: 1 });
    expect((await bid(buyer, lot.id, { amount: 500 })).statusCode).toBe(201);
    expect((await buyNow(buyer, lot.id)).statusCode).toBe(200);
  });
});
