/**
 * A live show: one live session with V Socket.IO viewers in its room and L lots run back
 * to back on short timers (TIMER seconds, 5 by default), with B bidders bidding on each lot until
 * its end. The seller's side goes through the real API: 'Establecer actual', then the timer; the
 * server's closing scheduler closes each lot. Reports, per engine:
 * - closeLatenessMs: how late each lot closed after its end time (closed_at − end_time, both on
 *   the database's clock; p50, p99, max);
 * - soldDeliveryMs: from the close (closed_at, written just before its commit) to the lot's
 *   `lotFinished` event at every viewer (per lot, the latest viewer; p50, p99, max);
 * - consistency: every lot closed exactly once (one close in the audit log, one `lotFinished` per
 *   viewer, lot status finished), its winner is the highest bidder, and no bid was stored after its
 *   auction's end.
 * Targets: lateness p99 under 250 ms, delivery p99 under 100 ms.
 *
 * The server runs in this process; the viewers and the show (seller + bidders) run in two forked
 * child processes of this same file, so the load does not share the server's event loop.
 *
 *   npm run bench:live-show
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:live-show
 *
 * Knobs: VIEWERS (1000), LOTS (50), TIMER seconds (5), BIDDERS concurrent bid loops (10), BID_GAP_MS
 * each loop's pause between bids (100), USERS bidder accounts (200), ANTI_SNIPE seconds of the session (0: sudden death, so a 5 s lot ends
 * after 5 s however hard it is bid), ENGINES (pglite,postgresql), DATABASE_URL.
 */

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { io } from 'socket.io-client';
import WebSocket from 'ws';
import { BID_ERROR_CODES } from '../src/domain/bid-rules.js';
import type { BidAnswer } from '../src/domain/bidding.js';
import type { LiveSessionDetail } from '../src/domain/live.js';
import { LOT_FINISHED_EVENT, type LotFinishedEvent } from '../src/domain/realtime.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { connectDatabase, type Database, rows } from '../src/server/db/connect.js';
import { migrateDatabase } from '../src/server/db/migrate.js';
import { auctions, authSessions, userProfiles, users } from '../src/server/db/schema.js';
import { hashToken, SESSION_COOKIE } from '../src/server/sessions/store.js';
import { cpuBusy, exited, forkRole, onceMessage, percentile, round, runOnEngines, seedBuyers, sendToParent, sleep } from './support.js';

const VIEWERS = Number(process.env.VIEWERS ?? 1000);
const LOTS = Number(process.env.LOTS ?? 50);
const TIMER_S = Number(process.env.TIMER ?? 5);
const BIDDERS = Number(process.env.BIDDERS ?? 10);
const USERS = Number(process.env.USERS ?? 200);
const ANTI_SNIPE_S = Number(process.env.ANTI_SNIPE ?? 0);
/** Each bid loop's pause between two bids: bidders on phones, not a flood that the per-user rate limit (30 / 10 s) would refuse. */
const BID_GAP_MS = Number(process.env.BID_GAP_MS ?? 100);
/**
 * socket.io-client (what the web app runs; each viewer parses every event, the whole session state
 * included), or raw: the same protocol over a bare WebSocket that parses only `lotFinished`, so one
 * process can stand for a thousand phones without its own parsing delaying the arrival times.
 */
type ViewerClient = 'socket.io' | 'raw';
const VIEWER_CLIENT: ViewerClient = process.env.VIEWER_CLIENT === 'raw' ? 'raw' : 'socket.io';
const STARTING_PRICE = 500;
const TARGET_LATENESS_P99_MS = 250;
const TARGET_DELIVERY_P99_MS = 100;
const SESSION_SECRET = 'bench-live-show-session-secret-0123456789';
const ROLE_ENV = 'MARTILLO_BENCH_LIVE_ROLE';
/** How long the show waits for a lot's close before calling the run broken. */
const CLOSE_WAIT_MS = 30_000;

// ── Messages between the processes ───────────────────────────────────────────

