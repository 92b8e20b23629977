/**
 * Billing a whole show: a show of BUYERS buyers (200) and LOTS won lots (600, about 3 a buyer),
 * billed with 'Cobrar el show' (POST /api/live-sessions/{id}/bill) and 'Generar enlaces'
 * (POST /api/live-sessions/{id}/bill/links) against the fake Mercado Pago answering in
 * MP_LATENCY_MS (150). Per engine, two shows on the same database:
 * - `plain`: bill, make every link, click 'Generar enlaces' once more;
 * - `killed`: bill, start 'Generar enlaces', SIGKILL the server when about half the checkouts
 *   exist at the fake, start a new server on the same database, click again (and once more).
 * Reports the time to all links, the provider calls made (requests, checkouts created, per bill)
 * and consistency: every won lot in exactly one bill, every bill's total the sum of its items plus
 * the shipping the show's rules give (src/domain/show-billing.ts shippingFor), exactly one checkout
 * per bill, its link that checkout's, the checkout's amount the bill's, and a repeat click asking
 * the provider for nothing.
 *
 * The server runs in a forked child process (this file, role `server`) so it can be killed for
 * real; the fake Mercado Pago runs here and counts what reaches it. PGlite is on disk in a temp
 * dir: the parent lets go of it while a server child holds it, and the next child takes over the
 * pid file a killed one left (src/server/db/connect.ts).
 *
 *   npm run bench:show-billing
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:show-billing
 *
 * Knobs: BUYERS (200), LOTS (600), MP_LATENCY_MS (150), ENGINES (pglite,postgresql), DATABASE_URL.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { inArray, sql } from 'drizzle-orm';
import type { ShippingRules } from '../src/domain/after-show.js';
import type { ShowBillAnswer, ShowLinksAnswer } from '../src/domain/show-billing.js';
import { shippingFor } from '../src/domain/show-billing.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { connectDatabase, type Database, type DatabaseTarget, rows } from '../src/server/db/connect.js';
import { migrateDatabase } from '../src/server/db/migrate.js';
import { auctions, authSessions, companies, liveLotRuns, liveLots, liveSessions, userProfiles, users } from '../src/server/db/schema.js';
import { LINK_CONCURRENCY } from '../src/server/features/payments/show-billing/service.js';
import { hashToken } from '../src/server/sessions/store.js';
import { type FakeMercadoPago, startFakeMercadoPago } from '../test/support/fake-mercadopago.js';
import { expectOk, requester } from './live-show/http.js';
import { exited, forkRole, onceMessage, round, runOnEngines, seedBuyers, sendToParent, sleep } from './support.js';

const ROLE_ENV = 'SHOW_BILLING_ROLE';
const SESSION_SECRET = 'bench-show-billing-session-secret-0123456789';
const WEBHOOK_SECRET = 'bench-show-billing-webhook-secret';
const PLATFORM_TOKEN = 'APP_USR-bench-platform-token';
/** Flat fee, an amount per extra item, free from $2,000: every branch of shippingFor is taken. */
const RULES: ShippingRules = { mode: 'flat', flatFee: 150, perExtraItem: 50, freeOver: 2000, pickupAddress: null };

interface ServerStart {
  type: 'start';
  target: DatabaseTarget;
  dataDir: string;
  mpUrl: string;
}

// ── The server child ─────────────────────────────────────────────────────────

