import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftAnswer, FinalizeAnswer, PaymentView } from '../../../../../src/domain/payments.js';
import { auditLog, payments } from '../../../../../src/server/db/schema.js';
import { reserveCheckout } from '../../../../../src/server/features/payments/bills/checkout.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildAuction } from '../../../../support/factories.js';
import type { FakeMercadoPago } from '../../../../support/fake-mercadopago.js';
import { startWithFakeMercadoPago } from '../../../../support/mercadopago-server.js';
import { caller, type TestServer } from '../../../../support/server.js';
import { eventually } from '../../../../support/wait.js';

/**
 * Finalising never holds a transaction open while Mercado Pago works (a slow provider
 * must not hold locks others wait for): the draft is
 * reserved, the preference is made outside any transaction with the payment's id as its
 * idempotency key, and the link is recorded after. A lost answer or a crash between the steps is
 * finished by the next click with the same preference; a slow provider blocks no one else.
 */

let fake: FakeMercadoPago;
let server: TestServer;
let seller: Actor;
let buyer: Actor;
const COMPANY = 'remates-centro';

beforeAll(async () => {
  ({ fake, server } = await startWithFakeMercadoPago());
  seller = await buildActor(server, { email: 'vende@centro.mx', name: 'Celia Centro', roles: ['seller'], companyId: COMPANY });
  buyer = await buildActor(server, { email: 'juana@ejemplo.mx', name: 'Juana Pérez', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const call = caller(() => server);
const row = async (id: string) => (await server.ctx.db.select().from(payments).where(eq(payments.id, id)))[0];
const preferencesOf = (id: string) => fake.preferences.filter((p) => p.body.external_reference === id);
const finalizeAudits = async (id: string) =>
  server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'payment.finalize')));

/** A draft with shipping, ready to finalise. */
async function readyDraft(price: number): Promise<string> {
  const auction = await buildAuction(server.ctx.db, {
    name: `Lote ${randomUUID().slice(0, 5)}`,
    status: 'ended',
    endTime: new Date(Date.now() - 60_000),
    companyId: COMPANY,
    sellerId: seller.id,
    currentPrice: price,
    currentWinnerId: buyer.id,
    currentWinnerName: 'Juana Pérez',
  });
  const draft = await call(seller, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [auction.id] });
  expect(draft.statusCode, draft.body).toBe(201);
  const id = (draft.json() as DraftAnswer).paymentId;
  expect((await call(seller, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 100 })).statusCode).toBe(200);
  return id;
}

describe('finalize, in steps around the provider call', () => {
  it('finishes a checkout whose answer was lost on the next click, with the same preference', async () => {
    const id = await readyDraft(800);
    fake.dropNextPreferenceAnswer();
    const lost = await call(seller, 'POST', `/api/payments/${id}/finalize`);
    expect(lost.statusCode, lost.body).toBe(502);
    expect(lost.json().error.message).toBe(messages.payments.checkoutFailed);
    expect(preferencesOf(id)).toHaveLength(1);
    // Reserved: still a draft without a link, but its amount can no longer change.
    expect(await row(id)).toMatchObject({ paymentStatus: 'draft', paymentLink: null, provider: 'mercadopago' });
    const edit = await call(seller, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'DHL', shippingCost: 300 });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error.message).toBe(messages.payments.finalizing);

    const retry = await call(seller, 'POST', `/api/payments/${id}/finalize`);
    expect(retry.statusCode, retry.body).toBe(200);
    const [preference] = preferencesOf(id);
    expect(preferencesOf(id)).toHaveLength(1);
    expect((retry.json() as FinalizeAnswer).paymentLinkUrl).toBe(`${fake.url}/checkout/v1/redirect?pref_id=${preference?.id}`);
    expect(await row(id)).toMatchObject({ paymentStatus: 'pending', mpPreferenceId: preference?.id, shippingCost: 100 });
    expect(fake.requests.filter((r) => r.path === '/checkout/preferences' && r.idempotencyKey === id)).toHaveLength(2);
    expect(await finalizeAudits(id)).toHaveLength(1);
  });

  it('recovers a process that died after the provider call: the next click records the same preference', async () => {
    const id = await readyDraft(650);
    const { provider } = server.ctx.payments;
    // The first click reserved the draft and made the preference, then the process died before recording it.
    const step = await reserveCheckout(server.ctx.db, {
      actor: { id: seller.id, roles: ['seller'], profileCompanyId: COMPANY, companyId: COMPANY },
      id,
      provider: provider.kind,
    });
    if (!('reservation' in step)) throw new Error('expected a reservation');
    const r = step.reservation;
    const made = await provider.createCheckout({
      paymentId: r.id,
      items: r.items,
      shippingCarrier: r.shippingCarrier,
      shippingCost: r.shippingCost,
      grandTotal: r.grandTotal,
      payer: { name: r.winnerName, email: null },
      seller: null,
    });
    expect((await row(id))?.paymentLink).toBeNull();

    const retry = await call(seller, 'POST', `/api/payments/${id}/finalize`);
    expect(retry.statusCode, retry.body).toBe(200);
    expect((retry.json() as FinalizeAnswer).paymentLinkUrl).toBe(made.url);
    expect(preferencesOf(id)).toHaveLength(1);
    expect(await row(id)).toMatchObject({ paymentStatus: 'pending', paymentLink: made.url, mpPreferenceId: made.preferenceId });
    expect(await finalizeAudits(id)).toHaveLength(1);
  });

  it('blocks no bid, list or cancel while Mercado Pago is slow; a cancel meanwhile expires the new preference', async () => {
    const id = await readyDraft(900);
    const open = await buildAuction(server.ctx.db, {
      status: 'active',
      endTime: new Date(Date.now() + 3_600_000),
      startingPrice: 500,
      companyId: COMPANY,
      sellerId: seller.id,
    });
    const release = fake.holdPreferences();
    try {
      let settled = false;
      const finalizing = call(seller, 'POST', `/api/payments/${id}/finalize`).finally(() => {
        settled = true;
      });
      await eventually(() => fake.requests.some((r) => r.path === '/checkout/preferences' && r.idempotencyKey === id), { intervalMs: 10 });

      // The provider holds the call open; the database is free meanwhile.
      const bid = await call(buyer, 'POST', `/api/auctions/${open.id}/bids`, { amount: 500 });
      expect(bid.statusCode, bid.body).toBe(201);
      const listed = await call(seller, 'GET', '/api/payments?status=draft');
      expect((listed.json() as PaymentView[]).map((p) => p.id)).toContain(id);
      const cancel = await call(seller, 'POST', `/api/payments/${id}/cancel`);
      expect(cancel.statusCode, cancel.body).toBe(200);
      expect(settled).toBe(false);

      release();
      const answer = await finalizing;
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json().error.message).toBe(messages.payments.notDraft);
      const [preference] = preferencesOf(id);
      expect(fake.requests.filter((r) => r.method === 'PUT' && r.path === `/checkout/preferences/${preference?.id}`)).toHaveLength(1);
      expect(await row(id)).toMatchObject({ paymentStatus: 'canceled', paymentLink: null });
      expect(await finalizeAudits(id)).toHaveLength(0);
    } finally {
      release();
    }
  });
});