interface ViewersStart {
  type: 'start';
  client: ViewerClient;
  base: string;
  sessionId: string;
  viewers: number;
}
interface ViewersFinish {
  type: 'finish';
  /** lotId → closed_at (epoch ms, database clock). */
  closedAt: Record<string, number>;
}
interface ViewersResult {
  type: 'result';
  joined: number;
  connectErrors: number;
  connectMs: number;
  /** Per lot: the latest viewer's arrival minus closed_at. */
  deliveries: number[];
  /** Per lot: the first viewer's arrival minus closed_at. */
  firstDeliveries: number[];
  /** (viewer, lot) pairs that never received the lot's `lotFinished`. */
  missing: number;
  /** (viewer, lot) pairs that received it more than once. */
  duplicates: number;
  /** Lots whose `lotFinished` said sold (a winner), as the viewers saw them. */
  soldSeen: number;
  cpuMs: number;
  eventLoopDelayP99Ms: number;
}
interface ShowStart {
  type: 'start';
  base: string;
  sessionId: string;
  lotIds: string[];
  sellerCookie: string;
  buyerCookies: string[];
  bidders: number;
  timerS: number;
  bidGapMs: number;
}
interface AcceptedBid {
  lotId: string;
  auctionId: string;
  buyerIndex: number;
  amount: number;
}
interface ShowResult {
  type: 'result';
  accepted: AcceptedBid[];
  attempted: number;
  refusedClosed: number;
  refusedTooLow: number;
  otherErrors: number;
  lastError: string | null;
  /** Per lot: from the timer's answer to the `lotFinished` the show itself received, ms. */
  lotWallMs: number[];
  cpuMs: number;
}

// ── HTTP from the load processes ─────────────────────────────────────────────

function requester(base: string, maxSockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const url = new URL(base);
  function request(method: 'GET' | 'POST' | 'PUT', pathname: string, cookie: string | null, body?: unknown) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const headers: Record<string, string | number> = {};
      if (cookie) headers.cookie = `${SESSION_COOKIE}=${cookie}`;
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(payload);
      }
      const req = http.request({ agent, host: url.hostname, port: url.port, method, path: pathname, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }
  return { request, close: () => agent.destroy() };
}

async function expectOk(answer: Promise<{ status: number; body: string }>, what: string): Promise<string> {
  const res = await answer;
  if (res.status < 200 || res.status >= 300) throw new Error(`${what}: ${res.status} ${res.body.slice(0, 300)}`);
  return res.body;
}

// ── Viewers (child process) ──────────────────────────────────────────────────

