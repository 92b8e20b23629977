import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftAnswer, FinalizeAnswer, MpConnectionStatus } from '../../../../../src/domain/payments.js';
import { payments, userProfiles } from '../../../../../src/server/db/schema.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildAuction } from '../../../../support/factories.js';
import type { FakeMercadoPago } from '../../../../support/fake-mercadopago.js';
import { startWithFakeMercadoPago, WEBHOOK_SECRET } from '../../../../support/mercadopago-server.js';
import { caller, cookieFrom, type TestServer } from '../../../../support/server.js';

/**
 * The whole billing flow with PAYMENTS_PROVIDER=mercadopago against a local fake Mercado Pago that
 * speaks its API: the seller's OAuth connection (state + PKCE, tokens encrypted at rest, refreshed
 * before they expire), Checkout Pro preferences, signed webhooks with the payment fetched before
 * anything changes, and a provider that is down for a while.
 */

let fake: FakeMercadoPago;
let server: TestServer;
let seller: Actor;
let platformSeller: Actor;
let buyer: Actor;

beforeAll(async () => {
  ({ fake, server } = await startWithFakeMercadoPago({ MP_MARKETPLACE_FEE_PERCENT: '10' }));
  seller = await buildActor(server, { email: 'conectada@norte.mx', name: 'Nora Norte', roles: ['seller'], companyId: 'remates-norte' });
  platformSeller = await buildActor(server, { email: 'sin-cuenta@norte.mx', name: 'Pablo Norte', roles: ['seller'], companyId: 'remates-norte' });
  buyer = await buildActor(server, { email: 'juana@ejemplo.mx', name: 'Juana Pérez', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const call = caller(() => server);

async function billedPayment(owner: Actor, price: number): Promise<{ id: string; link: string }> {
  const auction = await buildAuction(server.ctx.db, {
    name: `Lote ${randomUUID().slice(0, 5)}`,
    status: 'ended',
    endTime: new Date(Date.now() - 60_000),
    companyId: 'remates-norte',
    sellerId: owner.id,
    currentPrice: price,
    currentWinnerId: buyer.id,
    currentWinnerName: 'Juana Pérez',
  });
  const draft = await call(owner, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [auction.id] });
  const id = (draft.json() as DraftAnswer).paymentId;
  await call(owner, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 100 });
  const finalized = await call(owner, 'POST', `/api/payments/${id}/finalize`);
  expect(finalized.statusCode, finalized.body).toBe(200);
  return { id, link: (finalized.json() as FinalizeAnswer).paymentLinkUrl };
}

function webhook(dataId: string, opts: { requestId?: string; userId?: number } = {}) {
  const headers = fake.signWebhook({ dataId, secret: WEBHOOK_SECRET, ...(opts.requestId ? { requestId: opts.requestId } : {}) });
  return server.app.inject({
    method: 'POST',
    url: `/api/webhooks/mercadopago?data.id=${dataId}&type=payment`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: { action: 'payment.updated', type: 'payment', data: { id: dataId }, ...(opts.userId ? { user_id: opts.userId } : {}) },
  });
}

const row = async (id: string) => (await server.ctx.db.select().from(payments).where(eq(payments.id, id)))[0];

describe('the seller connects a Mercado Pago account', () => {
  it('goes through OAuth with state and PKCE, and stores the tokens encrypted', async () => {
    expect(((await call(seller, 'GET', '/api/mp/status')).json() as MpConnectionStatus).connected).toBe(false);
    const start = await call(seller, 'GET', '/api/mp/connect');
    expect(start.statusCode).toBe(200);
    const oauthCookie = cookieFrom(start.headers['set-cookie'], 'martillo_mp_oauth') as string;
    const authorize = new URL(start.json().url);
    expect(authorize.origin).toBe(new URL(fake.url).origin);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    fake.setNextSeller({ userId: 777001, liveMode: true });

    // The browser follows Mercado Pago's redirect back to us, with the session and the sealed state.
    const consent = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') as string);
    expect(back.pathname).toBe('/api/mp/callback');
    const cookies = `${seller.cookie}; ${oauthCookie}`;

    // A callback with another state, or without the sealed cookie, is refused.
    const forged = new URL(back);
    forged.searchParams.set('state', 'otro');
    expect((await call(null, 'GET', `${forged.pathname}${forged.search}`, undefined, { cookie: cookies })).statusCode).toBe(400);
    expect((await call(seller, 'GET', `${back.pathname}${back.search}`)).statusCode).toBe(400);

    const done = await call(null, 'GET', `${back.pathname}${back.search}`, undefined, { cookie: cookies });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain('Tu cuenta de Mercado Pago quedó conectada');
    // Its heading is its own, not the same sentence twice (the page read as a stutter).
    expect(done.body).toContain(`<h1>${messages.connection.connectedTitle}</h1>`);
    expect(done.body.split(messages.connection.connected)).toHaveLength(2);

    const status = (await call(seller, 'GET', '/api/mp/status')).json() as MpConnectionStatus;
    expect(status).toEqual({ connected: true, liveMode: true, userId: '777001', provider: 'mercadopago' });
    const [stored] = await server.ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, seller.id));
    expect(stored?.mpAccessToken).toMatch(/^v1\./);
    const token = server.ctx.payments.box.open(stored?.mpAccessToken as string);
    expect(fake.sellerFor(token)).toEqual({ userId: 777001, liveMode: true });
  });
});

