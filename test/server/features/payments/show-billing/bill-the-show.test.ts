import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentAnswer, PaymentView, WinnersSummary } from '../../../../../src/domain/payments.js';
import type { PaymentStatusEvent } from '../../../../../src/domain/realtime.js';
import type { ShowBillAnswer, ShowBillOverview, ShowLinksAnswer, ShowShipping } from '../../../../../src/domain/show-billing.js';
import { auditLog, liveSessions } from '../../../../../src/server/db/schema.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildLot, buildSession, buildWonAuction } from '../../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../../support/server.js';
import { connected, connectSocket } from '../../../../support/sockets.js';
import { eventually } from '../../../../support/wait.js';

/**
 * 'Cobrar el show' with the sandbox provider: the show's shipping rules, one draft per buyer for
 * all their wins of the show with the rules' shipping, a repeat that bills nobody twice, the links
 * of every bill, the winners summary by show, and who may do it.
 */

let server: TestServer;
let seller: Actor;
let otherSeller: Actor;
let buyers: Actor[];
const NORTE = 'remates-norte';
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer();
  seller = await buildActor(server, { email: 'vende@norte.mx', name: 'Nora Norte', roles: ['seller'], companyId: NORTE });
  otherSeller = await buildActor(server, { email: 'vende@sur.mx', name: 'Susana Sur', roles: ['seller'], companyId: 'remates-sur' });
  buyers = [];
  for (const [i, name] of ['Juana Pérez', 'Pedro López', 'Ana Ruiz'].entries()) {
    buyers.push(await buildActor(server, { email: `b${i}@ejemplo.mx`, name, roles: ['buyer'], completeProfile: true }));
  }
}, 60_000);
afterAll(async () => server?.close());

/** A show of the seller whose lots ended with these winners and prices (null: unsold). */
async function show(wins: { buyer: number | null; price: number }[]): Promise<{ sessionId: string; auctionIds: string[] }> {
  const session = await buildSession(server.ctx.db, { companyId: NORTE, sellerId: seller.id, status: 'ended' });
  const auctionIds: string[] = [];
  for (const w of wins) {
    const winner = w.buyer === null ? null : (buyers[w.buyer] as Actor);
    const auction = await buildWonAuction(server.ctx.db, {
      price: w.price,
      companyId: NORTE,
      sellerId: seller.id,
      ...(winner ? { winnerId: winner.id, currentWinnerName: `Comprador ${w.buyer}` } : { currentWinnerId: null, currentWinnerName: null, bidCount: 0 }),
    });
    await buildLot(server.ctx.db, { sessionId: session.id, auctionId: auction.id });
    auctionIds.push(auction.id);
  }
  return { sessionId: session.id, auctionIds };
}

const flatRules = { mode: 'flat', flatFee: 150, perExtraItem: 50, freeOver: 2000, pickupAddress: null };
const billOf = (list: PaymentView[], buyer: number) => list.filter((p) => p.winnerId === (buyers[buyer] as Actor).id);