async function runViewers(): Promise<void> {
  const start = await onceMessage<ViewersStart>(process, 'start');
  /** Per viewer: lotId → arrival times (epoch ms). */
  const arrivals: Map<string, number[]>[] = [];
  const soldLots = new Set<string>();
  let connectErrors = 0;
  const connectStarted = performance.now();
  const closers: (() => void)[] = [];
  const finishedAt = (seen: Map<string, number[]>, event: Pick<LotFinishedEvent, 'sessionId' | 'lotId' | 'state'>) => {
    const at = Date.now();
    if (event.sessionId !== start.sessionId) return;
    const list = seen.get(event.lotId) ?? [];
    list.push(at);
    seen.set(event.lotId, list);
    if (event.state.winnerTag !== null || event.state.winnerName !== null) soldLots.add(event.lotId);
  };
  /** socket.io-client, as the web app connects. */
  const joinWithClient = (i: number, seen: Map<string, number[]>) =>
    new Promise<void>((resolve) => {
      const socket = io(start.base, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true });
      closers[i] = () => socket.disconnect();
      socket.on(LOT_FINISHED_EVENT, (event: LotFinishedEvent) => finishedAt(seen, event));
      socket.once('connect_error', () => {
        connectErrors++;
        resolve();
      });
      socket.once('connect', () => {
        socket.timeout(10_000).emit('joinSession', { sessionId: start.sessionId }, (err: Error | null, answer: { ok: boolean }) => {
          if (err || !answer?.ok) connectErrors++;
          resolve();
        });
      });
    });
  /** Engine.IO 4 / Socket.IO 5 spoken by hand: only `lotFinished` is parsed; everything else is skipped by its prefix. */
  const joinRaw = (i: number, seen: Map<string, number[]>) =>
    new Promise<void>((resolve) => {
      const url = new URL(start.base);
      const ws = new WebSocket(`ws://${url.host}/socket.io/?EIO=4&transport=websocket`);
      closers[i] = () => ws.close();
      const prefix = `42["${LOT_FINISHED_EVENT}",`;
      ws.on('message', (data: Buffer) => {
        const text = data.toString();
        if (text.startsWith(prefix)) return finishedAt(seen, (JSON.parse(text.slice(2)) as [string, LotFinishedEvent])[1]);
        if (text === '2') return ws.send('3'); // ping → pong
        if (text.startsWith('0')) return ws.send('40'); // open → connect to the main namespace
        if (text.startsWith('40')) return ws.send(`420${JSON.stringify(['joinSession', { sessionId: start.sessionId }])}`);
        if (text.startsWith('430')) {
          if (!text.includes('"ok":true')) connectErrors++;
          resolve();
        }
      });
      ws.once('error', () => {
        connectErrors++;
        resolve();
      });
    });
  const join = (i: number) => {
    const seen = new Map<string, number[]>();
    arrivals[i] = seen;
    return start.client === 'raw' ? joinRaw(i, seen) : joinWithClient(i, seen);
  };
  // A hundred handshakes at a time, as a crowd arriving does not all land in one millisecond.
  for (let i = 0; i < start.viewers; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, start.viewers - i) }, (_, k) => join(i + k)));
  }
  const connectMs = Math.round(performance.now() - connectStarted);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  await sendToParent({ type: 'ready', joined: start.viewers - connectErrors });

  const finish = await onceMessage<ViewersFinish>(process, 'finish');
  const lotIds = Object.keys(finish.closedAt);
  // The last lot's event may still be on its way: wait (bounded) until every viewer has every lot.
  const waitStarted = performance.now();
  while (performance.now() - waitStarted < 5000 && arrivals.some((seen) => lotIds.some((id) => !seen.has(id)))) await sleep(20);
  delay.disable();
  const deliveries: number[] = [];
  const firstDeliveries: number[] = [];
  let missing = 0;
  let duplicates = 0;
  for (const lotId of lotIds) {
    const closedAt = finish.closedAt[lotId] as number;
    let latest = Number.NEGATIVE_INFINITY;
    let earliest = Number.POSITIVE_INFINITY;
    for (const seen of arrivals) {
      const list = seen.get(lotId);
      if (!list?.length) {
        missing++;
        continue;
      }
      if (list.length > 1) duplicates++;
      const first = Math.min(...list);
      latest = Math.max(latest, first);
      earliest = Math.min(earliest, first);
    }
    if (Number.isFinite(latest)) deliveries.push(latest - closedAt);
    if (Number.isFinite(earliest)) firstDeliveries.push(earliest - closedAt);
  }
  for (const close of closers) close();
  const cpu = process.cpuUsage(cpuBefore);
  const result: ViewersResult = {
    type: 'result',
    joined: start.viewers - connectErrors,
    connectErrors,
    connectMs,
    deliveries,
    firstDeliveries,
    missing,
    duplicates,
    soldSeen: soldLots.size,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    eventLoopDelayP99Ms: round(delay.percentile(99) / 1e6),
  };
  await sendToParent(result);
}

// ── The show: the seller and the bidders (child process) ────────────────────

