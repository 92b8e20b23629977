import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftAnswer, PaymentAnswer, PaymentView } from '../../../../../src/domain/payments.js';
import { paymentItems } from '../../../../../src/server/db/schema.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildAuction, buildPayment } from '../../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../../support/server.js';

/**
 * Billing's search, payouts and shipping cost on the server: the payments search ignores accents and case over
 * winner, item names and carriers; the paid list filters by payout; the platform marks paid out
 * only what a seller asked for; and a bad shipping cost is refused with a Spanish message.
 */

let server: TestServer;
let platformAdmin: Actor;
let seller: Actor;
let buyer: Actor;
const COMPANY = 'remates-del-valle';

beforeAll(async () => {
  server = await startTestServer();
  platformAdmin = await buildActor(server, { email: 'plataforma@martillo.mx', name: 'Ada Plataforma', roles: ['admin'] });
  seller = await buildActor(server, { email: 'vende@valle.mx', name: 'Sofía Vendedora', roles: ['seller'], companyId: COMPANY });
  buyer = await buildActor(server, { email: 'sofia@ejemplo.mx', name: 'Sofía Muñoz', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => server?.close());

const call = caller(() => server);

async function listed(actor: Actor, query: Record<string, string>): Promise<string[]> {
  const res = await call(actor, 'GET', `/api/payments?${new URLSearchParams(query)}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as PaymentView[]).map((p) => p.id);
}

/** A paid payment of the seller's, one item, in the payout state given. */
async function paidPayment(opts: {
  item: string;
  carrier: string | null;
  winnerName: string;
  payoutStatus?: 'none' | 'requested' | 'paid_out';
}): Promise<string> {
  const auction = await buildAuction(server.ctx.db, {
    name: opts.item,
    status: 'ended',
    endTime: new Date(Date.now() - 60_000),
    companyId: COMPANY,
    sellerId: seller.id,
    currentPrice: 400,
    currentWinnerId: buyer.id,
    currentWinnerName: opts.winnerName,
  });
  const row = await buildPayment(server.ctx.db, {
    winnerId: buyer.id,
    winnerName: opts.winnerName,
    sellerId: seller.id,
    companyId: COMPANY,
    totalAmount: 400,
    shippingCarrier: opts.carrier,
    shippingCost: 90,
    paymentStatus: 'paid',
    paidAt: new Date(),
    provider: 'sandbox',
    providerStatus: 'approved',
    payoutStatus: opts.payoutStatus ?? 'none',
    ...(opts.payoutStatus === 'requested' ? { payoutRequestedAt: new Date() } : {}),
  });
  await server.ctx.db.insert(paymentItems).values({ paymentId: row.id, paymentStatus: 'paid', auctionId: auction.id, auctionName: auction.name, amount: 400 });
  return row.id;
}

describe('the payments search ignores accents and case', () => {
  let sofia: string;
  let jose: string;

  beforeAll(async () => {
    sofia = await paidPayment({ item: 'Muñeca de porcelana Sofía', carrier: 'Paquetería Rápida', winnerName: 'Sofía Muñoz' });
    jose = await paidPayment({ item: 'Reloj de bolsillo', carrier: 'Estafeta Express', winnerName: 'José Ángel Núñez' });
  });

  it.each([
    ['an item name without its accent', 'sofia'],
    ['an item name in capitals', 'PORCELANA'],
    ['an item name with ñ typed as n', 'muneca'],
    ['a carrier without its accent', 'paqueteria'],
    ['a carrier in another case', 'rÁpIdA'],
    ['words from the item and the carrier together', 'porcelana rapida'],
  ])('finds a payment by %s (%s)', async (_what, q) => {
    const found = await listed(seller, { q });
    expect(found).toContain(sofia);
    expect(found).not.toContain(jose);
  });

  it('finds by winner and carrier folded too, and every word must match', async () => {
    expect(await listed(platformAdmin, { q: 'jose angel nunez' })).toEqual([jose]);
    expect(await listed(platformAdmin, { q: 'ESTAFETA' })).toEqual([jose]);
    expect(await listed(platformAdmin, { q: 'reloj porcelana' })).toEqual([]);
  });

  it('takes LIKE wildcards literally', async () => {
    expect(await listed(seller, { q: '%' })).toEqual([]);
    expect(await listed(seller, { q: '_' })).toEqual([]);
  });
});

describe('payouts the platform pays, when the seller asked', () => {
  it('lists the paid payments by payout status', async () => {
    const requested = await paidPayment({ item: 'Lámpara', carrier: 'DHL', winnerName: 'Sofía Muñoz', payoutStatus: 'requested' });
    const paidOut = await paidPayment({ item: 'Espejo', carrier: 'DHL', winnerName: 'Sofía Muñoz', payoutStatus: 'paid_out' });
    const asked = await listed(platformAdmin, { status: 'paid', payoutStatus: 'requested' });
    expect(asked).toContain(requested);
    expect(asked).not.toContain(paidOut);
    expect(await listed(platformAdmin, { status: 'paid', payoutStatus: 'paid_out' })).toContain(paidOut);
    expect((await call(platformAdmin, 'GET', '/api/payments?payoutStatus=pagado')).statusCode).toBe(400);
  });

  it('refuses to mark paid out a payout nobody requested, and marks it once the seller asks', async () => {
    const id = await paidPayment({ item: 'Jarrón', carrier: null, winnerName: 'Sofía Muñoz' });
    const early = await call(platformAdmin, 'POST', `/api/payments/${id}/mark-paid-out`);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(messages.payments.payoutNotRequested);

    expect((await call(seller, 'POST', `/api/payments/${id}/request-payout`)).statusCode).toBe(200);
    const marked = await call(platformAdmin, 'POST', `/api/payments/${id}/mark-paid-out`);
    expect(marked.statusCode, marked.body).toBe(200);
    expect((marked.json() as PaymentAnswer).payment.payoutStatus).toBe('paid_out');
  });
});

describe('a bad shipping cost is refused in Spanish', () => {
  let draftId: string;

  beforeAll(async () => {
    const auction = await buildAuction(server.ctx.db, {
      name: `Lote ${randomUUID().slice(0, 6)}`,
      status: 'ended',
      endTime: new Date(Date.now() - 60_000),
      companyId: COMPANY,
      sellerId: seller.id,
      currentPrice: 300,
      currentWinnerId: buyer.id,
      currentWinnerName: 'Sofía Muñoz',
    });
    const res = await call(seller, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [auction.id] });
    expect(res.statusCode, res.body).toBe(201);
    draftId = (res.json() as DraftAnswer).paymentId;
  });

  it.each([
    ['negative', -120, messages.fields.shippingCostNegative],
    ['negative as text', '-120', messages.fields.shippingCostNegative],
    ['huge', 99_999_999_999, messages.fields.shippingCostTooHigh],
    ['with cents', 12.5, messages.fields.shippingCostInteger],
    ['not a number', '12abc', messages.fields.shippingCostInvalid],
  ])('refuses a %s cost with a Spanish message and keeps the draft as it was', async (_what, shippingCost, message) => {
    const res = await call(seller, 'POST', `/api/payments/${draftId}/update-shipping`, { shippingCarrier: 'DHL', shippingCost });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.shippingCost).toBe(message);
    const [draft] = ((await call(seller, 'GET', '/api/payments?status=draft')).json() as PaymentView[]).filter((p) => p.id === draftId);
    expect(draft).toMatchObject({ shippingCarrier: null, shippingCost: 0 });
  });

  it('names the most a shipping cost may be', () => {
    expect(messages.fields.shippingCostTooHigh).toContain('1,000,000');
  });
});
