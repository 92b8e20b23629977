import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowBillAnswer, ShowBillOverview } from '../../../../../src/domain/show-billing.js';
import { auctions, bids, payments, secondChanceOffers } from '../../../../../src/server/db/schema.js';
import { expireDuePayments } from '../../../../../src/server/features/payments/unpaid/expiry.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildAuction, buildCompany, buildLot, buildSession } from '../../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../../support/server.js';

/**
 * A lot waiting in 'Cuentas vencidas' is billed to nobody until the seller decides: 'Cobrar el
 * show', the winners summary and a draft by hand all leave the lots of an expired bill alone, and a
 * Segunda oportunidad the runner-up declines (or lets expire) leaves the lot without a winner. A
 * Segunda oportunidad's bill ships its own lot under the show's rules ($150 for one lot, not the
 * expired two-lot bill's $200). The expiry passes run by hand.
 */

const COMPANY = 'vencidas-espera';
const rules = { mode: 'flat', flatFee: 150, perExtraItem: 50, freeOver: null, pickupAddress: null };
let server: TestServer;
let seller: Actor;
let winner: Actor;
let second: Actor;
let third: Actor;
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer();
  await buildCompany(server.ctx.db, { id: COMPANY, strikeLimit: 5 });
  seller = await buildActor(server, { email: 'vende@espera.mx', name: 'Elsa Espera', roles: ['seller'], companyId: COMPANY });
  winner = await buildActor(server, { email: 'gana@espera.mx', name: 'Gael Gana', roles: ['buyer'], completeProfile: true });
  second = await buildActor(server, { email: 'segundo@espera.mx', name: 'Sofía Segundo', roles: ['buyer'], completeProfile: true });
  third = await buildActor(server, { email: 'tercero@espera.mx', name: 'Tomás Tercero', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => server?.close());

const pass = () => expireDuePayments(server.ctx.db, { provider: server.ctx.payments.provider, accounts: server.ctx.payments.accounts });
const auctionRow = async (id: string) => (await server.ctx.db.select().from(auctions).where(eq(auctions.id, id)))[0];
const payment = async (id: string) => (await server.ctx.db.select().from(payments).where(eq(payments.id, id)))[0];
const billedIds = async (path: string) =>
  Object.values((await call(seller, 'GET', path)).json() as Record<string, { wonItems: { auctionId: string }[] }>).flatMap((s) =>
    s.wonItems.map((i) => i.auctionId),
  );

/** A lot of the show won by the winner at `price`, with the second's highest at `price - 200` and the third's at `price - 400`. */
async function wonLot(sessionId: string, price: number): Promise<string> {
  const auction = await buildAuction(server.ctx.db, {
    name: `Lote ${randomUUID().slice(0, 5)}`,
    status: 'ended',
    endTime: new Date(Date.now() - 60_000),
    closedAt: new Date(),
    startingPrice: 100,
    companyId: COMPANY,
    sellerId: seller.id,
    currentPrice: price,
    bidCount: 3,
    currentWinnerId: winner.id,
    currentWinnerName: 'Gael Gana',
  });
  const line = (seq: number, who: Actor, name: string, amount: number) => ({ auctionId: auction.id, bidderId: who.id, bidderName: name, seq, amount });
  await server.ctx.db
    .insert(bids)
    .values([line(1, third, 'Tomás T.', price - 400), line(2, second, 'Sofía S.', price - 200), line(3, winner, 'Gael G.', price)]);
  await buildLot(server.ctx.db, { sessionId, auctionId: auction.id, status: 'finished' });
  return auction.id;
}

/** A show whose two lots the winner won, billed with 'Cobrar el show' (one bill, two lots: $200 shipping), linked, and expired unpaid. */
async function expiredShowBill() {
  const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'ended' });
  const lots = [await wonLot(session.id, 900), await wonLot(session.id, 600)];
  expect((await call(seller, 'PUT', `/api/live-sessions/${session.id}/shipping`, rules)).statusCode).toBe(200);
  const billed = (await call(seller, 'POST', `/api/live-sessions/${session.id}/bill`)).json() as ShowBillAnswer;
  expect(billed.payments).toHaveLength(1);
  const bill = billed.payments[0] as ShowBillAnswer['payments'][number];
  expect(bill).toMatchObject({ totalAmount: 1500, shippingCost: 200 });
  expect((await call(seller, 'POST', `/api/live-sessions/${session.id}/bill/links`)).statusCode).toBe(200);
  await server.ctx.db.update(payments).set({ deadlineAt: sql`now() - interval '1 minute'` }).where(eq(payments.id, bill.id));
  await pass();
  expect((await payment(bill.id))?.paymentStatus).toBe('canceled');
  return { sessionId: session.id, billId: bill.id, lots: lots as [string, string] };
}

