import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { count, eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MpConnectionStatus, PaymentView, WinnersSummary } from '../../../../../src/domain/payments.js';
import {
  auctions,
  auditLog,
  HOLDING_PAYMENT_STATUSES,
  paymentItems,
  payments,
  sandboxPayments,
  userProfiles,
  webhookEvents,
} from '../../../../../src/server/db/schema.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildPayment, buildWonAuction } from '../../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../../support/server.js';

/**
 * Who may call each payments and provider-connection route (SPEC §6, §7), over eight actors. A
 * panel user outside a payment's scope gets "not found" (the same answer as for an id that does
 * not exist), the lists show only what is in scope, marking a payout paid is for platform admins,
 * the sandbox checkout is public, the webhook needs a valid signature, and a state change from
 * another site is refused. A refused call changes nothing.
 */

type ActorName = 'anonymous' | 'buyer' | 'sellerA' | 'colleagueA' | 'sellerB' | 'adminA' | 'adminB' | 'platformAdmin';
const ACTORS: ActorName[] = ['anonymous', 'buyer', 'sellerA', 'colleagueA', 'sellerB', 'adminA', 'adminB', 'platformAdmin'];
type SignedIn = Exclude<ActorName, 'anonymous'>;

const COMPANY_A = 'remates-a';
const COMPANY_B = 'remates-b';
const EVIL = 'https://evil.example';

let server: TestServer;
const actors = {} as Record<SignedIn, Actor>;
/** The buyer who won everything billed here (not an actor of the matrix). */
let winner: Actor;

beforeAll(async () => {
  server = await startTestServer();
  const make = (email: string, name: string, roles: ('admin' | 'seller' | 'buyer')[], companyId?: string) =>
    buildActor(server, { email, name, roles, ...(companyId ? { companyId } : {}) });
  actors.buyer = await make('compra@ejemplo.mx', 'Carla Compradora', ['buyer']);
  actors.sellerA = await make('vende@remates-a.mx', 'Ana Vendedora', ['seller'], COMPANY_A);
  actors.colleagueA = await make('otra@remates-a.mx', 'Olga Colega', ['seller'], COMPANY_A);
  actors.sellerB = await make('vende@remates-b.mx', 'Beto Vendedor', ['seller'], COMPANY_B);
  actors.adminA = await make('jefa@remates-a.mx', 'Julia Jefa', ['admin'], COMPANY_A);
  actors.adminB = await make('jefe@remates-b.mx', 'Jorge Jefe', ['admin'], COMPANY_B);
  actors.platformAdmin = await make('admin@martillo.mx', 'Ada Admin', ['admin']);
  winner = await buildActor(server, { email: 'juana@ejemplo.mx', name: 'Juana Pérez', roles: ['buyer'], completeProfile: true });
  // Seller B has connected its own provider account: its status is its own, and nobody else's.
  await server.ctx.db
    .update(userProfiles)
    .set({ mpAccessToken: server.ctx.payments.box.seal('SANDBOX-token-b'), mpUserId: 'SBX-B', mpLiveMode: false })
    .where(eq(userProfiles.userId, actors.sellerB.id));
}, 60_000);
afterAll(async () => server?.close());

// ── Data, straight in the database ───────────────────────────────────────────

/** An auction the scheduler closed, won by `winner`. By default company A's, sold by seller A. */
async function wonAuction(opts: { companyId?: string; sellerId?: string | null; price?: number } = {}): Promise<{ id: string; name: string }> {
  const row = await buildWonAuction(server.ctx.db, {
    price: opts.price ?? 700,
    winnerId: winner.id,
    companyId: opts.companyId ?? COMPANY_A,
    sellerId: opts.sellerId === undefined ? actors.sellerA.id : opts.sellerId,
  });
  return { id: row.id, name: row.name };
}