/** The real app on the bench's database, paying through the fake Mercado Pago; stops on 'stop' (or dies by SIGKILL). */
async function serverRole(): Promise<void> {
  const start = await onceMessage<ServerStart>(process, 'start');
  const database = await connectDatabase(start.target);
  const config = loadConfig(
    {
      NODE_ENV: 'development',
      LOG_LEVEL: 'silent',
      DATA_DIR: start.dataDir,
      PORT: '0',
      SESSION_SECRET,
      PAYMENTS_PROVIDER: 'mercadopago',
      MP_ACCESS_TOKEN: PLATFORM_TOKEN,
      MP_WEBHOOK_SECRET: WEBHOOK_SECRET,
      MP_API_URL: start.mpUrl,
      MP_AUTH_URL: start.mpUrl,
    },
    { persistSecret: false },
  );
  // No schedulers: nothing but the bench's requests touches the bills.
  const { app } = await buildApp({ config, database, logger: false, jobs: [] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.once('message', async (m: { type?: string }) => {
    if (m?.type !== 'stop') return;
    await app.close();
    await database.close();
    process.exit(0);
  });
  await sendToParent({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
}

interface ServerChild {
  child: ChildProcess;
  base: string;
}

async function startServer(start: Omit<ServerStart, 'type'>): Promise<ServerChild> {
  const child = forkRole(fileURLToPath(import.meta.url), ROLE_ENV, 'server');
  const ready = onceMessage<{ port: number }>(child, 'ready');
  child.send({ type: 'start', ...start } satisfies ServerStart);
  const { port } = await ready;
  return { child, base: `http://127.0.0.1:${port}` };
}

async function stopServer(server: ServerChild): Promise<void> {
  server.child.send({ type: 'stop' });
  await exited(server.child);
}

// ── Seeding ──────────────────────────────────────────────────────────────────

interface SeededShow {
  sessionId: string;
  sellerCookie: string;
  companyId: string;
}

/** A company, its seller (signed in) and an ended show whose `lots` lots were won by the buyers in turn. */
async function seedShow(database: Database, opts: { key: string; lots: number; buyerIds: string[] }): Promise<SeededShow> {
  const db = database.db;
  const companyId = `remates-${opts.key}`;
  await db.insert(companies).values({ id: companyId, name: `Remates ${opts.key}` });
  const email = `vende-${opts.key}@bench.mx`;
  const [seller] = await db.insert(users).values({ email }).returning({ id: users.id });
  const sellerId = (seller as { id: string }).id;
  await db.insert(userProfiles).values({
    userId: sellerId,
    email,
    firstName: 'Vendedora',
    lastName: opts.key,
    roles: ['seller'],
    companyId,
    companyName: `Remates ${opts.key}`,
    whatsapp: '+523312345678',
    whatsappCountryCode: '+52',
    whatsappLocal: '3312345678',
  });
  const sellerCookie = `bench-show-billing-${opts.key}-seller-cookie-0123456789`;
  await db.insert(authSessions).values({ tokenHash: hashToken(sellerCookie, SESSION_SECRET), userId: sellerId, expiresAt: new Date(Date.now() + 86_400_000) });
  const [session] = await db
    .insert(liveSessions)
    .values({ title: `Show ${opts.key}`, scheduledAt: new Date(Date.now() - 3_600_000), status: 'ended', companyId, sellerId })
    .returning({ id: liveSessions.id });
  const sessionId = (session as { id: string }).id;
  const profiles = await db
    .select({ userId: userProfiles.userId, firstName: userProfiles.firstName, lastName: userProfiles.lastName, whatsapp: userProfiles.whatsapp })
    .from(userProfiles)
    .where(inArray(userProfiles.userId, opts.buyerIds));
  const profileOf = new Map(profiles.map((p) => [p.userId, { name: `${p.firstName} ${p.lastName}`, whatsapp: p.whatsapp }]));
  const endTime = new Date(Date.now() - 1_800_000);
  for (let startAt = 0; startAt < opts.lots; startAt += 500) {
    const batch = Array.from({ length: Math.min(500, opts.lots - startAt) }, (_, k) => startAt + k);
    const inserted = await db
      .insert(auctions)
      .values(
        batch.map((i) => {
          const winnerId = opts.buyerIds[i % opts.buyerIds.length] as string;
          const profile = profileOf.get(winnerId);
          return {
            name: `Lote ${i + 1} del show ${opts.key}`,
            description: 'Lote del bench de cobro del show.',
            startingPrice: 100,
            // Prices from $100 to $1,080 that differ per lot, so some buyers reach free shipping.
            currentPrice: 100 + 20 * ((i * 37) % 50),
            bidCount: 1,
            status: 'ended' as const,
            endTime,
            closedAt: endTime,
            currentWinnerId: winnerId,
            currentWinnerName: profile?.name ?? 'Comprador',
            winnerWhatsapp: profile?.whatsapp ?? null,
            sellerId,
            companyId,
          };
        }),
      )
      .returning({ id: auctions.id });
    const lots = await db
      .insert(liveLots)
      .values(inserted.map((a, k) => ({ sessionId, auctionId: a.id, order: (batch[k] as number) + 1, status: 'finished' as const })))
      .returning({ id: liveLots.id, auctionId: liveLots.auctionId });
    // Each lot was on the block (a run), as a show leaves it: only such a lot sells in the show.
    await db
      .insert(liveLotRuns)
      .values(lots.map((l) => ({ sessionId, lotId: l.id, auctionId: l.auctionId, openedAt: new Date(endTime.getTime() - 30_000), closedAt: endTime })));
  }
  return { sessionId, sellerCookie, companyId };
}

// ── What reached the fake Mercado Pago ───────────────────────────────────────

/** The preference requests and the checkouts created for these bills (keyed by payment id: idempotency key and external_reference). */
function providerCalls(fake: FakeMercadoPago, billIds: ReadonlySet<string>) {
  const requests = fake.requests.filter((r) => r.method === 'POST' && r.path === '/checkout/preferences' && billIds.has(r.idempotencyKey ?? ''));
  const created = fake.preferences.filter((p) => billIds.has(String(p.body.external_reference)));
  return { requests: requests.length, created: created.length, requestKeys: requests.map((r) => r.idempotencyKey as string), checkouts: created };
}

function checkoutStats(fake: FakeMercadoPago, billIds: ReadonlySet<string>) {
  const calls = providerCalls(fake, billIds);
  const perBill = new Map<string, number>();
  for (const p of calls.checkouts) perBill.set(String(p.body.external_reference), (perBill.get(String(p.body.external_reference)) ?? 0) + 1);
  const requestsPerBill = new Map<string, number>();
  for (const key of calls.requestKeys) requestsPerBill.set(key, (requestsPerBill.get(key) ?? 0) + 1);
  const counts = [...billIds].map((id) => perBill.get(id) ?? 0);
  return {
    /** POST /checkout/preferences requests that reached Mercado Pago for these bills. */
    preferenceRequests: calls.requests,
    /** Checkouts Mercado Pago made (a request repeated with the same idempotency key gets the first one back). */
    checkoutsCreated: calls.created,
    bills: billIds.size,
    checkoutsPerBill: { min: Math.min(...counts), max: Math.max(...counts) },
    /**
     * Bills asked for more than once, with the same idempotency key: the checkout existed (or was
     * being made) but the server died before recording its link, so the retry asked again and got
     * the same checkout back. Not a second checkout: checkoutsPerBill says that.
     */
    billsRequestedTwice: [...requestsPerBill.values()].filter((n) => n > 1).length,
  };
}

// ── One show billed ──────────────────────────────────────────────────────────

interface RunContext {
  fake: FakeMercadoPago;
  target: DatabaseTarget;
  dataDir: string;
  latencyMs: number;
}

const post = async <T>(base: string, cookie: string, pathname: string, what: string, body?: unknown): Promise<T> => {
  const client = requester(base, 1);
  try {
    return JSON.parse(await expectOk(client.request(body === undefined ? 'POST' : 'PUT', pathname, cookie, body), what)) as T;
  } finally {
    client.close();
  }
};

/** The show's rules through the API, then 'Cobrar el show': its bills and how long the click took. */
async function billTheShow(base: string, show: SeededShow) {
  await post(base, show.sellerCookie, `/api/live-sessions/${show.sessionId}/shipping`, 'shipping', RULES);
  const started = performance.now();
  const billed = await post<ShowBillAnswer>(base, show.sellerCookie, `/api/live-sessions/${show.sessionId}/bill`, 'Cobrar el show');
  return { billed, billMs: round(performance.now() - started, 1), started };
}

const linksClick = (base: string, show: SeededShow) =>
  post<ShowLinksAnswer>(base, show.sellerCookie, `/api/live-sessions/${show.sessionId}/bill/links`, 'Generar enlaces');

/** A further 'Generar enlaces' after every link exists: what it answered and how many requests reached the provider. */
async function repeatClick(ctx: RunContext, base: string, show: SeededShow, billIds: ReadonlySet<string>) {
  const before = providerCalls(ctx.fake, billIds).requests;
  const again = await linksClick(base, show);
  return { results: again.results.length, preferenceRequests: providerCalls(ctx.fake, billIds).requests - before };
}

async function plainRun(ctx: RunContext, show: SeededShow) {
  const startStarted = performance.now();
  const server = await startServer({ target: ctx.target, dataDir: ctx.dataDir, mpUrl: ctx.fake.url });
  const serverStartMs = round(performance.now() - startStarted, 1);
  try {
    const { billed, billMs, started } = await billTheShow(server.base, show);
    const billIds = new Set(billed.payments.map((p) => p.id));
    const linksStarted = performance.now();
    const links = await linksClick(server.base, show);
    const linksMs = round(performance.now() - linksStarted, 1);
    const timeToAllLinksMs = round(performance.now() - started, 1);
    const repeat = await repeatClick(ctx, server.base, show, billIds);
    return {
      bills: billed.payments.length,
      billsCreated: billed.created,
      /** Fork to listening, for comparison with the killed run's restartMs. */
      serverStartMs,
      billMs,
      linksMs,
      timeToAllLinksMs,
      linkResults: { ok: links.results.filter((r) => r.ok).length, failed: links.results.filter((r) => !r.ok).length },
      provider: checkoutStats(ctx.fake, billIds),
      repeat,
      billIds,
    };
  } finally {
    await stopServer(server);
  }
}

async function killedRun(ctx: RunContext, show: SeededShow) {
  let server = await startServer({ target: ctx.target, dataDir: ctx.dataDir, mpUrl: ctx.fake.url });
  try {
    const { billed, billMs, started } = await billTheShow(server.base, show);
    const billIds = new Set(billed.payments.map((p) => p.id));
    const half = Math.ceil(billIds.size / 2);
    const linksStarted = performance.now();
    // The click's connection dies with the server: its answer is never read.
    let answeredBeforeKill = false;
    const firstClick = linksClick(server.base, show).then(
      () => {
        answeredBeforeKill = true;
      },
      () => {},
    );
    // Watch the fake: kill -9 once about half the checkouts exist there.
    while (providerCalls(ctx.fake, billIds).created < half && !answeredBeforeKill) await sleep(2);
    const atKill = providerCalls(ctx.fake, billIds);
    server.child.kill('SIGKILL');
    const killedAtMs = round(performance.now() - linksStarted, 1);
    await exited(server.child);
    await firstClick;
    // Requests the dead server had sent are still being answered (to no one): let them land.
    await sleep(ctx.latencyMs + 100);
    const afterKill = providerCalls(ctx.fake, billIds);

    const restartStarted = performance.now();
    server = await startServer({ target: ctx.target, dataDir: ctx.dataDir, mpUrl: ctx.fake.url });
    const restartMs = round(performance.now() - restartStarted, 1);
    const retryStarted = performance.now();
    const retry = await linksClick(server.base, show);
    const retryMs = round(performance.now() - retryStarted, 1);
    const timeToAllLinksMs = round(performance.now() - started, 1);
    const repeat = await repeatClick(ctx, server.base, show, billIds);
    return {
      bills: billed.payments.length,
      billsCreated: billed.created,
      billMs,
      kill: {
        /** From the first 'Generar enlaces' to the SIGKILL. */
        atMs: killedAtMs,
        answeredBeforeKill,
        checkoutsCreatedAtKill: atKill.created,
        /** Requests that had reached Mercado Pago without their checkout made yet (in flight at the kill). */
        requestsInFlightAtKill: atKill.requests - atKill.created,
        checkoutsCreatedAfterKill: afterKill.created,
      },
      restartMs,
      retryMs,
      /** From 'Cobrar el show' to the retry's answer: the kill, the wait and the restart included. */
      timeToAllLinksMs,
      retryResults: { ok: retry.results.filter((r) => r.ok).length, failed: retry.results.filter((r) => !r.ok).length },
      provider: checkoutStats(ctx.fake, billIds),
      repeat,
      billIds,
    };
  } finally {
    if (server.child.exitCode === null && server.child.signalCode === null) await stopServer(server);
  }
}

// ── Consistency ──────────────────────────────────────────────────────────────

async function consistencyOf(
  database: Database,
  fake: FakeMercadoPago,
  show: SeededShow,
  run: { billIds: ReadonlySet<string>; repeat: { results: number; preferenceRequests: number } },
) {
  const db = database.db;
  const won = rows<{ id: string; price: number; winner: string }>(
    await db.execute(sql`
      select a.id, a.current_price as price, a.current_winner_id as winner from live_lots l join auctions a on a.id = l.auction_id
      where l.session_id = ${show.sessionId}::uuid and a.current_winner_id is not null`),
  );
  const bills = rows<{
    id: string;
    winner_id: string;
    status: string;
    total_amount: number;
    shipping_cost: number;
    grand_total: number;
    payment_link: string | null;
    mp_preference_id: string | null;
  }>(
    await db.execute(sql`
      select id, winner_id, payment_status as status, total_amount, shipping_cost, grand_total, payment_link, mp_preference_id
      from payments where session_id = ${show.sessionId}::uuid`),
  );
  const items = rows<{ payment_id: string; auction_id: string; amount: number }>(
    await db.execute(sql`
      select i.payment_id, i.auction_id, i.amount from payment_items i join payments p on p.id = i.payment_id
      where p.session_id = ${show.sessionId}::uuid`),
  );
  const priceOf = new Map(won.map((w) => [w.id, Number(w.price)]));
  const billsOfLot = new Map<string, number>();
  const itemsOfBill = new Map<string, { amount: number }[]>();
  for (const i of items) {
    billsOfLot.set(i.auction_id, (billsOfLot.get(i.auction_id) ?? 0) + 1);
    itemsOfBill.set(i.payment_id, [...(itemsOfBill.get(i.payment_id) ?? []), { amount: Number(i.amount) }]);
  }
  const checkouts = new Map<string, (typeof fake.preferences)[number][]>();
  for (const p of fake.preferences) {
    const key = String(p.body.external_reference);
    if (run.billIds.has(key)) checkouts.set(key, [...(checkouts.get(key) ?? []), p]);
  }
  let wrongTotal = 0;
  let withoutLink = 0;
  let checkoutsNotOne = 0;
  let linkNotItsCheckout = 0;
  let checkoutAmountWrong = 0;
  for (const b of bills) {
    const its = itemsOfBill.get(b.id) ?? [];
    const sum = its.reduce((s, i) => s + i.amount, 0);
    const shipping = shippingFor(RULES, its).shippingCost;
    if (Number(b.total_amount) !== sum || Number(b.shipping_cost) !== shipping || Number(b.grand_total) !== sum + shipping) wrongTotal += 1;
    if (b.status !== 'pending' || !b.payment_link || !b.mp_preference_id) withoutLink += 1;
    const made = checkouts.get(b.id) ?? [];
    if (made.length !== 1) checkoutsNotOne += 1;
    const checkout = made[0];
    if (!checkout || checkout.id !== b.mp_preference_id || !b.payment_link?.includes(checkout.id)) linkNotItsCheckout += 1;
    if (checkout) {
      const body = checkout.body as { items?: { unit_price: number; quantity: number }[]; shipments?: { cost?: number } };
      const amount = (body.items ?? []).reduce((s, i) => s + i.unit_price * i.quantity, 0) + (body.shipments?.cost ?? 0);
      if (amount !== Number(b.grand_total)) checkoutAmountWrong += 1;
    }
  }
  const buyers = new Set(won.map((w) => w.winner));
  const c = {
    wonLots: won.length,
    bills: bills.length,
    buyers: buyers.size,
    /** One bill per buyer for the whole show. */
    buyersWithSeveralBills: bills.length - new Set(bills.map((b) => b.winner_id)).size,
    lotsInNoBill: won.filter((w) => !billsOfLot.has(w.id)).length,
    lotsInSeveralBills: [...billsOfLot.values()].filter((n) => n > 1).length,
    itemsNotWonInTheShow: items.filter((i) => !priceOf.has(i.auction_id)).length,
    itemsAtAnotherPrice: items.filter((i) => priceOf.has(i.auction_id) && priceOf.get(i.auction_id) !== Number(i.amount)).length,
    billsWithWrongTotal: wrongTotal,
    billsWithoutLink: withoutLink,
    billsWithoutExactlyOneCheckout: checkoutsNotOne,
    linksNotFromTheirCheckout: linkNotItsCheckout,
    checkoutsWithAnotherAmount: checkoutAmountWrong,
    billsAnsweredNotInDatabase: [...run.billIds].filter((id) => !bills.some((b) => b.id === id)).length,
    repeatClickResults: run.repeat.results,
    repeatClickProviderRequests: run.repeat.preferenceRequests,
  };
  const ok =
    c.wonLots > 0 &&
    c.bills === c.buyers &&
    c.bills === run.billIds.size &&
    c.buyersWithSeveralBills === 0 &&
    c.lotsInNoBill === 0 &&
    c.lotsInSeveralBills === 0 &&
    c.itemsNotWonInTheShow === 0 &&
    c.itemsAtAnotherPrice === 0 &&
    c.billsWithWrongTotal === 0 &&
    c.billsWithoutLink === 0 &&
    c.billsWithoutExactlyOneCheckout === 0 &&
    c.linksNotFromTheirCheckout === 0 &&
    c.checkoutsWithAnotherAmount === 0 &&
    c.billsAnsweredNotInDatabase === 0 &&
    c.repeatClickResults === 0 &&
    c.repeatClickProviderRequests === 0;
  return { ok, ...c };
}

// ── One engine ───────────────────────────────────────────────────────────────

async function runEngine(engine: 'pglite' | 'postgresql', databaseUrl: string | undefined) {
  const buyers = Number(process.env.BUYERS ?? 200);
  const lots = Number(process.env.LOTS ?? 600);
  const latencyMs = Number(process.env.MP_LATENCY_MS ?? 150);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'martillo-bench-billing-'));
  const target: DatabaseTarget = databaseUrl ? { kind: 'postgresql', url: databaseUrl } : { kind: 'embedded', dir: path.join(dataDir, 'db') };
  const fake = await startFakeMercadoPago({ platformToken: PLATFORM_TOKEN, clientId: '123456', clientSecret: 'bench-client-secret', latencyMs });
  try {
    let database = await connectDatabase(target);
    const seedStarted = performance.now();
    await migrateDatabase(database);
    const { userIds } = await seedBuyers(database, SESSION_SECRET, buyers);
    const plainShow = await seedShow(database, { key: 'plain', lots, buyerIds: userIds });
    const killedShow = await seedShow(database, { key: 'killed', lots, buyerIds: userIds });
    await database.db.execute(sql`analyze`);
    const seedS = round((performance.now() - seedStarted) / 1000, 1);
    // PGlite on disk belongs to one process: the server children take it in turn.
    await database.close();

    const ctx: RunContext = { fake, target, dataDir, latencyMs };
    const plain = await plainRun(ctx, plainShow);
    const killed = await killedRun(ctx, killedShow);

    database = await connectDatabase(target);
    try {
      const plainConsistency = await consistencyOf(database, fake, plainShow, plain);
      const killedConsistency = await consistencyOf(database, fake, killedShow, killed);
      const { billIds: _p, ...plainOut } = plain;
      const { billIds: _k, ...killedOut } = killed;
      return {
        engine,
        buyers,
        lots,
        mpLatencyMs: latencyMs,
        linkConcurrency: LINK_CONCURRENCY,
        killMethod: 'SIGKILL of the server child process, then a new child on the same database',
        seedS,
        plain: { ...plainOut, consistency: plainConsistency },
        killed: { ...killedOut, consistency: killedConsistency },
        consistency: { ok: plainConsistency.ok && killedConsistency.ok, plain: plainConsistency.ok, killed: killedConsistency.ok },
      };
    } finally {
      await database.close();
    }
  } finally {
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.env[ROLE_ENV] === 'server') {
  await serverRole();
} else if (import.meta.url === `file://${process.argv[1]}`) {
  await runOnEngines('show-billing', runEngine);
}
