import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftAnswer, FinalizeAnswer } from '../../../../../src/domain/payments.js';
import type { MyPurchases } from '../../../../../src/domain/purchases.js';
import { CASH_PAYMENT_GRACE_HOURS, type ExpiredAnswer, type MyUnpaidAnswer, type StrikesAnswer } from '../../../../../src/domain/unpaid.js';
import { buyerStrikes, companies, companyBlocks, expiredLots, paymentItems, payments } from '../../../../../src/server/db/schema.js';
import { expireDuePayments } from '../../../../../src/server/features/payments/unpaid/expiry.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildAuction, buildCompany } from '../../../../support/factories.js';
import type { FakeMercadoPago } from '../../../../support/fake-mercadopago.js';
import { startWithFakeMercadoPago, WEBHOOK_SECRET } from '../../../../support/mercadopago-server.js';
import { bidCaller, caller, type TestServer } from '../../../../support/server.js';

/**
 * At its deadline an unpaid bill expires: canceled with expired_at, its lots free and waiting for
 * the seller's choice, one strike for the buyer, and its link expired at Mercado Pago (the fake
 * records the PUT). A payment that still arrives is recorded and flagged ("Reembolsar"). At the
 * company's strike limit the bid engine refuses the buyer with its own message, until the seller
 * lifts the strikes.
 */

const COMPANY = 'remates-vencidos';
let fake: FakeMercadoPago;
let server: TestServer;
let seller: Actor;
let buyer: Actor;
const call = caller(() => server);
const bid = bidCaller(() => server);