describe('Cobrar el show', () => {
  it('makes one bill per buyer with the show’s shipping, once, and every link', async () => {
    // 3 buyers, 5 won lots, one unsold lot; and a win of the same buyer outside the show.
    const { sessionId, auctionIds } = await show([
      { buyer: 0, price: 1200 },
      { buyer: 1, price: 300 },
      { buyer: 0, price: 800 },
      { buyer: 2, price: 500 },
      { buyer: 1, price: 200 },
      { buyer: null, price: 100 },
    ]);
    const outside = await buildWonAuction(server.ctx.db, { price: 999, companyId: NORTE, sellerId: seller.id, winnerId: (buyers[0] as Actor).id });

    // The winners summary, filtered to the show, holds only its lots.
    const summary = (await call(seller, 'GET', `/api/winners-summary?sessionId=${sessionId}`)).json() as WinnersSummary;
    const listed = Object.values(summary).flatMap((s) => s.wonItems.map((i) => i.auctionId));
    expect(listed.sort()).toEqual(auctionIds.slice(0, 5).sort());
    expect(
      Object.values((await call(seller, 'GET', '/api/winners-summary')).json() as WinnersSummary).flatMap((s) => s.wonItems.map((i) => i.auctionId)),
    ).toContain(outside.id);
    expect((await call(seller, 'GET', '/api/winners-summary?sessionId=nope')).statusCode).toBe(400);

    // No rules yet: refused, nothing billed.
    const early = await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill`);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(messages.showBilling.noRules);

    const bad = await call(seller, 'PUT', `/api/live-sessions/${sessionId}/shipping`, {
      mode: 'flat',
      flatFee: -5,
      perExtraItem: 1.5,
      freeOver: 0,
      pickupAddress: null,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toMatchObject({
      flatFee: messages.showBilling.fields.flatFeeNegative,
      perExtraItem: messages.showBilling.fields.perExtraItemInteger,
      freeOver: messages.showBilling.fields.freeOverPositive,
    });
    const noAddress = await call(seller, 'PUT', `/api/live-sessions/${sessionId}/shipping`, { mode: 'pickup', pickupAddress: '' });
    expect(noAddress.json().error.fields.pickupAddress).toBe(messages.showBilling.fields.pickupAddressRequired);
    const tenYears = await call(seller, 'PUT', `/api/live-sessions/${sessionId}/shipping`, { ...flatRules, paymentDeadlineHours: 87_600 });
    expect(tenYears.json().error.fields.paymentDeadlineHours).toBe(messages.showBilling.fields.deadlineHoursRange);

    const put = await call(seller, 'PUT', `/api/live-sessions/${sessionId}/shipping`, { ...flatRules, paymentDeadlineHours: 48 });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json() as ShowShipping).toEqual({ rules: flatRules, paymentDeadlineHours: 48 });
    expect((await call(seller, 'GET', `/api/live-sessions/${sessionId}/shipping`)).json()).toEqual({ rules: flatRules, paymentDeadlineHours: 48 });
    const audits = await server.ctx.db.select().from(auditLog).where(eq(auditLog.entityId, sessionId));
    expect(audits.some((a) => a.action === 'live_session.shipping')).toBe(true);

    // The overview previews each buyer's bill with its shipping.
    const overview = (await call(seller, 'GET', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillOverview;
    expect(overview.preview.map((p) => [p.totalAmount, p.shippingCost, p.grandTotal]).sort()).toEqual(
      [
        [2000, 0, 2000],
        [500, 200, 700],
        [500, 150, 650],
      ].sort(),
    );

    const billed = await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill`);
    expect(billed.statusCode, billed.body).toBe(200);
    const first = billed.json() as ShowBillAnswer;
    expect(first.created).toBe(3);
    expect(first.payments).toHaveLength(3);
    for (const p of first.payments) expect(p).toMatchObject({ sessionId, paymentStatus: 'draft', companyId: NORTE });
    // Juana: 1200 + 800 reach the free-shipping amount; Pedro: 2 items; Ana: 1 item.
    expect(billOf(first.payments, 0)[0]).toMatchObject({ totalAmount: 2000, shippingCost: 0, shippingCarrier: 'Envío gratis', grandTotal: 2000 });
    expect(billOf(first.payments, 1)[0]).toMatchObject({ totalAmount: 500, shippingCost: 200, grandTotal: 700 });
    expect(billOf(first.payments, 2)[0]).toMatchObject({ totalAmount: 500, shippingCost: 150, grandTotal: 650 });
    expect(billOf(first.payments, 0)[0]?.auctionIds).not.toContain(outside.id);

    // A second click bills nobody twice.
    const again = (await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillAnswer;
    expect(again.created).toBe(0);
    expect(again.payments.map((p) => p.id).sort()).toEqual(first.payments.map((p) => p.id).sort());
    expect(((await call(seller, 'GET', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillOverview).preview).toEqual([]);

    // Each draft stays editable through the payment endpoints.
    const ana = billOf(first.payments, 2)[0] as PaymentView;
    const edit = await call(seller, 'POST', `/api/payments/${ana.id}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 99 });
    expect((edit.json() as PaymentAnswer).payment).toMatchObject({ shippingCarrier: 'Estafeta', shippingCost: 99, grandTotal: 599 });

    // Generar enlaces: every draft gets its link, with the show's own deadline, and the panels hear of each.
    const socket = connectSocket(server.url, { cookie: seller.cookie });
    const heard = new Set<string>();
    socket.on('paymentStatusUpdate', (event: PaymentStatusEvent) => {
      if (event.paymentStatus === 'pending') heard.add(event.paymentId);
    });
    await connected(socket);
    const links = (await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill/links`)).json() as ShowLinksAnswer;
    await eventually(() => heard.size === 3, { timeoutMs: 5000, what: () => `${heard.size} of 3 payment events` });
    socket.disconnect();
    expect(links.results).toHaveLength(3);
    expect(links.results.every((r) => r.ok && r.link)).toBe(true);
    for (const p of links.payments) {
      expect(p.paymentStatus).toBe('pending');
      expect(p.paymentLink).toBe(`${server.url}/pay/${p.id}`);
      const hours = (Date.parse(p.deadlineAt as string) - Date.parse(p.linkCreatedAt as string)) / 3_600_000;
      expect(Math.round(hours)).toBe(48);
    }
    // A repeat has nothing left to finalize and changes no link.
    const repeat = (await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill/links`)).json() as ShowLinksAnswer;
    expect(repeat.results).toEqual([]);
    expect(repeat.payments.map((p) => p.paymentLink).sort()).toEqual(links.payments.map((p) => p.paymentLink).sort());
  });

  it('bills pickup shows at no cost, naming the place', async () => {
    const { sessionId } = await show([
      { buyer: 1, price: 400 },
      { buyer: 1, price: 600 },
    ]);
    const rules = { mode: 'pickup', flatFee: 0, perExtraItem: 0, freeOver: null, pickupAddress: 'Mercado de Sonora, local 12, CDMX' };
    expect((await call(seller, 'PUT', `/api/live-sessions/${sessionId}/shipping`, rules)).json()).toEqual({ rules, paymentDeadlineHours: null });
    const billed = (await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillAnswer;
    expect(billed.payments).toHaveLength(1);
    expect(billed.payments[0]).toMatchObject({
      totalAmount: 1000,
      shippingCost: 0,
      grandTotal: 1000,
      shippingCarrier: 'Entrega en punto: Mercado de Sonora, local 12, CDMX',
    });
  });

  it('puts a win billed later into the buyer’s draft of the show, with the shipping of all its lots; after the link, a bill of its own', async () => {
    const { sessionId } = await show([{ buyer: 2, price: 500 }]);
    await call(seller, 'PUT', `/api/live-sessions/${sessionId}/shipping`, flatRules);
    const first = (await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillAnswer;
    expect(first.created).toBe(1);
    const [draft] = billOf(first.payments, 2);
    expect(draft).toMatchObject({ totalAmount: 500, shippingCost: 150 });

    // A lot settled after the first billing (a second-chance sale, a lot that closed late).
    const late = await buildWonAuction(server.ctx.db, { price: 700, companyId: NORTE, sellerId: seller.id, winnerId: (buyers[2] as Actor).id });
    await buildLot(server.ctx.db, { sessionId, auctionId: late.id });
    const second = (await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillAnswer;
    expect(second.created).toBe(0);
    const bills = billOf(second.payments, 2);
    expect(bills).toHaveLength(1);
    expect(bills[0]).toMatchObject({ id: draft?.id, totalAmount: 1200, shippingCost: 200, grandTotal: 1400 });
    expect(bills[0]?.auctionIds).toContain(late.id);

    // Once its link is made the bill is fixed: a later win is billed on its own.
    expect((await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill/links`)).statusCode).toBe(200);
    const after = await buildWonAuction(server.ctx.db, { price: 100, companyId: NORTE, sellerId: seller.id, winnerId: (buyers[2] as Actor).id });
    await buildLot(server.ctx.db, { sessionId, auctionId: after.id });
    const third = (await call(seller, 'POST', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillAnswer;
    expect(third.created).toBe(1);
    expect(billOf(third.payments, 2)).toHaveLength(2);
  });

  it('bills each buyer once when two clicks race', async () => {
    const { sessionId } = await show([
      { buyer: 0, price: 100 },
      { buyer: 1, price: 200 },
      { buyer: 2, price: 300 },
      { buyer: 0, price: 400 },
    ]);
    await call(seller, 'PUT', `/api/live-sessions/${sessionId}/shipping`, flatRules);
    const [a, b] = await Promise.all([
      call(seller, 'POST', `/api/live-sessions/${sessionId}/bill`),
      call(seller, 'POST', `/api/live-sessions/${sessionId}/bill`),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((a.json() as ShowBillAnswer).created + (b.json() as ShowBillAnswer).created).toBe(3);
    const overview = (await call(seller, 'GET', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillOverview;
    expect(overview.payments).toHaveLength(3);
    expect(overview.payments.flatMap((p) => p.auctionIds)).toHaveLength(4);
  });

  it('is the session editor’s only: another company’s seller gets 404 and changes nothing', async () => {
    const { sessionId } = await show([{ buyer: 2, price: 100 }]);
    expect((await call(otherSeller, 'PUT', `/api/live-sessions/${sessionId}/shipping`, flatRules)).statusCode).toBe(404);
    expect((await call(otherSeller, 'GET', `/api/live-sessions/${sessionId}/shipping`)).statusCode).toBe(404);
    expect((await call(otherSeller, 'GET', `/api/live-sessions/${sessionId}/bill`)).statusCode).toBe(404);
    await call(seller, 'PUT', `/api/live-sessions/${sessionId}/shipping`, flatRules);
    expect((await call(otherSeller, 'POST', `/api/live-sessions/${sessionId}/bill`)).statusCode).toBe(404);
    expect((await call(otherSeller, 'POST', `/api/live-sessions/${sessionId}/bill/links`)).statusCode).toBe(404);
    expect((await call(null, 'POST', `/api/live-sessions/${sessionId}/bill`)).statusCode).toBe(401);
    const [row] = await server.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, sessionId));
    expect(row?.shippingRules).toEqual(flatRules);
    const overview = (await call(seller, 'GET', `/api/live-sessions/${sessionId}/bill`)).json() as ShowBillOverview;
    expect(overview.payments).toEqual([]);
    expect(overview.preview).toHaveLength(1);
  });
  it('takes the rules when the show is created, and refuses bad ones there too', async () => {
    const made = await call(seller, 'POST', '/api/live-sessions', {
      title: 'Show con envío',
      scheduledAt: Date.UTC(2030, 0, 4, 18),
      shippingRules: { mode: 'pickup', pickupAddress: 'Local 4, Mercado Juárez', paymentDeadlineHours: 24 },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().session.id as string;
    expect((await call(seller, 'GET', `/api/live-sessions/${id}/shipping`)).json()).toEqual({
      rules: { mode: 'pickup', flatFee: 0, perExtraItem: 0, freeOver: null, pickupAddress: 'Local 4, Mercado Juárez' },
      paymentDeadlineHours: 24,
    });
    const plain = await call(seller, 'POST', '/api/live-sessions', { title: 'Show sin envío', scheduledAt: Date.UTC(2030, 0, 5, 18) });
    expect((await call(seller, 'GET', `/api/live-sessions/${plain.json().session.id}/shipping`)).json()).toEqual({ rules: null, paymentDeadlineHours: null });
    const bad = await call(seller, 'POST', '/api/live-sessions', {
      title: 'Show con envío malo',
      scheduledAt: Date.UTC(2030, 0, 6, 18),
      shippingRules: { mode: 'flat', flatFee: -10 },
    });
    expect(bad.statusCode).toBe(400);
  });
});
