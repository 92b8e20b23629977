import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMercadoPagoProvider, type MercadoPagoOptions } from '../../../../src/server/providers/payments/mercadopago.js';
import { pkceChallenge } from '../../../../src/server/providers/payments/signing.js';
import {
  type CheckoutInput,
  type PaymentProvider,
  type ProviderConnect,
  ProviderUnavailableError,
  type SellerCredentials,
} from '../../../../src/server/providers/payments/types.js';
import { type FakeMercadoPago, startFakeMercadoPago } from '../../../support/fake-mercadopago.js';

const PLATFORM_TOKEN = 'APP_USR-platform-token-0001';
const CLIENT_ID = '4455667788';
const CLIENT_SECRET = 'client-secret-xyz';
const WEBHOOK_SECRET = 'webhook-secret-abc';
const NOW = Date.parse('2026-03-10T18:00:00.000Z');
const PUBLIC_URL = new URL('https://martillo.example.mx');

let mp: FakeMercadoPago;
let clock = NOW;

const options = (overrides: Partial<MercadoPagoOptions> = {}): MercadoPagoOptions => ({
  accessToken: PLATFORM_TOKEN,
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  webhookSecret: WEBHOOK_SECRET,
  apiUrl: mp.url,
  authUrl: mp.url,
  publicUrl: PUBLIC_URL,
  marketplaceFeePercent: 10,
  linkHours: 72,
  now: () => clock,
  ...overrides,
});
let provider: PaymentProvider;