async function runShow(): Promise<void> {
  const start = await onceMessage<ShowStart>(process, 'start');
  const client = requester(start.base, start.bidders + 2);
  const sessionPath = `/api/live-sessions/${start.sessionId}`;
  // The show hears the close like a viewer, to start the next lot at once.
  const socket = io(start.base, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true });
  const finished = new Map<string, () => void>();
  socket.on(LOT_FINISHED_EVENT, (event: LotFinishedEvent) => finished.get(event.lotId)?.());
  await new Promise<void>((resolve, reject) => {
    socket.once('connect_error', reject);
    socket.once('connect', () => socket.emit('joinSession', { sessionId: start.sessionId }, () => resolve()));
  });

  const accepted: AcceptedBid[] = [];
  const lotWallMs: number[] = [];
  let attempted = 0;
  let refusedClosed = 0;
  let refusedTooLow = 0;
  let otherErrors = 0;
  let lastError: string | null = null;
  let nextBuyer = 0;
  const cpuBefore = process.cpuUsage();

  for (const lotId of start.lotIds) {
    const closed = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`lot ${lotId} did not close within ${CLOSE_WAIT_MS} ms`)), CLOSE_WAIT_MS + start.timerS * 1000);
      finished.set(lotId, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await expectOk(client.request('POST', `${sessionPath}/current`, start.sellerCookie, { lotId }), 'set current');
    const detail = JSON.parse(
      await expectOk(client.request('POST', `${sessionPath}/timer`, start.sellerCookie, { seconds: start.timerS }), 'timer'),
    ) as LiveSessionDetail;
    const timedAt = performance.now();
    const lot = detail.lots.find((l) => l.id === lotId);
    if (!lot) throw new Error(`lot ${lotId} missing from the timer's answer`);
    const auctionId = lot.auction.id;
    let known = { version: lot.auction.state.version, nextMinimum: lot.auction.state.nextMinimum };
    let open = true;
    void closed.then(
      () => {
        open = false;
      },
      () => {
        open = false;
      },
    );
    // Every bid loop bids the next minimum it knows until the lot closes (or the server says so).
    const loop = async () => {
      while (open) {
        const buyerIndex = nextBuyer++ % start.buyerCookies.length;
        const amount = known.nextMinimum;
        attempted++;
        let res: { status: number; body: string };
        try {
          res = await client.request('POST', `/api/auctions/${auctionId}/bids`, start.buyerCookies[buyerIndex] as string, { amount });
        } catch (err) {
          otherErrors++;
          lastError = String(err);
          continue;
        }
        await sleep(start.bidGapMs);
        if (res.status === 201) {
          const answer = JSON.parse(res.body) as BidAnswer;
          if (answer.state.version > known.version) known = { version: answer.state.version, nextMinimum: answer.state.nextMinimum };
          for (const line of answer.bids) accepted.push({ lotId, auctionId, buyerIndex, amount: line.amount });
          continue;
        }
        let code = `HTTP_${res.status}`;
        try {
          const body = JSON.parse(res.body) as { error?: { code?: string; state?: { version: number; nextMinimum: number } } };
          code = body.error?.code ?? code;
          const state = body.error?.state;
          if (state && state.version > known.version) known = { version: state.version, nextMinimum: state.nextMinimum };
        } catch {
          // not JSON: keep the status as the code
        }
        if (code === BID_ERROR_CODES.closed) {
          refusedClosed++;
          // The close is committed; its event is on its way.
          await sleep(10);
        } else if (code === BID_ERROR_CODES.tooLow) refusedTooLow++;
        else {
          otherErrors++;
          lastError = `${res.status} ${res.body.slice(0, 200)}`;
          await sleep(10);
        }
      }
    };
    await Promise.all([closed, ...Array.from({ length: start.bidders }, loop)]);
    lotWallMs.push(Math.round(performance.now() - timedAt));
  }
  const cpu = process.cpuUsage(cpuBefore);
  socket.disconnect();
  client.close();
  const result: ShowResult = {
    type: 'result',
    accepted,
    attempted,
    refusedClosed,
    refusedTooLow,
    otherErrors,
    lastError,
    lotWallMs,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  };
  await sendToParent(result);
}

// ── The server side (this process) ───────────────────────────────────────────

interface Seeded {
  sellerCookie: string;
  auctionIds: string[];
  buyerIds: string[];
  buyerCookies: string[];
}