/** A payment of one won auction in this status, with shipping (and a sandbox link once finalised). */
async function paymentIn(
  status: 'draft' | 'pending' | 'paid',
  opts: { companyId?: string; sellerId?: string | null; payoutStatus?: 'none' | 'requested' } = {},
): Promise<string> {
  const companyId = opts.companyId ?? COMPANY_A;
  const sellerId = opts.sellerId === undefined ? actors.sellerA.id : opts.sellerId;
  const auction = await wonAuction({ companyId, sellerId, price: 700 });
  const id = randomUUID();
  await buildPayment(server.ctx.db, {
    id,
    winnerId: winner.id,
    winnerName: 'Juana Pérez',
    winnerWhatsapp: '+523312345678',
    sellerId,
    companyId,
    companyName: companyId === COMPANY_A ? 'Remates A' : 'Remates B',
    totalAmount: 700,
    shippingCarrier: 'Estafeta',
    shippingCost: 150,
    paymentStatus: status,
    createdBy: actors.platformAdmin.id,
    ...(status !== 'draft' ? { paymentLink: `${server.url}/pay/${id}`, provider: 'sandbox', linkExpiresAt: new Date(Date.now() + 86_400_000) } : {}),
    ...(status === 'paid' ? { paidAt: new Date(), providerStatus: 'approved' as const, mpPaymentId: `SBX-${id.slice(0, 8)}`, webhookAt: new Date() } : {}),
    ...(opts.payoutStatus === 'requested' ? { payoutStatus: 'requested' as const, payoutRequestedAt: new Date() } : {}),
  });
  await server.ctx.db.insert(paymentItems).values({ paymentId: id, paymentStatus: status, auctionId: auction.id, auctionName: auction.name, amount: 700 });
  return id;
}

// ── Calling the server ───────────────────────────────────────────────────────

interface Request {
  method: 'GET' | 'POST';
  url: string;
  payload?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The payment the call is about: a refused call must leave it as it was. */
  paymentId?: string;
  /** The auctions a draft would take: a refused call must leave them unbilled. */
  auctionIds?: string[];
  /** The same call about something that does not exist: a refusal must not tell the two apart. */
  missing?: Omit<Request, 'missing'>;
}

/** Each actor calls from its own address, so the per-address limits of the public routes stay out of the way. */
const addressOf = (actor: ActorName) => `10.0.0.${ACTORS.indexOf(actor) + 1}`;

function send(actor: ActorName, req: Omit<Request, 'missing'>, origin: string = server.url): Promise<LightMyRequestResponse> {
  const cookie = actor === 'anonymous' ? undefined : actors[actor].cookie;
  return server.app.inject({
    method: req.method,
    url: req.url,
    remoteAddress: addressOf(actor),
    headers: { ...(cookie ? { cookie } : {}), ...(req.method === 'POST' ? { origin } : {}), ...req.headers },
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
  });
}

/** What a call could have changed: the payment it is about, the auctions it would bill, and every table a payment change writes. */
async function snapshot(req: Omit<Request, 'missing'>) {
  const db = server.ctx.db;
  const total = async (table: typeof payments | typeof paymentItems | typeof auditLog | typeof webhookEvents | typeof sandboxPayments) =>
    (await db.select({ n: count() }).from(table))[0]?.n;
  return {
    payment: req.paymentId ? (await db.select().from(payments).where(eq(payments.id, req.paymentId)))[0] : null,
    items: req.paymentId ? await db.select().from(paymentItems).where(eq(paymentItems.paymentId, req.paymentId)) : null,
    holds: req.auctionIds?.length ? await db.select().from(paymentItems).where(inArray(paymentItems.auctionId, req.auctionIds)) : null,
    tables: {
      payments: await total(payments),
      paymentItems: await total(paymentItems),
      auditLog: await total(auditLog),
      webhookEvents: await total(webhookEvents),
      sandboxPayments: await total(sandboxPayments),
    },
  };
}

// ── The requests, one per route (and per state where it matters) ─────────────

