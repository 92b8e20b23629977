import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Mercado Pago for tests: a real HTTP server on 127.0.0.1 that speaks the shapes of the
 * API (`/checkout/preferences`, `/v1/payments/:id`, `/oauth/token`) and of the auth site
 * (`/authorization`, which approves at once and redirects back with a code). Like Mercado Pago it
 * answers the same preference again for the same X-Idempotency-Key (and account). Point both
 * MP_API_URL and MP_AUTH_URL at `url`. `latencyMs` (default 0) holds every request that long
 * before it is handled, as a distant Mercado Pago would (the show-billing bench uses 150 ms): a
 * request is recorded in `requests` when it arrives, its preference in `preferences` after the wait.
 */
export interface FakeMercadoPago {
  /** Base URL serving both the API and the auth paths (no trailing slash). */
  url: string;
  platformToken: string;
  clientId: string;
  clientSecret: string;
  /** Bodies of the preferences created, in order (an idempotent repeat is not recorded twice). */
  readonly preferences: RecordedPreference[];
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Puts or replaces a payment that GET /v1/payments/:id answers. */
  setPayment(payment: FakePayment): void;
  /** While down, every request answers 503. */
  setDown(down: boolean): void;
  /** Holds every preference request unanswered until the returned release is called (a slow Mercado Pago). */
  holdPreferences(): () => void;
  /** The next preference is created, then its answer is lost (the connection drops), as after a crash or a timeout. */
  dropNextPreferenceAnswer(): void;
  /** Who the next /authorization approves (default: a new test user, live_mode false). */
  setNextSeller(seller: { userId?: number; liveMode?: boolean }): void;
  /** Tokens issued to connected sellers, by access token. */
  sellerFor(accessToken: string): { userId: number; liveMode: boolean } | undefined;
  /** The headers Mercado Pago would send with a webhook about dataId. ts in Unix seconds (default now). */
  signWebhook(opts: { dataId: string; requestId?: string; ts?: number; secret: string }): { 'x-signature': string; 'x-request-id': string };
  close(): Promise<void>;
}

export interface FakePayment {
  id: string | number;
  status: string;
  external_reference?: string | null;
  transaction_amount?: number;
  date_last_updated?: string;
  status_detail?: string;
}

export interface RecordedPreference {
  id: string;
  /** The bearer token it was created with. */
  token: string;
  idempotencyKey: string | null;
  body: Record<string, unknown>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | null;
  idempotencyKey: string | null;
  body: unknown;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  userId: number;
  liveMode: boolean;
}

const TOKEN_SECONDS = 15_552_000; // 180 days, as Mercado Pago's OAuth answers