describe('checkout and webhooks', () => {
  it('creates the checkout with the connected seller’s account and the platform fee', async () => {
    const { id, link } = await billedPayment(seller, 1000);
    const preference = fake.preferences.at(-1);
    expect(link).toMatch(/^https?:\/\//);
    expect(fake.sellerFor(preference?.token as string)).toEqual({ userId: 777001, liveMode: true });
    expect(preference?.body).toMatchObject({
      external_reference: id,
      notification_url: `${server.url}/api/webhooks/mercadopago`,
      marketplace_fee: 110,
      items: [expect.objectContaining({ currency_id: 'MXN', unit_price: 1000, quantity: 1 })],
    });
    expect(await row(id)).toMatchObject({ paymentStatus: 'pending', collectedBySeller: true, provider: 'mercadopago' });
    // A real Mercado Pago checkout is no test: the back_url page says nothing of the kind.
    expect((await call(null, 'GET', `/api/pay/${id}`)).json()).toMatchObject({ provider: 'mercadopago', isTest: false });
    // Collected by the seller: no payout from the platform is due.
    fake.setPayment({ id: 91001, status: 'approved', external_reference: id, transaction_amount: 1100, date_last_updated: new Date().toISOString() });
    expect((await webhook('91001', { userId: 777001 })).json()).toEqual({ status: 'applied' });
    expect((await call(seller, 'POST', `/api/payments/${id}/request-payout`)).statusCode).toBe(409);
  });

  it('pays with the platform’s account when the seller has none, and converges after the provider was down', async () => {
    const { id } = await billedPayment(platformSeller, 500);
    const preference = fake.preferences.at(-1);
    expect(preference?.token).toBe(fake.platformToken);
    expect(preference?.body).not.toHaveProperty('marketplace_fee');
    fake.setPayment({ id: 92001, status: 'approved', external_reference: id, transaction_amount: 600, date_last_updated: new Date().toISOString() });

    fake.setDown(true);
    const requestId = randomUUID();
    const failed = await webhook('92001', { requestId });
    expect(failed.statusCode).toBe(503);
    expect((await row(id))?.paymentStatus).toBe('pending');
    fake.setDown(false);
    // Mercado Pago delivers the same notification again later.
    expect((await webhook('92001', { requestId })).json()).toEqual({ status: 'applied' });
    expect(await row(id)).toMatchObject({ paymentStatus: 'paid', providerStatus: 'approved', mpPaymentId: '92001', collectedBySeller: false });
    expect((await call(platformSeller, 'POST', `/api/payments/${id}/request-payout`)).statusCode).toBe(200);
  });

  it('records a rejection, keeps the link usable, ignores an older status that arrives late, and flags a refund', async () => {
    const { id } = await billedPayment(platformSeller, 700);
    const at = (s: number) => new Date(Date.now() + s * 1000).toISOString();
    fake.setPayment({ id: 93001, status: 'rejected', external_reference: id, transaction_amount: 800, date_last_updated: at(0) });
    await webhook('93001');
    expect(await row(id)).toMatchObject({ paymentStatus: 'pending', providerStatus: 'rejected' });

    fake.setPayment({ id: 93002, status: 'approved', external_reference: id, transaction_amount: 800, date_last_updated: at(10) });
    await webhook('93002');
    expect(await row(id)).toMatchObject({ paymentStatus: 'paid', mpPaymentId: '93002' });
    // The first attempt's rejection arrives again, out of order: nothing moves back.
    await webhook('93001');
    expect(await row(id)).toMatchObject({ paymentStatus: 'paid', providerStatus: 'approved', mpPaymentId: '93002' });
    // An older state of the paying payment is ignored too.
    fake.setPayment({ id: 93002, status: 'in_process', external_reference: id, transaction_amount: 800, date_last_updated: at(5) });
    expect((await webhook('93002')).json()).toEqual({ status: 'stale' });

    fake.setPayment({ id: 93002, status: 'refunded', external_reference: id, transaction_amount: 800, date_last_updated: at(20) });
    await webhook('93002');
    expect(await row(id)).toMatchObject({ paymentStatus: 'paid', providerStatus: 'refunded', flagged: true });
  });

  it('expires the preference at Mercado Pago when a pending payment is cancelled, with the account that made it', async () => {
    const { id } = await billedPayment(seller, 450);
    const preference = fake.preferences.at(-1);
    const cancel = await call(seller, 'POST', `/api/payments/${id}/cancel`);
    expect(cancel.statusCode).toBe(200);
    const expiry = fake.requests.filter((r) => r.method === 'PUT' && r.path === `/checkout/preferences/${preference?.id}`);
    expect(expiry).toHaveLength(1);
    expect(expiry[0]?.authorization).toBe(`Bearer ${preference?.token}`);
    expect(preference?.body).toMatchObject({ expires: true });
    expect(Date.parse(preference?.body.expiration_date_to as string)).toBeLessThanOrEqual(Date.now() + 1000);
    // If the buyer still pays, the canceled payment is recorded and flagged for someone to look.
    fake.setPayment({ id: 94001, status: 'approved', external_reference: id, transaction_amount: 550, date_last_updated: new Date().toISOString() });
    await webhook('94001', { userId: 777001 });
    expect(await row(id)).toMatchObject({ paymentStatus: 'canceled', providerStatus: 'approved', flagged: true });
  });

  it('answers 200 for a payment Mercado Pago does not know, and 401 for a forged or stale signature', async () => {
    expect((await webhook('404404')).json()).toEqual({ status: 'unknown' });
    const forged = fake.signWebhook({ dataId: '1', secret: 'otra-clave' });
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/webhooks/mercadopago?data.id=1&type=payment',
      headers: forged,
      payload: { type: 'payment', data: { id: '1' } },
    });
    expect(res.statusCode).toBe(401);
    const stale = fake.signWebhook({ dataId: '1', secret: WEBHOOK_SECRET, ts: Math.floor(Date.now() / 1000) - 3600 });
    expect(
      (
        await server.app.inject({
          method: 'POST',
          url: '/api/webhooks/mercadopago?data.id=1&type=payment',
          headers: stale,
          payload: { type: 'payment', data: { id: '1' } },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('refreshes a connected seller’s token before it expires', async () => {
    await server.ctx.db
      .update(userProfiles)
      .set({ mpTokenExpiresAt: new Date(Date.now() + 60_000) })
      .where(eq(userProfiles.userId, seller.id));
    const before = fake.requests.filter((r) => r.path === '/oauth/token').length;
    await billedPayment(seller, 300);
    const refreshes = fake.requests.filter((r) => r.path === '/oauth/token').slice(before);
    expect(refreshes.map((r) => (r.body as { grant_type?: string }).grant_type)).toEqual(['refresh_token']);
    const [stored] = await server.ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, seller.id));
    expect(stored?.mpTokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 3_600_000);
    expect(fake.sellerFor(fake.preferences.at(-1)?.token as string)?.userId).toBe(777001);
  });
});