const randomPayment = () => randomUUID();
const onPayment = (id: string, path: string, payload?: Record<string, unknown>): Request => ({
  method: 'POST',
  url: `/api/payments/${id}/${path}`,
  paymentId: id,
  ...(payload ? { payload } : {}),
  missing: { method: 'POST', url: `/api/payments/${randomPayment()}/${path}`, ...(payload ? { payload } : {}) },
});

/** A webhook about a real sandbox payment of a pending payment, signed or not as `sign` says. */
async function webhook(sign: 'unsigned' | 'forged'): Promise<Request> {
  const paymentId = await paymentIn('pending');
  const sandbox = server.ctx.payments.sandbox;
  if (!sandbox) throw new Error('the tests run the sandbox provider');
  const { providerPaymentId } = await sandbox.takePayment({ paymentId, status: 'approved', amount: 850 });
  const genuine = sandbox.webhookFor(providerPaymentId);
  const signature = genuine.headers['x-signature'] as string;
  const headers: Record<string, string> =
    sign === 'unsigned'
      ? { 'content-type': 'application/json' }
      : { ...genuine.headers, 'x-signature': signature.replace(/v1=([0-9a-f])/, (_m, c: string) => `v1=${c === '0' ? '1' : '0'}`) };
  return {
    method: 'POST',
    url: `/api/webhooks/sandbox?${new URLSearchParams(genuine.query)}`,
    headers,
    payload: genuine.body as Record<string, unknown>,
    paymentId,
  };
}

const REQUESTS: Record<string, () => Promise<Request>> = {
  'GET /api/winners-summary': async () => ({ method: 'GET', url: '/api/winners-summary' }),
  'GET /api/payments': async () => ({ method: 'GET', url: '/api/payments' }),
  'POST /api/payments/draft': async () => {
    const auction = await wonAuction();
    return {
      method: 'POST',
      url: '/api/payments/draft',
      payload: { winnerId: winner.id, auctionIds: [auction.id] },
      auctionIds: [auction.id],
      missing: { method: 'POST', url: '/api/payments/draft', payload: { winnerId: winner.id, auctionIds: [randomUUID()] } },
    };
  },
  'POST /api/payments/:id/update-shipping': async () => onPayment(await paymentIn('draft'), 'update-shipping', { shippingCarrier: 'DHL', shippingCost: 99 }),
  'POST /api/payments/:id/add-auctions': async () => {
    const id = await paymentIn('draft');
    const more = await wonAuction({ price: 300 });
    return { ...onPayment(id, 'add-auctions', { auctionIds: [more.id] }), auctionIds: [more.id] };
  },
  'POST /api/payments/:id/finalize': async () => onPayment(await paymentIn('draft'), 'finalize'),
  'POST /api/payments/:id/cancel (draft)': async () => onPayment(await paymentIn('draft'), 'cancel'),
  'POST /api/payments/:id/cancel (pending)': async () => onPayment(await paymentIn('pending'), 'cancel'),
  'POST /api/payments/:id/request-payout': async () => onPayment(await paymentIn('paid'), 'request-payout'),
  // The platform marks paid out what the seller asked it to pay, and nothing else.
  'POST /api/payments/:id/mark-paid-out': async () => onPayment(await paymentIn('paid', { payoutStatus: 'requested' }), 'mark-paid-out'),
  'GET /api/mp/status': async () => ({ method: 'GET', url: '/api/mp/status' }),
  'GET /api/mp/connect': async () => ({ method: 'GET', url: '/api/mp/connect' }),
  'GET /api/mp/callback (no state cookie)': async () => ({ method: 'GET', url: '/api/mp/callback?code=abc&state=xyz' }),
  'GET /api/mp/sandbox/authorize': async () => ({
    method: 'GET',
    url: `/api/mp/sandbox/authorize?${new URLSearchParams({ state: 's', code_challenge: 'c', redirect_uri: new URL('/api/mp/callback', server.url).href })}`,
  }),
  'GET /api/mp/sandbox/authorize (foreign redirect)': async () => ({
    method: 'GET',
    url: `/api/mp/sandbox/authorize?${new URLSearchParams({ state: 's', code_challenge: 'c', redirect_uri: `${EVIL}/robar` })}`,
  }),
  'GET /api/pay/:id (pending)': async () => {
    const id = await paymentIn('pending');
    return { method: 'GET', url: `/api/pay/${id}`, paymentId: id };
  },
  'GET /api/pay/:id (draft)': async () => {
    const id = await paymentIn('draft');
    return { method: 'GET', url: `/api/pay/${id}`, paymentId: id, missing: { method: 'GET', url: `/api/pay/${randomPayment()}` } };
  },
  'GET /api/pay/:id (random id)': async () => ({ method: 'GET', url: `/api/pay/${randomPayment()}` }),
  'POST /api/pay/:id (pending)': async () => {
    const id = await paymentIn('pending');
    return { method: 'POST', url: `/api/pay/${id}`, payload: { outcome: 'approve' }, paymentId: id };
  },
  'POST /api/pay/:id (draft)': async () => {
    const id = await paymentIn('draft');
    return {
      method: 'POST',
      url: `/api/pay/${id}`,
      payload: { outcome: 'approve' },
      paymentId: id,
      missing: { method: 'POST', url: `/api/pay/${randomPayment()}`, payload: { outcome: 'approve' } },
    };
  },
  'POST /api/pay/:id (random id)': async () => ({ method: 'POST', url: `/api/pay/${randomPayment()}`, payload: { outcome: 'approve' } }),
  'POST /api/webhooks/:provider (no signature)': () => webhook('unsigned'),
  'POST /api/webhooks/:provider (forged signature)': () => webhook('forged'),
};