/** A seller with a sign-in session, LOTS pending auctions of theirs, and USERS buyers. */
async function seed(database: Database): Promise<Seeded> {
  const db = database.db;
  const [seller] = await db.insert(users).values({ email: 'vendedora@show.mx' }).returning({ id: users.id });
  const sellerId = (seller as { id: string }).id;
  await db.insert(userProfiles).values({
    userId: sellerId,
    email: 'vendedora@show.mx',
    firstName: 'Vendedora',
    lastName: 'Show',
    displayName: 'Remates del Show',
    roles: ['seller'],
    companyId: 'remates-show',
    companyName: 'Remates del Show',
    whatsapp: '+523312345678',
    whatsappCountryCode: '+52',
    whatsappLocal: '3312345678',
    whatsappConsentGiven: true,
    whatsappConsentAt: new Date(),
  });
  const sellerCookie = 'bench-live-show-seller-cookie-0123456789abcdef';
  await db.insert(authSessions).values({ tokenHash: hashToken(sellerCookie, SESSION_SECRET), userId: sellerId, expiresAt: new Date(Date.now() + 86_400_000) });
  const inserted = await db
    .insert(auctions)
    .values(
      Array.from({ length: LOTS }, (_, i) => ({
        name: `Lote ${i + 1} del show: reloj, cámara o disco de vinilo`,
        description: 'Lote del bench de subastas en vivo.',
        startingPrice: STARTING_PRICE,
        status: 'pending' as const,
        sellerId,
        companyId: 'remates-show',
      })),
    )
    .returning({ id: auctions.id });
  const buyers = await seedBuyers(database, SESSION_SECRET, USERS);
  await db.execute(sql`analyze`);
  return { sellerCookie, auctionIds: inserted.map((a) => a.id), buyerIds: buyers.userIds, buyerCookies: buyers.cookies };
}

/** The session and its lots, made as the seller makes them in the Live Hub. */
async function prepareShow(base: string, seeded: Seeded): Promise<{ sessionId: string; lotIds: string[] }> {
  const client = requester(base, 4);
  try {
    const created = JSON.parse(
      await expectOk(
        client.request('POST', '/api/live-sessions', seeded.sellerCookie, {
          title: 'Show del bench',
          scheduledAt: Date.now(),
          biddingConfig: { minIncrement: 20, antiSnipeSeconds: ANTI_SNIPE_S, timerSecondsDefault: TIMER_S },
        }),
        'create session',
      ),
    ) as LiveSessionDetail;
    const sessionId = created.session.id;
    let detail = created;
    for (const auctionId of seeded.auctionIds) {
      detail = JSON.parse(
        await expectOk(client.request('POST', `/api/live-sessions/${sessionId}/lots`, seeded.sellerCookie, { auctionId }), 'add lot'),
      ) as LiveSessionDetail;
    }
    const byAuction = new Map(detail.lots.map((l) => [l.auctionId, l.id]));
    return { sessionId, lotIds: seeded.auctionIds.map((id) => byAuction.get(id) as string) };
  } finally {
    client.close();
  }
}

