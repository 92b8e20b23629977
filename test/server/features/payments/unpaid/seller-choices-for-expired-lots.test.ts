import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpiredAnswer, ExpiredLotView } from '../../../../../src/domain/unpaid.js';
import { auctions, bids, buyerStrikes, companyBlocks, liveLots, payments, secondChanceOffers } from '../../../../../src/server/db/schema.js';
import { expireDuePayments } from '../../../../../src/server/features/payments/unpaid/expiry.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildAuction, buildCompany, buildSession } from '../../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../../support/server.js';

/**
 * The seller's choice for each lot of an expired bill, with the payments sandbox: Segunda
 * oportunidad (the runner-up's own highest bid, a link and a deadline; they may decline; paying
 * marks the offer paid; its bill expiring is no strike), another show, or release. Once per lot,
 * only within the seller's company.
 */

const COMPANY = 'remates-segunda';
let server: TestServer;
let seller: Actor;
let winner: Actor;
let second: Actor;
let third: Actor;
const call = caller(() => server);

beforeAll(async () => {
  // The tests run the expiry passes by hand; the server's own expiry job could take a bill first.
  server = await startTestServer();
  await buildCompany(server.ctx.db, { id: COMPANY, strikeLimit: 5 });
  seller = await buildActor(server, { email: 'vende@segunda.mx', name: 'Sara Segunda', roles: ['seller'], companyId: COMPANY });
  winner = await buildActor(server, { email: 'gana@ejemplo.mx', name: 'Gael Gana', roles: ['buyer'], completeProfile: true });
  second = await buildActor(server, { email: 'segundo@ejemplo.mx', name: 'Sofía Segundo', roles: ['buyer'], completeProfile: true });
  third = await buildActor(server, { email: 'tercero@ejemplo.mx', name: 'Tomás Tercero', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const pass = () => expireDuePayments(server.ctx.db, { provider: server.ctx.payments.provider, accounts: server.ctx.payments.accounts });
const row = async (id: string) => (await server.ctx.db.select().from(payments).where(eq(payments.id, id)))[0];
const pastDeadline = (id: string) => server.ctx.db.update(payments).set({ deadlineAt: sql`now() - interval '1 minute'` }).where(eq(payments.id, id));

/** An ended lot with bids: the runner-up's own highest is 700 (their maximum line), the third's 400; the winner won at 900. */
async function wonLot(): Promise<string> {
  const auction = await buildAuction(server.ctx.db, {
    name: `Lote ${randomUUID().slice(0, 5)}`,
    status: 'ended',
    endTime: new Date(Date.now() - 60_000),
    closedAt: new Date(),
    startingPrice: 100,
    companyId: COMPANY,
    sellerId: seller.id,
    currentPrice: 900,
    bidCount: 4,
    currentWinnerId: winner.id,
    currentWinnerName: 'Gael Gana',
  });
  const line = (seq: number, who: Actor, name: string, amount: number) => ({ auctionId: auction.id, bidderId: who.id, bidderName: name, seq, amount });
  await server.ctx.db
    .insert(bids)
    .values([line(1, third, 'Tomás T.', 400), line(2, second, 'Sofía S.', 600), line(3, second, 'Sofía S.', 700), line(4, winner, 'Gael G.', 900)]);
  return auction.id;
}

/** The winner's bill for the lot, made and finalized through the API, then expired at its deadline. */
async function expiredBill(auctionId: string): Promise<string> {
  const draft = await call(seller, 'POST', '/api/payments/draft', { winnerId: winner.id, auctionIds: [auctionId] });
  const id = draft.json().paymentId as string;
  await call(seller, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'DHL', shippingCost: 150 });
  expect((await call(seller, 'POST', `/api/payments/${id}/finalize`)).statusCode).toBe(200);
  await pastDeadline(id);
  await pass();
  expect((await row(id))?.paymentStatus).toBe('canceled');
  return id;
}

async function lotView(paymentId: string, auctionId: string): Promise<ExpiredLotView> {
  const listed = (await call(seller, 'GET', '/api/unpaid/expired')).json() as ExpiredAnswer;
  const lot = listed.bills.find((b) => b.paymentId === paymentId)?.lots.find((l) => l.auctionId === auctionId);
  if (!lot) throw new Error('lot not listed');
  return lot;
}

const strikesOf = async (userId: string) => (await server.ctx.db.select().from(buyerStrikes).where(eq(buyerStrikes.userId, userId))).length;

describe('Segunda oportunidad', () => {
  let auctionId: string;
  let expiredId: string;

  it('lists the expired lot with its runner-up at their own highest bid', async () => {
    auctionId = await wonLot();
    expiredId = await expiredBill(auctionId);
    const lot = await lotView(expiredId, auctionId);
    expect(lot).toMatchObject({
      decision: null,
      open: true,
      amount: 900,
      runnerUp: { userId: second.id, name: 'Sofía S.', amount: 700, blocked: false },
      offer: null,
    });
  });

  it('is refused outside the seller’s company, and when the runner-up is blocked', async () => {
    await buildCompany(server.ctx.db, { id: 'otra-segunda' });
    const stranger = await buildActor(server, { email: 'ajeno@otra-segunda.mx', name: 'Ajeno', roles: ['seller'], companyId: 'otra-segunda' });
    expect((await call(stranger, 'POST', `/api/unpaid/expired/${expiredId}/lots/${auctionId}/second-chance`)).statusCode).toBe(404);
    expect((await call(stranger, 'POST', `/api/unpaid/expired/${expiredId}/lots/${auctionId}/release`)).statusCode).toBe(404);
    expect(((await call(stranger, 'GET', '/api/unpaid/expired')).json() as ExpiredAnswer).bills).toEqual([]);
    expect((await call(second, 'GET', '/api/unpaid/expired')).statusCode).toBe(403);

    await server.ctx.db.insert(companyBlocks).values({ companyId: COMPANY, userId: second.id, reason: 'moderation' });
    const refused = await call(seller, 'POST', `/api/unpaid/expired/${expiredId}/lots/${auctionId}/second-chance`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(messages.unpaid.runnerUpBlocked);
    await server.ctx.db.delete(companyBlocks).where(eq(companyBlocks.userId, second.id));
  });

  let offerId: string;
  let offerBill: string;

  it('bills the runner-up at their own bid, with a link and a deadline; a different choice is then refused', async () => {
    const res = await call(seller, 'POST', `/api/unpaid/expired/${expiredId}/lots/${auctionId}/second-chance`);
    expect(res.statusCode, res.body).toBe(200);
    offerBill = res.json().paymentId;
    expect(res.json().paymentLinkUrl).toBeTruthy();
    const bill = await row(offerBill);
    expect(bill).toMatchObject({ paymentStatus: 'pending', winnerId: second.id, totalAmount: 700, shippingCost: 150 });
    expect(bill?.deadlineAt).toBeInstanceOf(Date);
    const [auction] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auctionId));
    expect(auction).toMatchObject({ currentWinnerId: second.id, currentPrice: 700 });
    const lot = await lotView(expiredId, auctionId);
    expect(lot).toMatchObject({ decision: 'secondChance', open: false, offer: { buyerId: second.id, amount: 700, status: 'offered', paymentId: offerBill } });
    offerId = lot.offer?.id as string;
    const other = await call(seller, 'POST', `/api/unpaid/expired/${expiredId}/lots/${auctionId}/release`);
    expect(other.statusCode).toBe(409);
    expect(other.json().error.message).toBe(messages.unpaid.alreadyDecided);
  });

  it('only the runner-up may answer; declining cancels the bill and reopens the choice', async () => {
    expect((await call(third, 'POST', `/api/second-chance/${offerId}/decline`)).statusCode).toBe(404);
    expect((await call(null, 'POST', `/api/second-chance/${offerId}/decline`)).statusCode).toBe(401);
    const accepted = await call(second, 'POST', `/api/second-chance/${offerId}/accept`);
    expect(accepted.json()).toMatchObject({ paymentId: offerBill });
    const declined = await call(second, 'POST', `/api/second-chance/${offerId}/decline`);
    expect(declined.statusCode, declined.body).toBe(200);
    expect((await row(offerBill))?.paymentStatus).toBe('canceled');
    expect((await call(second, 'POST', `/api/second-chance/${offerId}/decline`)).statusCode).toBe(409);
    const lot = await lotView(expiredId, auctionId);
    expect(lot).toMatchObject({ decision: 'secondChance', open: true, offer: { status: 'declined' } });
    // Whoever declined is passed over: the next runner-up is the third bidder.
    expect(lot.runnerUp).toMatchObject({ userId: third.id, amount: 400 });
    // Declining is no strike.
    expect(await strikesOf(second.id)).toBe(0);
  });

  it('offered to the next runner-up and paid in the sandbox, the offer is paid', async () => {
    const res = await call(seller, 'POST', `/api/unpaid/expired/${expiredId}/lots/${auctionId}/second-chance`);
    expect(res.statusCode, res.body).toBe(200);
    const bill = res.json().paymentId as string;
    expect(await row(bill)).toMatchObject({ winnerId: third.id, totalAmount: 400 });
    const paid = await call(null, 'POST', `/api/pay/${bill}`, { outcome: 'approve' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await row(bill))?.paymentStatus).toBe('paid');
    const lot = await lotView(expiredId, auctionId);
    expect(lot).toMatchObject({ open: false, offer: { status: 'paid', paymentId: bill, buyerId: third.id } });
  });

  it('an offer’s bill that expires is no strike for the runner-up', async () => {
    const lotId = await wonLot();
    const billId = await expiredBill(lotId);
    const res = await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${lotId}/second-chance`);
    const offered = res.json().paymentId as string;
    await pastDeadline(offered);
    await pass();
    expect(await row(offered)).toMatchObject({ paymentStatus: 'canceled' });
    expect((await row(offered))?.expiredAt).toBeInstanceOf(Date);
    expect(await strikesOf(second.id)).toBe(0);
    const [offer] = await server.ctx.db.select().from(secondChanceOffers).where(eq(secondChanceOffers.paymentId, offered));
    expect(offer?.status).toBe('expired');
    // It is no expired bill of its own in the list either.
    const listed = (await call(seller, 'GET', '/api/unpaid/expired')).json() as ExpiredAnswer;
    expect(listed.bills.map((b) => b.paymentId)).not.toContain(offered);
  });

  it('is refused when nobody else bid', async () => {
    const lone = await buildAuction(server.ctx.db, {
      status: 'ended',
      endTime: new Date(Date.now() - 60_000),
      companyId: COMPANY,
      sellerId: seller.id,
      currentPrice: 500,
      currentWinnerId: winner.id,
      currentWinnerName: 'Gael Gana',
    });
    await server.ctx.db.insert(bids).values({ auctionId: lone.id, bidderId: winner.id, bidderName: 'Gael G.', seq: 1, amount: 500 });
    const billId = await expiredBill(lone.id);
    const res = await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${lone.id}/second-chance`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(messages.unpaid.noRunnerUp);
  });
});

describe('another show, or release', () => {
  it('puts the lot in a scheduled show of the company, sellable again with its bids cleared', async () => {
    const auctionId = await wonLot();
    const billId = await expiredBill(auctionId);
    const ended = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'ended' });
    const refused = await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${auctionId}/future-show`, { sessionId: ended.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(messages.unpaid.sessionNotScheduled);
    expect((await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${auctionId}/future-show`, { sessionId: 'x' })).statusCode).toBe(400);

    const show = await buildSession(server.ctx.db, {
      companyId: COMPANY,
      sellerId: seller.id,
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 86_400_000),
    });
    const res = await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${auctionId}/future-show`, { sessionId: show.id });
    expect(res.statusCode, res.body).toBe(200);
    const [auction] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auctionId));
    expect(auction).toMatchObject({ status: 'pending', endTime: null, closedAt: null, currentWinnerId: null, bidCount: 0 });
    expect(await server.ctx.db.select().from(bids).where(eq(bids.auctionId, auctionId))).toEqual([]);
    const lots = await server.ctx.db
      .select()
      .from(liveLots)
      .where(and(eq(liveLots.sessionId, show.id), eq(liveLots.auctionId, auctionId)));
    expect(lots).toHaveLength(1);
    expect(await lotView(billId, auctionId)).toMatchObject({ decision: 'futureShow', open: false });
    // The same choice again changes nothing; another is refused.
    expect((await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${auctionId}/future-show`, { sessionId: show.id })).statusCode).toBe(200);
    expect((await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${auctionId}/release`)).statusCode).toBe(409);
  });

  it('releases the lot: ended with no winner', async () => {
    const auctionId = await wonLot();
    const billId = await expiredBill(auctionId);
    const res = await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${auctionId}/release`);
    expect(res.statusCode, res.body).toBe(200);
    const [auction] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auctionId));
    expect(auction).toMatchObject({ status: 'ended', currentWinnerId: null });
    expect(await lotView(billId, auctionId)).toMatchObject({ decision: 'released', open: false });
    expect((await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${auctionId}/second-chance`)).statusCode).toBe(409);
  });
});