describe('the lots of an expired bill', () => {
  it('are billed to nobody until the seller decides: not by Cobrar el show, the winners summary or a draft by hand', async () => {
    const { sessionId, lots } = await expiredShowBill();
    const overview = (await call(seller, 'GET', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillOverview;
    expect(overview.preview).toEqual([]);
    expect(((await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillAnswer).created).toBe(0);
    expect(await billedIds(`/api/winners-summary?sessionId=${sessionId}`)).toEqual([]);
    expect(await billedIds('/api/winners-summary')).not.toContain(lots[0]);
    const byHand = await call(seller, 'POST', '/api/payments/draft', { winnerId: winner.id, auctionIds: [lots[0]] });
    expect(byHand.statusCode).toBe(409);
    expect(byHand.json().error.message).toBe(messages.payments.awaitingDecision);
  });

  it('bill a Segunda oportunidad with the show’s shipping for its own lot; declined, the lot has no winner and stays unbilled', async () => {
    const { sessionId, billId, lots } = await expiredShowBill();
    const offered = await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${lots[0]}/second-chance`);
    expect(offered.statusCode, offered.body).toBe(200);
    const offerBill = await payment(offered.json().paymentId);
    // One lot under the show's rules: the flat fee alone, not the two-lot bill's $200.
    expect(offerBill).toMatchObject({ winnerId: second.id, totalAmount: 700, shippingCost: 150, shippingCarrier: 'Envío', sessionId });

    const [offer] = await server.ctx.db
      .select()
      .from(secondChanceOffers)
      .where(eq(secondChanceOffers.paymentId, offerBill?.id as string));
    const declined = await call(second, 'POST', `/api/second-chance/${offer?.id}/decline`);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(await auctionRow(lots[0])).toMatchObject({ currentWinnerId: null, currentWinnerName: null, winnerEmail: null, winnerWhatsapp: null });

    expect(((await call(seller, 'GET', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillOverview).preview).toEqual([]);
    expect(((await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillAnswer).created).toBe(0);
    expect(await billedIds('/api/winners-summary')).not.toContain(lots[0]);

    // The choice is the seller's again: the next runner-up may be offered the lot.
    const again = await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${lots[0]}/second-chance`);
    expect(again.statusCode, again.body).toBe(200);
    expect(await payment(again.json().paymentId)).toMatchObject({ winnerId: third.id, totalAmount: 500, shippingCost: 150 });
  });

  it('leave a Segunda oportunidad that expired unpaid without a winner too', async () => {
    const { billId, lots } = await expiredShowBill();
    const offered = await call(seller, 'POST', `/api/unpaid/expired/${billId}/lots/${lots[1]}/second-chance`);
    expect(offered.statusCode, offered.body).toBe(200);
    expect((await auctionRow(lots[1]))?.currentWinnerId).toBe(second.id);
    await server.ctx.db.update(payments).set({ deadlineAt: sql`now() - interval '1 minute'` }).where(eq(payments.id, offered.json().paymentId));
    await pass();
    expect((await auctionRow(lots[1]))?.currentWinnerId).toBeNull();
    expect(await billedIds('/api/winners-summary')).not.toContain(lots[1]);
  });
});