async function checkConsistency(database: Database, seeded: Seeded, sessionId: string, show: ShowResult, view: ViewersResult) {
  const db = database.db;
  /** A PostgreSQL array literal: drizzle would spread a JS array into a row. */
  const idList = `{${seeded.auctionIds.join(',')}}`;
  const lots = rows<{
    lot_id: string;
    auction_id: string;
    lot_status: string;
    status: string;
    end_ms: number;
    closed_ms: number | null;
    winner: string | null;
    price: number | null;
    bid_count: number;
  }>(
    await db.execute(sql`
      select l.id as lot_id, a.id as auction_id, l.status as lot_status, a.status,
        (extract(epoch from a.end_time) * 1000)::float8 as end_ms, (extract(epoch from a.closed_at) * 1000)::float8 as closed_ms,
        a.current_winner_id as winner, a.current_price as price, a.bid_count
      from live_lots l join auctions a on a.id = l.auction_id where l.session_id = ${sessionId}::uuid`),
  );
  const closes = rows<{ entity_id: string; n: number }>(
    await db.execute(sql`select entity_id, count(*)::int as n from audit_log where action = 'auction.closed' and entity_type = 'auction' group by entity_id`),
  );
  const closeCount = new Map(closes.map((c) => [c.entity_id, Number(c.n)]));
  const top = rows<{ auction_id: string; bidder_id: string; amount: number }>(
    await db.execute(sql`
      select distinct on (auction_id) auction_id, bidder_id, amount from bids
      where auction_id = any(${idList}::uuid[]) order by auction_id, amount desc, created_at, seq`),
  );
  const highest = new Map(top.map((t) => [t.auction_id, t]));
  const late = rows<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from bids b join auctions a on a.id = b.auction_id
      where b.auction_id = any(${idList}::uuid[]) and (b.created_at > a.end_time or b.created_at > a.closed_at)`),
  );
  const stored = rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from bids where auction_id = any(${idList}::uuid[])`));
  const acceptedByAuction = new Map<string, number>();
  for (const bid of show.accepted) acceptedByAuction.set(bid.auctionId, Math.max(acceptedByAuction.get(bid.auctionId) ?? 0, bid.amount));
  const checks = {
    lots: lots.length,
    everyLotFinished: lots.length === LOTS && lots.every((l) => l.lot_status === 'finished' && l.status === 'ended' && l.closed_ms !== null),
    everyLotClosedOnce: lots.every((l) => closeCount.get(l.auction_id) === 1),
    winnerIsHighestBidder: lots.every((l) => {
      const best = highest.get(l.auction_id);
      return best ? l.winner === best.bidder_id && Number(l.price) === Number(best.amount) : l.winner === null;
    }),
    finalPriceIsHighestAccepted: lots.every((l) => (acceptedByAuction.get(l.auction_id) ?? null) === (l.price === null ? null : Number(l.price))),
    noBidAfterEnd: Number(late[0]?.n ?? 0) === 0,
    everyAcceptedBidStored: Number(stored[0]?.n ?? -1) === show.accepted.length,
    eachViewerGotEachLotOnce: view.missing === 0 && view.duplicates === 0,
    lotsSold: lots.filter((l) => l.winner !== null).length,
    soldSeenByViewers: view.soldSeen,
  };
  const ok = Object.values(checks).every((v) => v !== false) && checks.soldSeenByViewers === checks.lotsSold;
  return { ok, ...checks, rows: lots };
}

function forkShowRole(role: 'viewers' | 'show'): ChildProcess {
  return forkRole(fileURLToPath(import.meta.url), ROLE_ENV, role);
}

