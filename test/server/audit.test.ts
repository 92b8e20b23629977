import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftAnswer } from '../../src/domain/payments.js';
import { auditLog, payments, users } from '../../src/server/db/schema.js';
import { expireDuePayments } from '../../src/server/features/payments/unpaid/expiry.js';
import { type Actor, buildActor } from '../support/actors.js';
import { buildAuction } from '../support/factories.js';
import type { FakeMercadoPago } from '../support/fake-mercadopago.js';
import { startWithFakeMercadoPago, WEBHOOK_SECRET } from '../support/mercadopago-server.js';
import { caller, cookieFrom, type TestServer } from '../support/server.js';

/**
 * Each audit row keeps the id of the request that made it (audit_log.request_id), the one its
 * response carried in X-Request-ID: an operator goes from a user's complaint to the row and to the
 * request's log lines. A background job has no request: its rows keep none.
 */

let fake: FakeMercadoPago;
let server: TestServer;
let admin: Actor;
let seller: Actor;
let buyer: Actor;
const call = caller(() => server);

/** The response's X-Request-ID, which every response carries. */
function requestIdOf(res: LightMyRequestResponse): string {
  const id = res.headers['x-request-id'];
  if (typeof id !== 'string') throw new Error(`no x-request-id on ${res.statusCode} ${res.body}`);
  return id;
}

/** The request ids of the rows of one action on one entity, oldest first. */
async function rowsOf(action: string, entityId: string): Promise<{ requestId: string | null; actorId: string | null }[]> {
  return server.ctx.db
    .select({ requestId: auditLog.requestId, actorId: auditLog.actorId })
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)))
    .orderBy(auditLog.id);
}

let firstSignIn: LightMyRequestResponse;
beforeAll(async () => {
  // The tests run the expiry pass by hand; the server's own job could take the bill first.
  ({ fake, server } = await startWithFakeMercadoPago());
  // The first account of an empty database becomes admin, and the audit log says so.
  firstSignIn = await server.app.inject({ method: 'POST', url: '/auth/dev', payload: { email: 'admin@auditoria.mx', name: 'Ada Auditora' } });
  const [found] = await server.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@auditoria.mx'));
  admin = { id: found?.id as string, email: 'admin@auditoria.mx', cookie: cookieFrom(firstSignIn.headers['set-cookie'], 'martillo_session') as string };
  seller = await buildActor(server, { email: 'vende@auditoria.mx', name: 'Vera Vende', roles: ['seller'], companyId: 'remates-auditados' });
  buyer = await buildActor(server, { email: 'compra@ejemplo.mx', name: 'Carla Compra', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function pendingBill(price: number): Promise<{ id: string; responses: Record<string, LightMyRequestResponse> }> {
  const auction = await buildAuction(server.ctx.db, {
    name: `Lote ${randomUUID().slice(0, 5)}`,
    status: 'ended',
    endTime: new Date(Date.now() - 60_000),
    companyId: 'remates-auditados',
    sellerId: seller.id,
    currentPrice: price,
    currentWinnerId: buyer.id,
    currentWinnerName: 'Carla Compra',
  });
  const draft = await call(seller, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [auction.id] });
  const id = (draft.json() as DraftAnswer).paymentId;
  const shipping = await call(seller, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 100 });
  const finalize = await call(seller, 'POST', `/api/payments/${id}/finalize`);
  expect(finalize.statusCode, finalize.body).toBe(200);
  return { id, responses: { draft, shipping, finalize } };
}

describe('the audit log’s request id', () => {
  it('is the X-Request-ID of the response whose request made the row', async () => {
    expect(await rowsOf('roles.grant_first_admin', admin.id)).toEqual([{ requestId: requestIdOf(firstSignIn), actorId: admin.id }]);

    const created = await call(admin, 'POST', '/api/categories', { name: 'Relojes auditados' });
    expect(created.statusCode, created.body).toBe(201);
    expect(await rowsOf('category.create', created.json().id)).toEqual([{ requestId: requestIdOf(created), actorId: admin.id }]);

    const { id, responses } = await pendingBill(900);
    expect(await rowsOf('payment.draft', id)).toEqual([{ requestId: requestIdOf(responses.draft as LightMyRequestResponse), actorId: seller.id }]);
    expect(await rowsOf('payment.shipping', id)).toEqual([{ requestId: requestIdOf(responses.shipping as LightMyRequestResponse), actorId: seller.id }]);
    expect(await rowsOf('payment.finalize', id)).toEqual([{ requestId: requestIdOf(responses.finalize as LightMyRequestResponse), actorId: seller.id }]);
  });

  it('is the webhook’s own on a provider’s news, though nobody signed in acts', async () => {
    const { id } = await pendingBill(400);
    fake.setPayment({ id: 93001, status: 'approved', external_reference: id, transaction_amount: 500, date_last_updated: new Date().toISOString() });
    const providerRequestId = randomUUID();
    const headers = fake.signWebhook({ dataId: '93001', secret: WEBHOOK_SECRET, requestId: providerRequestId });
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/webhooks/mercadopago?data.id=93001&type=payment',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: { action: 'payment.updated', type: 'payment', data: { id: '93001' } },
    });
    expect(res.json()).toEqual({ status: 'applied' });
    // Mercado Pago's own X-Request-ID signs its delivery; without a trusted proxy the server names the request itself.
    expect(requestIdOf(res)).not.toBe(providerRequestId);
    expect(await rowsOf('payment.provider.approved', id)).toEqual([{ requestId: requestIdOf(res), actorId: null }]);
  });

  it('is null on a background job’s row', async () => {
    const { id } = await pendingBill(300);
    await server.ctx.db.update(payments).set({ deadlineAt: sql`now() - interval '1 minute'` }).where(eq(payments.id, id));
    await expireDuePayments(server.ctx.db, { provider: server.ctx.payments.provider, accounts: server.ctx.payments.accounts });
    expect(await rowsOf('payment.expire', id)).toEqual([{ requestId: null, actorId: null }]);
  });
});