export async function startFakeMercadoPago(opts: {
  platformToken: string;
  clientId: string;
  clientSecret: string;
  latencyMs?: number;
}): Promise<FakeMercadoPago> {
  const latencyMs = opts.latencyMs ?? 0;
  const preferences: RecordedPreference[] = [];
  const requests: RecordedRequest[] = [];
  const payments = new Map<string, FakePayment & { date_created: string }>();
  const sellerTokens = new Map<string, { userId: number; liveMode: boolean }>();
  const refreshTokens = new Map<string, { userId: number; liveMode: boolean }>();
  const codes = new Map<string, Grant>();
  const byIdempotency = new Map<string, Record<string, unknown>>();
  let down = false;
  let hold: Promise<void> | null = null;
  let dropAnswers = 0;
  let nextSeller: { userId?: number; liveMode?: boolean } = {};
  let userCounter = 100_000_000;
  let url = '';

  const platformUserId = 999_000_001;
  const tokenOwner = (authorization: string | undefined): { userId: number; liveMode: boolean } | null => {
    const m = /^Bearer (\S+)$/.exec(authorization ?? '');
    if (!m?.[1]) return null;
    if (m[1] === opts.platformToken) return { userId: platformUserId, liveMode: !opts.platformToken.startsWith('TEST-') };
    return sellerTokens.get(m[1]) ?? null;
  };

  const issueTokens = (owner: { userId: number; liveMode: boolean }) => {
    const prefix = owner.liveMode ? 'APP_USR' : 'TEST';
    const accessToken = `${prefix}-${randomBytes(8).toString('hex')}-${owner.userId}`;
    const refreshToken = `TG-${randomBytes(12).toString('hex')}-${owner.userId}`;
    sellerTokens.set(accessToken, owner);
    refreshTokens.set(refreshToken, owner);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: TOKEN_SECONDS,
      scope: 'offline_access payments read write',
      user_id: owner.userId,
      refresh_token: refreshToken,
      public_key: `${prefix}-${randomUUID()}`,
      live_mode: owner.liveMode,
    };
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, error: string, message: string) => send(res, status, { message, error, status, cause: [] });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', url);
    const raw = await readBody(req);
    const contentType = req.headers['content-type'] ?? '';
    let body: unknown = null;
    if (raw) {
      if (contentType.includes('application/x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(raw));
      else {
        try {
          body = JSON.parse(raw);
        } catch {
          return fail(res, 400, 'bad_request', 'invalid JSON body');
        }
      }
    }
    const idempotencyKey = headerText(req.headers['x-idempotency-key']);
    requests.push({
      method: req.method ?? 'GET',
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      authorization: headerText(req.headers.authorization),
      idempotencyKey,
      body,
    });
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    if (down) return fail(res, 503, 'service_unavailable', 'Service Unavailable');

    // ── Auth site: approves at once and returns to the application ──
    if (req.method === 'GET' && u.pathname === '/authorization') {
      const q = u.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== opts.clientId) return fail(res, 400, 'invalid_client', 'unknown client_id');
      if (q.get('response_type') !== 'code' || !redirectUri) return fail(res, 400, 'invalid_request', 'response_type=code and redirect_uri are required');
      const codeChallenge = q.get('code_challenge') ?? '';
      if (q.get('code_challenge_method') !== 'S256' || !/^[\w-]{43}$/.test(codeChallenge))
        return fail(res, 400, 'invalid_request', 'PKCE S256 code_challenge is required');
      const code = `TG-${randomBytes(12).toString('hex')}`;
      userCounter += 1;
      codes.set(code, {
        clientId: opts.clientId,
        redirectUri,
        codeChallenge,
        userId: nextSeller.userId ?? userCounter,
        liveMode: nextSeller.liveMode ?? false,
      });
      nextSeller = {};
      const target = new URL(redirectUri);
      target.searchParams.set('code', code);
      const state = q.get('state');
      if (state !== null) target.searchParams.set('state', state);
      res.writeHead(302, { location: target.href }).end();
      return;
    }

    // ── OAuth token endpoint ──
    if (req.method === 'POST' && u.pathname === '/oauth/token') {
      const b = asRecord(body);
      if (b.client_id !== opts.clientId || b.client_secret !== opts.clientSecret) return fail(res, 401, 'invalid_client', 'invalid client_id or client_secret');
      if (b.grant_type === 'authorization_code') {
        const grant = typeof b.code === 'string' ? codes.get(b.code) : undefined;
        if (!grant) return fail(res, 400, 'invalid_grant', 'invalid or expired authorization code');
        codes.delete(b.code as string); // one use, whatever the outcome
        if (b.redirect_uri !== grant.redirectUri) return fail(res, 400, 'invalid_grant', 'redirect_uri mismatch');
        const verifier = typeof b.code_verifier === 'string' ? b.code_verifier : '';
        if (!verifier || createHash('sha256').update(verifier).digest('base64url') !== grant.codeChallenge) {
          return fail(res, 400, 'invalid_grant', 'code_verifier does not match the code_challenge');
        }
        return send(res, 200, issueTokens({ userId: grant.userId, liveMode: grant.liveMode }));
      }
      if (b.grant_type === 'refresh_token') {
        const owner = typeof b.refresh_token === 'string' ? refreshTokens.get(b.refresh_token) : undefined;
        if (!owner) return fail(res, 400, 'invalid_grant', 'invalid refresh_token');
        refreshTokens.delete(b.refresh_token as string); // rotated: the old one is spent
        return send(res, 200, issueTokens(owner));
      }
      return fail(res, 400, 'unsupported_grant_type', 'unsupported grant_type');
    }

    const owner = tokenOwner(req.headers.authorization);

    // ── Checkout Pro preferences ──
    if (req.method === 'POST' && u.pathname === '/checkout/preferences') {
      if (!owner) return fail(res, 401, 'unauthorized', 'invalid access token');
      if (hold) await hold;
      const token = (req.headers.authorization ?? '').slice('Bearer '.length);
      const cacheKey = idempotencyKey ? `${token}\n${idempotencyKey}` : null;
      const cached = cacheKey ? byIdempotency.get(cacheKey) : undefined;
      if (cached) return send(res, 201, cached);
      const b = asRecord(body);
      const items = Array.isArray(b.items) ? b.items.map(asRecord) : [];
      if (items.length === 0) return fail(res, 400, 'invalid_items', 'items needed');
      for (const item of items) {
        if (typeof item.unit_price !== 'number' || !(item.unit_price > 0)) return fail(res, 400, 'invalid_unit_price', 'unit_price invalid');
        if (typeof item.quantity !== 'number' || !Number.isInteger(item.quantity) || item.quantity < 1)
          return fail(res, 400, 'invalid_quantity', 'quantity invalid');
        if (item.currency_id !== undefined && item.currency_id !== 'MXN')
          return fail(res, 400, 'invalid_currency_id', 'currency_id invalid for this site (MLM)');
      }
      if (b.marketplace_fee !== undefined) {
        if (owner.userId === platformUserId) return fail(res, 400, 'invalid_marketplace_fee', 'marketplace_fee requires a marketplace (OAuth) access token');
        if (typeof b.marketplace_fee !== 'number' || b.marketplace_fee < 0) return fail(res, 400, 'invalid_marketplace_fee', 'marketplace_fee invalid');
      }
      const id = `${owner.userId}-${randomUUID()}`;
      const answer = {
        ...b,
        id,
        collector_id: owner.userId,
        client_id: opts.clientId,
        operation_type: 'regular_payment',
        date_created: new Date().toISOString(),
        init_point: `${url}/checkout/v1/redirect?pref_id=${id}`,
        sandbox_init_point: `${url}/sandbox/checkout/v1/redirect?pref_id=${id}`,
      };
      if (cacheKey) byIdempotency.set(cacheKey, answer);
      preferences.push({ id, token, idempotencyKey, body: b });
      if (dropAnswers > 0) {
        dropAnswers -= 1;
        req.socket.destroy();
        return;
      }
      return send(res, 201, answer);
    }

    const preferenceMatch = /^\/checkout\/preferences\/([^/]+)$/.exec(u.pathname);
    if (req.method === 'PUT' && preferenceMatch?.[1]) {
      if (!owner) return fail(res, 401, 'unauthorized', 'invalid access token');
      const token = (req.headers.authorization ?? '').slice('Bearer '.length);
      const id = decodeURIComponent(preferenceMatch[1]);
      const found = preferences.find((p) => p.id === id);
      // A preference belongs to the account that created it.
      if (!found || found.token !== token) return send(res, 404, { message: 'preference not found', error: 'not_found', status: 404 });
      found.body = { ...found.body, ...asRecord(body) };
      return send(res, 200, { ...found.body, id });
    }

    // ── Payments ──
    const paymentMatch = /^\/v1\/payments\/([^/]+)$/.exec(u.pathname);
    if (req.method === 'GET' && paymentMatch?.[1]) {
      if (!owner) return fail(res, 401, 'unauthorized', 'invalid access token');
      const payment = payments.get(decodeURIComponent(paymentMatch[1]));
      if (!payment)
        return send(res, 404, { message: 'Payment not found', error: 'not_found', status: 404, cause: [{ code: 2000, description: 'Payment not found' }] });
      const numeric = Number(payment.id);
      return send(res, 200, {
        id: Number.isSafeInteger(numeric) ? numeric : payment.id,
        status: payment.status,
        status_detail: payment.status_detail ?? payment.status,
        external_reference: payment.external_reference ?? null,
        transaction_amount: payment.transaction_amount ?? 0,
        currency_id: 'MXN',
        date_created: payment.date_created,
        date_last_updated: payment.date_last_updated ?? payment.date_created,
        date_approved: payment.status === 'approved' ? (payment.date_last_updated ?? payment.date_created) : null,
        live_mode: owner.liveMode,
        collector_id: owner.userId,
      });
    }

    // ── The checkout page an init_point leads to (for browser tests that follow the link) ──
    if (req.method === 'GET' && /^\/(sandbox\/)?checkout\/v1\/redirect$/.test(u.pathname)) {
      const prefId = u.searchParams.get('pref_id') ?? '';
      const pref = preferences.find((p) => p.id === prefId);
      if (!pref) return fail(res, 404, 'not_found', 'preference not found');
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>Mercado Pago (fake)</title><h1>Pagar</h1><p>${escapeHtml(prefId)}</p>`);
      return;
    }

    return fail(res, 404, 'not_found', `resource ${u.pathname} not found`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) fail(res, 500, 'internal_error', String(err));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    platformToken: opts.platformToken,
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    preferences,
    requests,
    setPayment(payment) {
      const previous = payments.get(String(payment.id));
      payments.set(String(payment.id), { ...payment, date_created: previous?.date_created ?? new Date().toISOString() });
    },
    setDown(value) {
      down = value;
    },
    holdPreferences() {
      let release = () => {};
      hold = new Promise<void>((resolve) => {
        release = () => {
          hold = null;
          resolve();
        };
      });
      return release;
    },
    dropNextPreferenceAnswer() {
      dropAnswers += 1;
    },
    setNextSeller(seller) {
      nextSeller = { ...seller };
    },
    sellerFor: (accessToken) => sellerTokens.get(accessToken),
    signWebhook({ dataId, requestId = randomUUID(), ts = Math.floor(Date.now() / 1000), secret }) {
      const id = /^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId;
      const v1 = createHmac('sha256', secret).update(`id:${id};request-id:${requestId};ts:${ts};`).digest('hex');
      return { 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1_000_000) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function headerText(value: string | string[] | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  return v ?? null;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