async function runOn(engine: 'pglite' | 'postgresql', databaseUrl?: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'martillo-bench-live-'));
  const database = await connectDatabase(databaseUrl ? { kind: 'postgresql', url: databaseUrl } : { kind: 'embedded', dir: path.join(dataDir, 'db') });
  const children: ChildProcess[] = [];
  try {
    await migrateDatabase(database);
    const seeded = await seed(database);
    const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: '0', SESSION_SECRET }, { persistSecret: false });
    const { app } = await buildApp({ config, database, logger: false, scheduler: true });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const { sessionId, lotIds } = await prepareShow(base, seeded);

      const viewers = forkShowRole('viewers');
      children.push(viewers);
      const ready = onceMessage<{ joined: number }>(viewers, 'ready');
      viewers.send({ type: 'start', client: VIEWER_CLIENT, base, sessionId, viewers: VIEWERS } satisfies ViewersStart);
      await ready;

      const show = forkShowRole('show');
      children.push(show);
      const done = onceMessage<ShowResult>(show, 'result');
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      const cpuBefore = process.cpuUsage();
      const machineBefore = os.cpus();
      const started = performance.now();
      show.send({
        type: 'start',
        base,
        sessionId,
        lotIds,
        sellerCookie: seeded.sellerCookie,
        buyerCookies: seeded.buyerCookies,
        bidders: BIDDERS,
        timerS: TIMER_S,
        bidGapMs: BID_GAP_MS,
      } satisfies ShowStart);
      const showResult = await done;
      const showSeconds = round((performance.now() - started) / 1000, 1);
      const serverCpu = process.cpuUsage(cpuBefore);
      const machineBusy = cpuBusy(machineBefore, os.cpus());
      loopDelay.disable();

      const closedRows = rows<{ lot_id: string; closed_ms: number; end_ms: number }>(
        await database.db.execute(sql`
          select l.id as lot_id, (extract(epoch from a.closed_at) * 1000)::float8 as closed_ms, (extract(epoch from a.end_time) * 1000)::float8 as end_ms
          from live_lots l join auctions a on a.id = l.auction_id where l.session_id = ${sessionId}::uuid and a.closed_at is not null`),
      );
      const closedAt = Object.fromEntries(closedRows.map((r) => [r.lot_id, Number(r.closed_ms)]));
      const viewed = onceMessage<ViewersResult>(viewers, 'result');
      viewers.send({ type: 'finish', closedAt } satisfies ViewersFinish);
      const view = await viewed;
      await Promise.all([exited(show), exited(viewers)]);

      const lateness = closedRows.map((r) => Number(r.closed_ms) - Number(r.end_ms)).sort((a, b) => a - b);
      const deliveries = [...view.deliveries].sort((a, b) => a - b);
      const firsts = [...view.firstDeliveries].sort((a, b) => a - b);
      const { rows: _lots, ...consistency } = await checkConsistency(database, seeded, sessionId, showResult, view);
      const latenessP99 = percentile(lateness, 99);
      const deliveryP99 = percentile(deliveries, 99);
      const wall = [...showResult.lotWallMs].sort((a, b) => a - b);
      return {
        engine,
        viewers: VIEWERS,
        viewerClient: VIEWER_CLIENT,
        lots: LOTS,
        timerS: TIMER_S,
        bidders: BIDDERS,
        bidGapMs: BID_GAP_MS,
        antiSnipeS: ANTI_SNIPE_S,
        showSeconds,
        closeLatenessMs: { p50: percentile(lateness, 50), p99: latenessP99, max: percentile(lateness, 100) },
        soldDeliveryMs: { p50: percentile(deliveries, 50), p99: deliveryP99, max: percentile(deliveries, 100) },
        acceptedBids: showResult.accepted.length,
        consistency,
        targets: {
          closeLatenessP99Max: TARGET_LATENESS_P99_MS,
          deliveryP99Max: TARGET_DELIVERY_P99_MS,
          met: latenessP99 !== null && latenessP99 < TARGET_LATENESS_P99_MS && deliveryP99 !== null && deliveryP99 < TARGET_DELIVERY_P99_MS && consistency.ok,
        },
        diagnostics: {
          viewersJoined: view.joined,
          viewerConnectErrors: view.connectErrors,
          viewerConnectMs: view.connectMs,
          firstViewerDeliveryMs: { p50: percentile(firsts, 50), p99: percentile(firsts, 99) },
          bidsAttempted: showResult.attempted,
          refusedClosed: showResult.refusedClosed,
          refusedTooLow: showResult.refusedTooLow,
          otherErrors: showResult.otherErrors,
          lastError: showResult.lastError,
          lotWallMs: { p50: percentile(wall, 50), p99: percentile(wall, 99) },
          serverCpuMs: Math.round((serverCpu.user + serverCpu.system) / 1000),
          serverEventLoopDelayMs: { p50: round(loopDelay.percentile(50) / 1e6), p99: round(loopDelay.percentile(99) / 1e6), max: round(loopDelay.max / 1e6) },
          showProcessCpuMs: showResult.cpuMs,
          viewersProcess: { cpuMs: view.cpuMs, eventLoopDelayP99Ms: view.eventLoopDelayP99Ms },
          machineCpuBusy: machineBusy,
        },
      };
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill();
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const role = process.env[ROLE_ENV];
  if (role === 'viewers') await runViewers();
  else if (role === 'show') await runShow();
  else await runOnEngines('live-show', runOn);
  if (role) process.disconnect?.();
}