beforeAll(async () => {
  // The tests run the expiry passes by hand; the server's own expiry job could take a bill first.
  ({ fake, server } = await startWithFakeMercadoPago());
  await buildCompany(server.ctx.db, { id: COMPANY, strikeLimit: 2 });
  seller = await buildActor(server, { email: 'vende@vencidos.mx', name: 'Vera Vende', roles: ['seller'], companyId: COMPANY });
  buyer = await buildActor(server, { email: 'moroso@ejemplo.mx', name: 'Mario Moroso', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const pass = () => expireDuePayments(server.ctx.db, { provider: server.ctx.payments.provider, accounts: server.ctx.payments.accounts });
const row = async (id: string) => (await server.ctx.db.select().from(payments).where(eq(payments.id, id)))[0];

async function billedPayment(price: number, winner: Actor = buyer): Promise<{ id: string; auctionId: string }> {
  const auction = await buildAuction(server.ctx.db, {
    name: `Lote ${randomUUID().slice(0, 5)}`,
    status: 'ended',
    endTime: new Date(Date.now() - 60_000),
    companyId: COMPANY,
    sellerId: seller.id,
    currentPrice: price,
    currentWinnerId: winner.id,
    currentWinnerName: winner === buyer ? 'Mario Moroso' : 'Olga Oxxo',
  });
  const draft = await call(seller, 'POST', '/api/payments/draft', { winnerId: winner.id, auctionIds: [auction.id] });
  const id = (draft.json() as DraftAnswer).paymentId;
  await call(seller, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 100 });
  const finalized = await call(seller, 'POST', `/api/payments/${id}/finalize`);
  expect(finalized.statusCode, finalized.body).toBe(200);
  expect((finalized.json() as FinalizeAnswer).payment.deadlineAt).not.toBeNull();
  return { id, auctionId: auction.id };
}

const pastDeadline = (id: string) => server.ctx.db.update(payments).set({ deadlineAt: sql`now() - interval '1 minute'` }).where(eq(payments.id, id));

function webhook(dataId: string) {
  const headers = fake.signWebhook({ dataId, secret: WEBHOOK_SECRET });
  return server.app.inject({
    method: 'POST',
    url: `/api/webhooks/mercadopago?data.id=${dataId}&type=payment`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: { action: 'payment.updated', type: 'payment', data: { id: dataId } },
  });
}

describe('a bill at its deadline', () => {
  let first: { id: string; auctionId: string };

  it('does nothing before the deadline', async () => {
    first = await billedPayment(800);
    await pass();
    expect((await row(first.id))?.paymentStatus).toBe('pending');
  });

  it('expires: canceled with expired_at, items free, lot waiting, one strike, link expired at the provider', async () => {
    const preference = fake.preferences.at(-1);
    await pastDeadline(first.id);
    await pass();
    const after = await row(first.id);
    expect(after).toMatchObject({ paymentStatus: 'canceled' });
    expect(after?.expiredAt).toBeInstanceOf(Date);
    expect(after?.canceledAt).toBeInstanceOf(Date);
    const [item] = await server.ctx.db.select().from(paymentItems).where(eq(paymentItems.paymentId, first.id));
    expect(item?.paymentStatus).toBe('canceled');
    expect(await server.ctx.db.select().from(expiredLots).where(eq(expiredLots.paymentId, first.id))).toEqual([
      expect.objectContaining({ auctionId: first.auctionId, decision: null }),
    ]);
    expect(await server.ctx.db.select().from(buyerStrikes).where(eq(buyerStrikes.userId, buyer.id))).toHaveLength(1);
    const puts = fake.requests.filter((r) => r.method === 'PUT' && r.path === `/checkout/preferences/${preference?.id}`);
    expect(puts).toHaveLength(1);
    expect(preference?.body).toMatchObject({ expires: true });
    // One strike is below the limit of two: not blocked, but warned.
    expect(await server.ctx.db.select().from(companyBlocks).where(eq(companyBlocks.userId, buyer.id))).toHaveLength(0);
    const warning = (await call(buyer, 'GET', `/api/me/unpaid?companyId=${COMPANY}`)).json() as MyUnpaidAnswer;
    expect(warning).toEqual({ overdue: 1, strikes: 1, limit: 2, blocked: false });
    // By one of the company's auctions too (a live page's buyer knows the lot, not the company).
    expect((await call(buyer, 'GET', `/api/me/unpaid?auctionId=${first.auctionId}`)).json()).toEqual(warning);
    expect((await call(buyer, 'GET', '/api/me/unpaid')).statusCode).toBe(400);
    expect((await call(null, 'GET', `/api/me/unpaid?companyId=${COMPANY}`)).statusCode).toBe(401);
  });

  it('a second pass changes nothing and calls the provider no more', async () => {
    const before = fake.requests.filter((r) => r.method === 'PUT').length;
    const again = await pass();
    expect(again.expired).toEqual([]);
    expect(fake.requests.filter((r) => r.method === 'PUT').length).toBe(before);
    expect(await server.ctx.db.select().from(buyerStrikes).where(eq(buyerStrikes.userId, buyer.id))).toHaveLength(1);
  });

  it('a payment that still arrives through the webhook is recorded and flagged, shown as a late payment', async () => {
    fake.setPayment({ id: 95001, status: 'approved', external_reference: first.id, transaction_amount: 900, date_last_updated: new Date().toISOString() });
    expect((await webhook('95001')).json()).toEqual({ status: 'applied' });
    expect(await row(first.id)).toMatchObject({ paymentStatus: 'canceled', providerStatus: 'approved', flagged: true, mpPaymentId: '95001' });
    const listed = (await call(seller, 'GET', '/api/unpaid/expired')).json() as ExpiredAnswer;
    expect(listed.latePayments).toEqual([expect.objectContaining({ paymentId: first.id, grandTotal: 900, mpPaymentId: '95001' })]);
    expect(listed.bills.map((b) => b.paymentId)).toContain(first.id);
  });
});

describe('strikes at the limit', () => {
  const liveAuction = () =>
    buildAuction(server.ctx.db, { status: 'active', endTime: new Date(Date.now() + 3_600_000), startingPrice: 100, companyId: COMPANY, sellerId: seller.id });

  it('a second expired bill blocks the buyer, and the bid engine refuses with the strikes message', async () => {
    const second = await billedPayment(300);
    await pastDeadline(second.id);
    await pass();
    const [block] = await server.ctx.db
      .select()
      .from(companyBlocks)
      .where(and(eq(companyBlocks.companyId, COMPANY), eq(companyBlocks.userId, buyer.id)));
    expect(block?.reason).toBe('strikes');
    const auction = await liveAuction();
    const refused = await bid(buyer, auction.id, { amount: 100 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'BUYER_BLOCKED', message: messages.unpaid.struck });
    const strikes = (await call(seller, 'GET', '/api/unpaid/strikes')).json() as StrikesAnswer;
    expect(strikes.buyers).toEqual([expect.objectContaining({ userId: buyer.id, strikes: 2, limit: 2, blocked: true })]);
  });

  it('a moderation block keeps its own message', async () => {
    const other = await buildActor(server, { email: 'otro@ejemplo.mx', name: 'Otro Comprador', roles: ['buyer'], completeProfile: true });
    await server.ctx.db.insert(companyBlocks).values({ companyId: COMPANY, userId: other.id, reason: 'moderation' });
    const refused = await bid(other, (await liveAuction()).id, { amount: 100 });
    expect(refused.json().error).toMatchObject({ code: 'BUYER_BLOCKED', message: messages.bidding.blocked });
  });

  it('another company cannot lift them; the seller lifts the strikes and the buyer bids again', async () => {
    await buildCompany(server.ctx.db, { id: 'otra-tienda' });
    const stranger = await buildActor(server, { email: 'ajeno@otra.mx', name: 'Ajeno', roles: ['seller'], companyId: 'otra-tienda' });
    expect((await call(stranger, 'POST', `/api/unpaid/strikes/${buyer.id}/lift`)).statusCode).toBe(404);
    expect(((await call(stranger, 'GET', '/api/unpaid/strikes')).json() as StrikesAnswer).buyers).toEqual([]);
    const lifted = await call(seller, 'POST', `/api/unpaid/strikes/${buyer.id}/lift`);
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(await server.ctx.db.select().from(companyBlocks).where(eq(companyBlocks.userId, buyer.id))).toHaveLength(0);
    expect(((await call(seller, 'GET', '/api/unpaid/strikes')).json() as StrikesAnswer).buyers).toEqual([]);
    expect((await bid(buyer, (await liveAuction()).id, { amount: 100 })).statusCode).toBe(201);
    expect((await call(buyer, 'GET', `/api/me/unpaid?companyId=${COMPANY}`)).json()).toMatchObject({ strikes: 0, blocked: false });
  });

  it('the limit is the company’s, and the block takes the buyer’s standing bids off the company’s open lots', async () => {
    await server.ctx.db.update(companies).set({ strikeLimit: 1 }).where(eq(companies.id, COMPANY));
    const rival = await buildActor(server, { email: 'rival@ejemplo.mx', name: 'Rita Rival', roles: ['buyer'], completeProfile: true });
    const open = await liveAuction();
    expect((await bid(rival, open.id, { amount: 150 })).statusCode).toBe(201);
    expect((await bid(buyer, open.id, { amount: 200, maxAmount: 600 })).statusCode).toBe(201);
    const leading = (await call(null, 'GET', `/api/auctions/${open.id}`)).json() as { currentPrice: number };
    expect(leading.currentPrice).toBe(200);

    const third = await billedPayment(200);
    await pastDeadline(third.id);
    const done = await pass();
    const [block] = await server.ctx.db.select().from(companyBlocks).where(eq(companyBlocks.userId, buyer.id));
    expect(block?.reason).toBe('strikes');
    // The price falls back to the rival's bid, and the rival leads; every page of the lot hears it.
    expect((await call(null, 'GET', `/api/auctions/${open.id}`)).json()).toMatchObject({ currentPrice: 150, bidCount: 1 });
    expect(done.events).toContainEqual(expect.objectContaining({ type: 'auctionUpdated', auction: expect.objectContaining({ id: open.id }) }));
  });
});

describe('a cash payment under way at the deadline', () => {
  it('waits a grace period past the deadline, so an OXXO voucher paid in time is not treated as late', async () => {
    // A buyer of their own: the strikes below count Mario's.
    const payer = await buildActor(server, { email: 'oxxo@ejemplo.mx', name: 'Olga Oxxo', roles: ['buyer'], completeProfile: true });
    const bill = await billedPayment(400, payer);
    await server.ctx.db.update(payments).set({ providerStatus: 'pending', deadlineAt: sql`now() - interval '1 hour'` }).where(eq(payments.id, bill.id));
    expect((await pass()).expired).not.toContain(bill.id);
    expect((await row(bill.id))?.paymentStatus).toBe('pending');
    // Meanwhile the buyer reads it as a payment under way, not as overdue: no warning before bidding.
    const billStatus = async () => {
      const mine = (await call(payer, 'GET', '/api/me/purchases')).json() as MyPurchases;
      return mine.sellers.flatMap((s) => s.groups.flatMap((g) => g.bills)).find((b) => b.paymentId === bill.id)?.status;
    };
    expect(await billStatus()).toBe('processing');
    const warned = (await call(payer, 'GET', `/api/me/unpaid?companyId=${COMPANY}`)).json() as MyUnpaidAnswer;
    expect(warned.overdue).toBe(0);
    await server.ctx.db
      .update(payments)
      .set({ deadlineAt: sql`now() - make_interval(hours => ${CASH_PAYMENT_GRACE_HOURS}) - interval '1 minute'` })
      .where(eq(payments.id, bill.id));
    expect((await pass()).expired).toContain(bill.id);
    expect((await row(bill.id))?.paymentStatus).toBe('canceled');
    expect(await billStatus()).toBe('expired');
  });
});