beforeAll(async () => {
  mp = await startFakeMercadoPago({ platformToken: PLATFORM_TOKEN, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  provider = createMercadoPagoProvider(options());
});
afterAll(async () => {
  await mp?.close();
});
beforeEach(() => {
  clock = NOW;
  mp.setDown(false);
});

const uuid = () => crypto.randomUUID();
const checkoutInput = (overrides: Partial<CheckoutInput> = {}): CheckoutInput => ({
  paymentId: uuid(),
  items: [
    { auctionId: uuid(), auctionName: 'Reloj de bolsillo 1920', amount: 1500 },
    { auctionId: uuid(), auctionName: 'Guitarra Paracho', amount: 2350 },
  ],
  shippingCarrier: 'Estafeta',
  shippingCost: 199,
  grandTotal: 1500 + 2350 + 199,
  payer: { name: 'Sofía Hernández', email: 'sofia@example.mx' },
  seller: null,
  ...overrides,
});

/** A seller connected for real through the fake's OAuth flow. */
async function connectSeller(connect: ProviderConnect, seller: { liveMode?: boolean } = {}) {
  mp.setNextSeller(seller);
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = 'https://martillo.example.mx/api/mp/callback';
  const url = connect.authorizationUrl({ state: 'st-1', codeChallenge: pkceChallenge(verifier), redirectUri });
  const res = await fetch(url, { redirect: 'manual' });
  const code = new URL(res.headers.get('location') as string).searchParams.get('code') as string;
  return connect.exchangeCode({ code, codeVerifier: verifier, redirectUri });
}

describe('Mercado Pago checkout (preferences)', () => {
  it('creates a preference in MXN with shipping, references, back URLs and a 72 h expiry', async () => {
    const input = checkoutInput();
    const checkout = await provider.createCheckout(input);

    const recorded = mp.preferences.at(-1);
    expect(recorded?.id).toBe(checkout.preferenceId);
    expect(recorded?.token).toBe(PLATFORM_TOKEN);
    expect(recorded?.idempotencyKey).toBe(input.paymentId);
    const body = recorded?.body as Record<string, unknown>;
    expect(body.items).toEqual(input.items.map((i) => ({ id: i.auctionId, title: i.auctionName, quantity: 1, currency_id: 'MXN', unit_price: i.amount })));
    expect(body.shipments).toEqual({ cost: 199, mode: 'not_specified' });
    expect(body.payer).toEqual({ name: 'Sofía Hernández', email: 'sofia@example.mx' });
    expect(body.external_reference).toBe(input.paymentId);
    expect(body.notification_url).toBe('https://martillo.example.mx/api/webhooks/mercadopago');
    expect(body.back_urls).toEqual({
      success: `https://martillo.example.mx/pay/${input.paymentId}?result=success`,
      failure: `https://martillo.example.mx/pay/${input.paymentId}?result=failure`,
      pending: `https://martillo.example.mx/pay/${input.paymentId}?result=pending`,
    });
    expect(body.auto_return).toBe('approved');
    expect(body.expires).toBe(true);
    expect(body).not.toHaveProperty('marketplace_fee');

    const expected = NOW + 72 * 3_600_000;
    expect(body.date_of_expiration).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/);
    expect(Date.parse(body.date_of_expiration as string)).toBe(expected);
    expect(Date.parse(body.expiration_date_to as string)).toBe(expected);
    expect(Date.parse(body.expiration_date_from as string)).toBe(NOW);
    expect(checkout.expiresAt?.getTime()).toBe(expected);

    // A live platform token gets the production checkout.
    expect(checkout.url).toBe(`${mp.url}/checkout/v1/redirect?pref_id=${checkout.preferenceId}`);
    expect((await fetch(checkout.url)).status).toBe(200);
  });

  it('leaves shipments out without a shipping cost and the email out when there is none', async () => {
    await provider.createCheckout(checkoutInput({ shippingCost: 0, grandTotal: 3850, payer: { name: 'Luis', email: null } }));
    const body = mp.preferences.at(-1)?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('shipments');
    expect(body.payer).toEqual({ name: 'Luis' });
  });

  it("uses a connected seller's token, charges the platform fee and links the sandbox checkout in test mode", async () => {
    const connect = provider.connect as ProviderConnect;
    const tokens = await connectSeller(connect, { liveMode: false });
    const seller: SellerCredentials = { userId: tokens.userId, accessToken: tokens.accessToken, liveMode: tokens.liveMode };
    const input = checkoutInput({ grandTotal: 4049, seller });
    const checkout = await provider.createCheckout(input);

    const recorded = mp.preferences.at(-1);
    expect(recorded?.token).toBe(tokens.accessToken);
    expect(recorded?.body.marketplace_fee).toBe(404.9);
    expect(checkout.url).toBe(`${mp.url}/sandbox/checkout/v1/redirect?pref_id=${checkout.preferenceId}`);
    expect(checkout.preferenceId?.startsWith(`${tokens.userId}-`)).toBe(true);
  });

  it('rounds the marketplace fee to centavos and uses init_point for a live seller', async () => {
    const tokens = await connectSeller(provider.connect as ProviderConnect, { liveMode: true });
    const feeProvider = createMercadoPagoProvider(options({ marketplaceFeePercent: 7.5 }));
    const checkout = await feeProvider.createCheckout(
      checkoutInput({ grandTotal: 1333, seller: { userId: tokens.userId, accessToken: tokens.accessToken, liveMode: true } }),
    );
    expect(mp.preferences.at(-1)?.body.marketplace_fee).toBe(99.98); // 99.975 → 99.98
    expect(checkout.url).toContain('/checkout/v1/redirect');
    expect(checkout.url).not.toContain('/sandbox/');
  });

  it('makes one preference when the same payment is finalised twice', async () => {
    const input = checkoutInput();
    const before = mp.preferences.length;
    const first = await provider.createCheckout(input);
    const second = await provider.createCheckout(input);
    expect(second.preferenceId).toBe(first.preferenceId);
    expect(second.url).toBe(first.url);
    expect(mp.preferences.length).toBe(before + 1);
    expect(mp.requests.filter((r) => r.path === '/checkout/preferences' && r.idempotencyKey === input.paymentId)).toHaveLength(2);
  });

  it('throws ProviderUnavailableError when Mercado Pago is down or unreachable, and a plain error on 4xx', async () => {
    mp.setDown(true);
    await expect(provider.createCheckout(checkoutInput())).rejects.toBeInstanceOf(ProviderUnavailableError);
    mp.setDown(false);

    const unreachable = createMercadoPagoProvider(options({ apiUrl: 'http://127.0.0.1:1' }));
    await expect(unreachable.createCheckout(checkoutInput())).rejects.toBeInstanceOf(ProviderUnavailableError);

    const badToken = createMercadoPagoProvider(options({ accessToken: 'APP_USR-not-issued' }));
    const err = await badToken.createCheckout(checkoutInput()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ProviderUnavailableError);
    expect((err as Error).message).toContain('invalid access token');
  });
});

describe('Mercado Pago payments (lookup)', () => {
  it.each([
    ['approved', 'approved'],
    ['pending', 'pending'],
    ['in_process', 'in_process'],
    ['authorized', 'pending'],
    ['in_mediation', 'pending'],
    ['rejected', 'rejected'],
    ['cancelled', 'cancelled'],
    ['refunded', 'refunded'],
    ['charged_back', 'charged_back'],
    ['something_new', 'pending'],
  ] as const)('maps %s to %s', async (mpStatus, ours) => {
    const id = String(Math.floor(1e10 + Math.random() * 1e9));
    const paymentId = uuid();
    mp.setPayment({ id, status: mpStatus, external_reference: paymentId, transaction_amount: 4049, date_last_updated: '2026-03-10T12:30:00.000-06:00' });
    const payment = await provider.fetchPayment(id, null);
    expect(payment).toEqual({ id, status: ours, externalReference: paymentId, amount: 4049, updatedAt: new Date('2026-03-10T18:30:00.000Z') });
  });

  it('answers null for a payment Mercado Pago does not know', async () => {
    expect(await provider.fetchPayment('123404040404', null)).toBeNull();
  });

  it("reads with the seller's token when given, the platform's otherwise", async () => {
    const tokens = await connectSeller(provider.connect as ProviderConnect);
    mp.setPayment({ id: '55501', status: 'approved', external_reference: 'ref', transaction_amount: 10 });
    await provider.fetchPayment('55501', { userId: tokens.userId, accessToken: tokens.accessToken, liveMode: false });
    expect(mp.requests.at(-1)).toMatchObject({ path: '/v1/payments/55501', authorization: `Bearer ${tokens.accessToken}` });
    await provider.fetchPayment('55501', null);
    expect(mp.requests.at(-1)).toMatchObject({ path: '/v1/payments/55501', authorization: `Bearer ${PLATFORM_TOKEN}` });
  });

  it('throws ProviderUnavailableError while Mercado Pago is down', async () => {
    mp.setPayment({ id: '55502', status: 'approved' });
    mp.setDown(true);
    await expect(provider.fetchPayment('55502', null)).rejects.toBeInstanceOf(ProviderUnavailableError);
    mp.setDown(false);
    expect((await provider.fetchPayment('55502', null))?.status).toBe('approved');
  });
});

describe('Mercado Pago webhooks (x-signature)', () => {
  const nowSeconds = Math.floor(NOW / 1000);
  const request = (
    headers: Record<string, string>,
    dataId = '123456789',
    body: unknown = { type: 'payment', action: 'payment.updated', data: { id: dataId } },
  ) => ({
    headers,
    query: { 'data.id': dataId, type: 'payment' },
    body,
  });

  it('accepts a webhook signed with our secret (ts in Unix seconds)', () => {
    const headers = mp.signWebhook({ dataId: '123456789', requestId: 'req-1', ts: nowSeconds - 10, secret: WEBHOOK_SECRET });
    expect(provider.verifyWebhook(request(headers))).toEqual({ ok: true, eventId: 'req-1', topic: 'payment', resourceId: '123456789' });
  });

  it('signs an alphanumeric data.id in lower case and falls back to the body when the query has none', () => {
    const headers = mp.signWebhook({ dataId: 'ORD01ABC', requestId: 'req-2', ts: nowSeconds, secret: WEBHOOK_SECRET });
    expect(provider.verifyWebhook(request(headers, 'ORD01ABC'))).toMatchObject({ ok: true, resourceId: 'ord01abc' });
    const fromBody = mp.signWebhook({ dataId: '987', requestId: 'req-3', ts: nowSeconds, secret: WEBHOOK_SECRET });
    expect(provider.verifyWebhook({ headers: fromBody, query: {}, body: { type: 'payment', data: { id: 987 } } })).toEqual({
      ok: true,
      eventId: 'req-3',
      topic: 'payment',
      resourceId: '987',
    });
  });

  it('refuses a forged signature, another data.id and a wrong secret', () => {
    const headers = mp.signWebhook({ dataId: '123456789', requestId: 'req-4', ts: nowSeconds, secret: WEBHOOK_SECRET });
    const forged = { ...headers, 'x-signature': headers['x-signature'].replace(/v1=(.)/, (_, c) => `v1=${c === 'a' ? 'b' : 'a'}`) };
    expect(provider.verifyWebhook(request(forged))).toEqual({ ok: false, reason: 'signature' });
    expect(provider.verifyWebhook(request(headers, '123456780'))).toEqual({ ok: false, reason: 'signature' });
    expect(provider.verifyWebhook(request({ ...headers, 'x-request-id': 'req-other' }))).toEqual({ ok: false, reason: 'signature' });
    const wrongSecret = mp.signWebhook({ dataId: '123456789', requestId: 'req-5', ts: nowSeconds, secret: 'not-our-secret' });
    expect(provider.verifyWebhook(request(wrongSecret))).toEqual({ ok: false, reason: 'signature' });
    expect(provider.verifyWebhook(request({ ...headers, 'x-signature': `ts=${nowSeconds},v1=zz` }))).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuses a ts older or newer than the tolerance', () => {
    const old = mp.signWebhook({ dataId: '123456789', requestId: 'req-6', ts: nowSeconds - 301, secret: WEBHOOK_SECRET });
    expect(provider.verifyWebhook(request(old))).toEqual({ ok: false, reason: 'stale' });
    const future = mp.signWebhook({ dataId: '123456789', requestId: 'req-7', ts: nowSeconds + 301, secret: WEBHOOK_SECRET });
    expect(provider.verifyWebhook(request(future))).toEqual({ ok: false, reason: 'stale' });
    const edge = mp.signWebhook({ dataId: '123456789', requestId: 'req-8', ts: nowSeconds - 300, secret: WEBHOOK_SECRET });
    expect(provider.verifyWebhook(request(edge)).ok).toBe(true);
    // A ts written in milliseconds is read as milliseconds, not as a date far in the future.
    const ms = mp.signWebhook({ dataId: '123456789', requestId: 'req-9', ts: NOW - 5_000, secret: WEBHOOK_SECRET });
    expect(provider.verifyWebhook(request(ms)).ok).toBe(true);
  });

  it('refuses a webhook with missing pieces as malformed', () => {
    const headers = mp.signWebhook({ dataId: '123456789', requestId: 'req-10', ts: nowSeconds, secret: WEBHOOK_SECRET });
    expect(provider.verifyWebhook(request({ 'x-request-id': 'req-10' }))).toEqual({ ok: false, reason: 'malformed' });
    expect(provider.verifyWebhook(request({ 'x-signature': headers['x-signature'] }))).toEqual({ ok: false, reason: 'malformed' });
    expect(provider.verifyWebhook(request({ ...headers, 'x-signature': 'v1=abc' }))).toEqual({ ok: false, reason: 'malformed' });
    expect(provider.verifyWebhook(request({ ...headers, 'x-signature': `ts=${nowSeconds}` }))).toEqual({ ok: false, reason: 'malformed' });
    expect(provider.verifyWebhook({ headers, query: {}, body: { type: 'payment' } })).toEqual({ ok: false, reason: 'malformed' });
    expect(provider.verifyWebhook({ headers, query: {}, body: null })).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('Mercado Pago seller connection (OAuth with PKCE)', () => {
  const redirectUri = 'https://martillo.example.mx/api/mp/callback';

  it('is absent without a client id and secret', () => {
    expect(createMercadoPagoProvider(options({ clientId: null })).connect).toBeNull();
    expect(createMercadoPagoProvider(options({ clientSecret: null })).connect).toBeNull();
  });

  it('builds the authorization URL with state and an S256 challenge', () => {
    const challenge = pkceChallenge('a-verifier-a-verifier-a-verifier-a-verifier');
    const url = new URL((provider.connect as ProviderConnect).authorizationUrl({ state: 'state-123', codeChallenge: challenge, redirectUri }));
    expect(`${url.origin}${url.pathname}`).toBe(`${mp.url}/authorization`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CLIENT_ID,
      response_type: 'code',
      platform_id: 'mp',
      state: 'state-123',
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
  });

  it('exchanges the code with the right verifier for the seller tokens', async () => {
    const connect = provider.connect as ProviderConnect;
    mp.setNextSeller({ userId: 24681357, liveMode: true });
    const verifier = randomBytes(32).toString('base64url');
    const res = await fetch(connect.authorizationUrl({ state: 'st-ok', codeChallenge: pkceChallenge(verifier), redirectUri }), { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') as string);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('st-ok');

    const tokens = await connect.exchangeCode({ code: back.searchParams.get('code') as string, codeVerifier: verifier, redirectUri });
    expect(tokens.userId).toBe('24681357');
    expect(tokens.liveMode).toBe(true);
    expect(tokens.accessToken).toMatch(/^APP_USR-/);
    expect(tokens.refreshToken).toMatch(/^TG-/);
    expect(tokens.expiresAt?.getTime()).toBe(NOW + 15_552_000 * 1000);
    expect(mp.sellerFor(tokens.accessToken)).toEqual({ userId: 24681357, liveMode: true });
    const sent = mp.requests.at(-1);
    expect(sent?.body).toEqual({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      grant_type: 'authorization_code',
      code: back.searchParams.get('code'),
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
  });

  it('fails the exchange with a wrong verifier', async () => {
    const connect = provider.connect as ProviderConnect;
    const verifier = randomBytes(32).toString('base64url');
    const res = await fetch(connect.authorizationUrl({ state: 'st-bad', codeChallenge: pkceChallenge(verifier), redirectUri }), { redirect: 'manual' });
    const code = new URL(res.headers.get('location') as string).searchParams.get('code') as string;
    const err = await connect.exchangeCode({ code, codeVerifier: randomBytes(32).toString('base64url'), redirectUri }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ProviderUnavailableError);
    expect((err as Error).message).toContain('code_verifier');
  });

  it('refreshes: new tokens, and the old refresh token is spent', async () => {
    const connect = provider.connect as ProviderConnect;
    const first = await connectSeller(connect);
    clock = NOW + 3_600_000;
    const second = await connect.refresh(first.refreshToken as string);
    expect(second.userId).toBe(first.userId);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.expiresAt?.getTime()).toBe(NOW + 3_600_000 + 15_552_000 * 1000);
    expect(mp.requests.at(-1)?.body).toMatchObject({ grant_type: 'refresh_token', refresh_token: first.refreshToken });
    await expect(connect.refresh(first.refreshToken as string)).rejects.toThrow(/refresh_token/);
    // The new token works for a checkout.
    const checkout = await provider.createCheckout(
      checkoutInput({ seller: { userId: second.userId, accessToken: second.accessToken, liveMode: second.liveMode } }),
    );
    expect(checkout.preferenceId).toBeTruthy();
  });

  it('reports Mercado Pago being down as ProviderUnavailableError', async () => {
    mp.setDown(true);
    await expect((provider.connect as ProviderConnect).refresh('TG-whatever')).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});