/**
 * The matrix: the status each actor gets. colleagueA is another seller of company A (a seller sees
 * only its own auctions' payments); sellerB, adminB are company B's; the payments are company A's,
 * sold by sellerA. A draft of auctions outside one's scope is a 409, like one of auctions that do
 * not exist.
 */
const MATRIX = `
  route                                              | anonymous | buyer | sellerA | colleagueA | sellerB | adminA | adminB | platformAdmin
  GET  /api/winners-summary                          |    401    |  403  |   200   |    200     |   200   |  200   |  200   |     200
  GET  /api/payments                                 |    401    |  403  |   200   |    200     |   200   |  200   |  200   |     200
  POST /api/payments/draft                           |    401    |  403  |   201   |    409     |   409   |  201   |  409   |     201
  POST /api/payments/:id/update-shipping             |    401    |  403  |   200   |    404     |   404   |  200   |  404   |     200
  POST /api/payments/:id/add-auctions                |    401    |  403  |   200   |    404     |   404   |  200   |  404   |     200
  POST /api/payments/:id/finalize                    |    401    |  403  |   200   |    404     |   404   |  200   |  404   |     200
  POST /api/payments/:id/cancel (draft)              |    401    |  403  |   200   |    404     |   404   |  200   |  404   |     200
  POST /api/payments/:id/cancel (pending)            |    401    |  403  |   200   |    404     |   404   |  200   |  404   |     200
  POST /api/payments/:id/request-payout              |    401    |  403  |   200   |    404     |   404   |  200   |  404   |     200
  POST /api/payments/:id/mark-paid-out               |    401    |  403  |   403   |    403     |   403   |  403   |  403   |     200
  GET  /api/mp/status                                |    401    |  403  |   200   |    200     |   200   |  200   |  200   |     200
  GET  /api/mp/connect                               |    401    |  403  |   200   |    200     |   200   |  200   |  200   |     200
  GET  /api/mp/callback (no state cookie)            |    400    |  400  |   400   |    400     |   400   |  400   |  400   |     400
  GET  /api/mp/sandbox/authorize                     |    200    |  200  |   200   |    200     |   200   |  200   |  200   |     200
  GET  /api/mp/sandbox/authorize (foreign redirect)  |    400    |  400  |   400   |    400     |   400   |  400   |  400   |     400
  GET  /api/pay/:id (pending)                        |    200    |  200  |   200   |    200     |   200   |  200   |  200   |     200
  GET  /api/pay/:id (draft)                          |    404    |  404  |   404   |    404     |   404   |  404   |  404   |     404
  GET  /api/pay/:id (random id)                      |    404    |  404  |   404   |    404     |   404   |  404   |  404   |     404
  POST /api/pay/:id (pending)                        |    200    |  200  |   200   |    200     |   200   |  200   |  200   |     200
  POST /api/pay/:id (draft)                          |    404    |  404  |   404   |    404     |   404   |  404   |  404   |     404
  POST /api/pay/:id (random id)                      |    404    |  404  |   404   |    404     |   404   |  404   |  404   |     404
  POST /api/webhooks/:provider (no signature)        |    401    |  401  |   401   |    401     |   401   |  401   |  401   |     401
  POST /api/webhooks/:provider (forged signature)    |    401    |  401  |   401   |    401     |   401   |  401   |  401   |     401
`;

interface Row {
  route: string;
  /** METHOD and path pattern, without the variant in parentheses. */
  endpoint: string;
  expect: Record<ActorName, number>;
}

function parseMatrix(text: string): Row[] {
  const [header, ...lines] = text
    .trim()
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()));
  expect(header?.slice(1)).toEqual(ACTORS);
  return lines.map(([route = '', ...codes]) => {
    const normalised = route.replace(/\s+/g, ' ');
    return {
      route: normalised,
      endpoint: normalised.replace(/ \(.*\)$/, ''),
      expect: Object.fromEntries(ACTORS.map((a, i) => [a, Number(codes[i])])) as Record<ActorName, number>,
    };
  });
}
const ROWS = parseMatrix(MATRIX);

/** The error code each refusal must carry (a 403 of the matrix is a role refusal, not the origin check). */
const CODES: Record<number, string> = { 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 409: 'CONFLICT' };

describe('authorisation matrix of the payments and connection routes', () => {
  it('covers every route the payments and connection features register, and nothing else', () => {
    const registered = new Set<string>();
    for (const file of ['routes.ts', 'connect-routes.ts']) {
      const source = readFileSync(new URL(`../../../../../src/server/features/payments/bills/${file}`, import.meta.url), 'utf8');
      for (const m of source.matchAll(/app\.(get|post|put|patch|delete)\(\s*'([^']+)'/g)) registered.add(`${m[1]?.toUpperCase()} ${m[2]}`);
    }
    expect(registered.size).toBeGreaterThan(10);
    expect(new Set(ROWS.map((r) => r.endpoint))).toEqual(registered);
    expect(Object.keys(REQUESTS).sort()).toEqual(ROWS.map((r) => r.route).sort());
  });

  it('checks who is calling before the input: a malformed id or body still answers 401 or 403', async () => {
    const panelRoutes = ROWS.filter((r) => r.expect.anonymous === 401 && r.expect.buyer === 403 && !r.endpoint.startsWith('POST /api/webhooks/'));
    expect(panelRoutes.length).toBeGreaterThan(8);
    for (const row of panelRoutes) {
      const [method, pattern = ''] = row.endpoint.split(' ') as ['GET' | 'POST', string];
      const url = `${pattern.replace(':id', 'no-es-un-uuid')}${method === 'GET' ? '?status=nada' : ''}`;
      for (const actor of ['anonymous', 'buyer'] as const) {
        const res = await send(actor, { method, url, ...(method === 'POST' ? { payload: { auctionIds: 'x', shippingCost: -1 } } : {}) });
        expect(res.statusCode, `${row.route} as ${actor}: ${res.body}`).toBe(actor === 'anonymous' ? 401 : 403);
        expect(res.json().error.fields, row.route).toBeUndefined();
      }
    }
  });

  for (const row of ROWS) {
    it(row.route, async () => {
      const build = REQUESTS[row.route];
      if (!build) throw new Error(`no request for ${row.route}`);
      const got = {} as Record<ActorName, number>;
      for (const actor of ACTORS) {
        const req = await build();
        const before = await snapshot(req);
        const res = await send(actor, req);
        got[actor] = res.statusCode;
        const after = await snapshot(req);
        const where = `${row.route} as ${actor}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        // A successful POST changes the payment (or bills the auctions); a refusal, or any GET, changes nothing at all.
        const changes = req.method === 'POST' && res.statusCode < 300;
        if (changes) expect(after, where).not.toEqual(before);
        else expect(after, where).toEqual(before);
        if (CODES[res.statusCode] && res.headers['content-type']?.toString().startsWith('application/json')) {
          expect(res.json().error?.code, where).toBe(CODES[res.statusCode]);
        }
        // "Not found" (or "not billable") for something out of scope reads exactly like it for something that does not exist.
        if (req.missing && (res.statusCode === 404 || res.statusCode === 409)) {
          const missing = await send(actor, req.missing);
          expect({ status: missing.statusCode, body: missing.json() }, where).toEqual({ status: res.statusCode, body: res.json() });
        }
        if (res.statusCode >= 400) expect(res.body, where).not.toContain(COMPANY_A);
      }
      expect(got).toEqual(row.expect);
    });
  }
});

describe('state changes from another site', () => {
  const writes = ROWS.filter((r) => r.endpoint.startsWith('POST '));

  for (const row of writes) {
    it(`${row.route} is refused with a foreign Origin or a cross-site fetch`, async () => {
      const build = REQUESTS[row.route];
      if (!build) throw new Error(`no request for ${row.route}`);
      // Webhooks come from other sites by design: their signature protects them, so they still answer 401.
      const refusal = row.endpoint.startsWith('POST /api/webhooks/') ? { status: 401, code: 'UNAUTHENTICATED' } : { status: 403, code: 'BAD_ORIGIN' };
      for (const actor of ACTORS) {
        for (const how of ['origin', 'sec-fetch-site'] as const) {
          const req = await build();
          const before = await snapshot(req);
          const res =
            how === 'origin' ? await send(actor, req, EVIL) : await send(actor, { ...req, headers: { ...req.headers, 'sec-fetch-site': 'cross-site' } });
          const where = `${row.route} as ${actor} (${how}): ${res.statusCode} ${res.body.slice(0, 200)}`;
          expect({ status: res.statusCode, code: res.json().error?.code }, where).toEqual(refusal);
          expect(await snapshot(req), where).toEqual(before);
        }
      }
    });
  }

  it('the refused webhooks were otherwise deliverable: the genuine one is applied', async () => {
    const paymentId = await paymentIn('pending');
    const sandbox = server.ctx.payments.sandbox;
    if (!sandbox) throw new Error('the tests run the sandbox provider');
    const { providerPaymentId } = await sandbox.takePayment({ paymentId, status: 'approved', amount: 850 });
    const genuine = sandbox.webhookFor(providerPaymentId);
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/webhooks/sandbox?${new URLSearchParams(genuine.query)}`,
      headers: { ...genuine.headers, origin: EVIL },
      payload: genuine.body as Record<string, unknown>,
    });
    expect(res.json()).toEqual({ status: 'applied' });
    expect((await server.ctx.db.select().from(payments).where(eq(payments.id, paymentId)))[0]?.paymentStatus).toBe('paid');
  });
});

// ── What the lists show ──────────────────────────────────────────────────────

/** The reference of SPEC §6's scopes, written here: which (companyId, sellerId) each panel actor sees. */
const SEES: Record<Exclude<SignedIn, 'buyer'>, (x: { companyId: string; sellerId: string | null }) => boolean> = {
  sellerA: (x) => x.sellerId === actors.sellerA.id,
  colleagueA: (x) => x.sellerId === actors.colleagueA.id,
  sellerB: (x) => x.sellerId === actors.sellerB.id,
  adminA: (x) => x.companyId === COMPANY_A || x.sellerId === actors.adminA.id,
  adminB: (x) => x.companyId === COMPANY_B || x.sellerId === actors.adminB.id,
  platformAdmin: () => true,
};
const PANEL = Object.keys(SEES) as (keyof typeof SEES)[];

describe('the lists show only what is in scope', () => {
  beforeAll(async () => {
    // Some of everyone's: company A by seller A, by its colleague and by no single seller; company B's.
    for (const status of ['draft', 'pending', 'paid'] as const) {
      await paymentIn(status);
      await paymentIn(status, { sellerId: actors.colleagueA.id });
      await paymentIn(status, { sellerId: null });
      await paymentIn(status, { companyId: COMPANY_B, sellerId: actors.sellerB.id });
    }
    await wonAuction();
    await wonAuction({ sellerId: actors.colleagueA.id });
    await wonAuction({ sellerId: null });
    await wonAuction({ companyId: COMPANY_B, sellerId: actors.sellerB.id });
  });

  const get = async <T>(actor: SignedIn, url: string): Promise<T> => {
    const res = await send(actor, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };

  it.each(PANEL)('GET /api/payments as %s lists exactly the payments in its scope', async (actor) => {
    const all = await server.ctx.db.select({ id: payments.id, companyId: payments.companyId, sellerId: payments.sellerId }).from(payments);
    const expected = all.filter(SEES[actor]).map((p) => p.id);
    expect(expected.length).toBeGreaterThan(0);
    const listed = await get<PaymentView[]>(actor, '/api/payments');
    expect(listed.map((p) => p.id).sort()).toEqual(expected.sort());
    // Searching or filtering never widens it.
    const foreign = all.filter((p) => !SEES[actor](p));
    for (const p of foreign.slice(0, 3)) expect(await get<PaymentView[]>(actor, `/api/payments?q=${p.id}`)).toEqual([]);
    const paid = await get<PaymentView[]>(actor, '/api/payments?status=paid');
    expect(paid.every((p) => SEES[actor](p) && p.paymentStatus === 'paid')).toBe(true);
  });

  it.each(PANEL)('GET /api/winners-summary as %s shows exactly the unbilled won auctions in its scope', async (actor) => {
    const ended = await server.ctx.db
      .select({ id: auctions.id, companyId: auctions.companyId, sellerId: auctions.sellerId, winnerId: auctions.currentWinnerId, status: auctions.status })
      .from(auctions);
    const held = new Set(
      (
        await server.ctx.db
          .select({ auctionId: paymentItems.auctionId })
          .from(paymentItems)
          .where(inArray(paymentItems.paymentStatus, [...HOLDING_PAYMENT_STATUSES]))
      ).map((i) => i.auctionId),
    );
    const expected = ended.filter((a) => a.status === 'ended' && a.winnerId !== null && !held.has(a.id) && SEES[actor](a)).map((a) => a.id);
    expect(expected.length).toBeGreaterThan(0);
    const summary = await get<WinnersSummary>(actor, '/api/winners-summary');
    const shown = Object.values(summary).flatMap((w) => w.wonItems.map((i) => i.auctionId));
    expect(shown.sort()).toEqual(expected.sort());
  });

  it("never shows company A's payments or winners to company B's people", async () => {
    for (const actor of ['sellerB', 'adminB'] as const) {
      const listed = await get<PaymentView[]>(actor, '/api/payments');
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.filter((p) => p.companyId === COMPANY_A)).toEqual([]);
      const summary = await get<WinnersSummary>(actor, '/api/winners-summary');
      expect(Object.values(summary).filter((w) => w.companyId === COMPANY_A)).toEqual([]);
    }
  });

  it('GET /api/mp/status answers about the caller only', async () => {
    for (const actor of PANEL) {
      const status = await get<MpConnectionStatus>(actor, '/api/mp/status');
      expect(status, actor).toEqual(
        actor === 'sellerB'
          ? { connected: true, liveMode: false, userId: 'SBX-B', provider: 'sandbox' }
          : { connected: false, liveMode: null, userId: null, provider: 'sandbox' },
      );
    }
  });
});
