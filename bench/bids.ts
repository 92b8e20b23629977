/**
 * One hot auction: B bidders over HTTP keep-alive race for it while V viewers
 * watch its public room on Socket.IO. Reports accepted bids per second, p50/p99 latency from
 * request to answer, p99 from commit to the event reaching every viewer, and checks consistency
 * at the end (every accepted bid stored, final price = highest accepted amount, amounts strictly
 * increasing, no duplicate seq). In the same run it measures the durable-write limit of the same
 * database through the app's own handle: single-row autocommit UPDATEs at the same concurrency B.
 * Runs on PGlite (on disk, in a temp dir), and again on PostgreSQL when DATABASE_URL is set (in a
 * throwaway database on that server). Prints one JSON document.
 *
 * The server runs in this process. The load runs in two child processes (this same file, forked):
 * one holds the viewers, the other the bidders, so neither the load nor its clocks share the
 * server's event loop. Everything shares the machine's CPUs, though: see diagnostics.
 *
 *   npm run bench:bids                             # PGlite only
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:bids
 *   BIDDERS=50 VIEWERS=1000 DURATION=10 npm run bench:bids
 *
 * With SERVER_INSTANCES=N (N > 1) the server runs instead as N instances: `node:cluster` workers of
 * this process, each on its own port, joined by Redis (REDIS_URL: the sharded adapter and the room
 * relay) as production's instances are, on PostgreSQL only. Routed as deploy/haproxy.cfg routes
 * them: the viewers of each show are dealt out among the instances in turn, and every bid on one
 * auction goes to one instance (show s's to instance s mod N, where HAProxy hashes the auction's
 * id: over many shows, the same even spread). `deliveriesPerInstanceCoreS` is the messages delivered to
 * viewers ÷ the CPU-seconds the instances spent over the window, so N = 1, 2, 3 compare how much
 * of a core each delivery costs once the show is spread; `adapterCpuShare` is the share of the
 * instances' busy CPU spent in Redis's clients, the adapter and the relay (from a CPU profile of
 * each instance over the window: a sample counts where its innermost frame of either kind is one
 * of theirs, so the sends a relayed change leads to count as delivery).
 *
 * SERVER_CPUS (e.g. `0`; Linux, taskset) pins the server (this process, or every cluster worker,
 * every thread: PGlite's too) to those cores, and the viewers, the bidders and a local PostgreSQL
 * to the others, so the load no longer takes the server's core.
 *
 * After the run, the machine's own limit for the same fan-out: a bare WebSocket server (the `ws`
 * package, no Socket.IO; a child process, on SERVER_CPUS when set) sends the run's own state frame,
 * encoded once per broadcast, to as many plain WebSocket viewers, as many times a second as the
 * server broadcast in the measured window, for as long. `serverCpuUsPerDelivery` and
 * `bareCpuUsPerDelivery` are each server's CPU over its window ÷ the messages it sent to viewers
 * (its broadcasts × the viewers in the room), and `fanoutOverBare` their ratio (target ≤ 2).
 *
 * With SHOWS=S (S > 1) the same load is spread over S shows at once, one hot auction each: viewer i
 * watches show i mod S and bid loop j bids on show j mod S, each show with its own ladder; delivery
 * and consistency are computed per show and pooled.
 *
 * Knobs: BIDDERS (50), VIEWERS (1000), SHOWS (1), DURATION seconds measured (10), WARMUP seconds before it
 * (1), USERS bidder accounts (2000), BID_MODE ladder|minimum (ladder), VIEWER_CLIENT
 * socket.io|raw (socket.io), SERVER_INSTANCES (1), SERVER_CPUS (unset), BARE (1; 0 skips the bare
 * server), RUNS (3: each engine's run repeated from scratch, its figures printed as the medians
 * with every run's value), PROFILE (a folder for the server's CPU profile of the measured window:
 * the in-process server's, or each instance's), ENGINES (pglite,postgresql), DATABASE_URL, REDIS_URL.
 */

import type { ChildProcess } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { io } from 'socket.io-client';
import WebSocket, { WebSocketServer } from 'ws';
import type { BidAnswer, BidHistory } from '../src/domain/bidding.js';
import { AUCTION_STATE_EVENT, type AuctionStateEvent } from '../src/domain/realtime.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { connectDatabase, type Database, rows } from '../src/server/db/connect.js';
import { migrateDatabase } from '../src/server/db/migrate.js';
import { auctions, userProfiles, users } from '../src/server/db/schema.js';
import type { Realtime } from '../src/server/realtime/index.js';
import { rooms } from '../src/server/realtime/rooms.js';
import { SESSION_COOKIE } from '../src/server/sessions/store.js';
import { freePort } from '../test/support/net.js';
import {
  collectGarbage,
  cpuBusy,
  exited,
  forkRole,
  onceMessage,
  otherCpus,
  percentile,
  pinPostgres,
  pinProcess,
  round,
  rssMb,
  runOnEngines,
  seedBuyers,
  sendToParent,
  sleep,
  tsxExecArgv,
} from './support.js';

const BIDDERS = Number(process.env.BIDDERS ?? 50);
const VIEWERS = Number(process.env.VIEWERS ?? 1000);
/** Shows at once, one hot auction each; the viewers and the bid loops are dealt out among them. */
const SHOWS = Number(process.env.SHOWS ?? 1);
const DURATION_S = Number(process.env.DURATION ?? 10);
const WARMUP_S = Number(process.env.WARMUP ?? 1);
/** Bidder accounts; each HTTP connection cycles through them, so none reaches the 30 bids / 10 s limit. */
const USERS = Number(process.env.USERS ?? 2000);
/**
 * minimum: each bidder bids the next minimum of the latest state it knows (its last answer or 409).
 * Bidders who saw the same state race for the same amount and one wins, so about 1 attempt in B is
 * accepted whatever the engine does. ladder: the bidders share one ladder of amounts, one increment
 * apart, handed out in send order (as if every bidder saw the latest price at once), so nearly every
 * bid is valid when it arrives: this measures how many bids the engine can accept.
 */
type BidMode = 'minimum' | 'ladder';
const BID_MODE: BidMode = process.env.BID_MODE === 'minimum' ? 'minimum' : 'ladder';
/** socket.io-client (what the web app runs), or raw: the same protocol over a bare WebSocket, lighter on the CPU. */
const VIEWER_CLIENT: ViewerClient = process.env.VIEWER_CLIENT === 'raw' ? 'raw' : 'socket.io';
/**
 * Server instances: 1 runs the server in this process; N > 1 runs it in N `node:cluster` workers
 * sharing one port, joined by Redis (REDIS_URL), on PostgreSQL only.
 */
const SERVER_INSTANCES = Number(process.env.SERVER_INSTANCES ?? 1);
/** The cores the server is pinned to (taskset's list, e.g. "0"), the load and PostgreSQL on the others; null: unpinned. */
const SERVER_CPUS = process.env.SERVER_CPUS || null;
/** The whole run, from scratch, this many times per engine: each figure is then printed as the median of the runs, with every run's value. */
const RUNS = Number(process.env.RUNS ?? 3);
/** A folder: the in-process server's CPU profile over the measured window is written there (one .cpuprofile per run). */
const PROFILE = process.env.PROFILE || null;
/** Whether the bare `ws` server measures the machine's own fan-out after the run. */
const BARE = process.env.BARE !== '0';
/** The fan-out's CPU per delivered message may be at most this many times the bare server's. */
const TARGET_FANOUT_OVER_BARE = 2;
const STARTING_PRICE = 1000;
/**
 * What a run must reach, by the size of the room: accepted bids as a share of the same run's
 * durable-write limit, and the p99 from commit to every viewer. A show of ten thousand may wait
 * longer for each state than a room of a thousand, and takes fewer bids while it fans out.
 */
/** The viewers of one show's room, which the targets go by. */
const ROOM = Math.ceil(VIEWERS / SHOWS);
const TARGETS = (viewers: number) =>
  viewers >= 10_000 ? { acceptedShareOfWriteLimit: 0.3, deliveryP99Ms: 500 } : { acceptedShareOfWriteLimit: 0.8, deliveryP99Ms: 100 };
const SESSION_SECRET = 'bench-bids-session-secret-0123456789abcdef';
const ROLE_ENV = 'MARTILLO_BENCH_BIDS_ROLE';

// ── Shared helpers ───────────────────────────────────────────────────────────

/** What a bidder process learns from a 201: enough to check the database and to time delivery. */
interface Accepted {
  /** Which show's auction (an index into the seeded auctions). */
  show: number;
  userIndex: number;
  seq: number;
  amount: number;
  version: number;
  serverNow: number;
  /** Started inside the measured window (after the warm-up). */
  measured: boolean;
}

interface BiddersStart {
  type: 'start';
  /** One per show: the instance that takes that show's bids. */
  bidBases: string[];
  /** One per show; loop j bids on auctionIds[j mod shows]. */
  auctionIds: string[];
  cookies: string[];
  bidders: number;
  mode: BidMode;
  warmupMs: number;
  durationMs: number;
}
interface BiddersResult {
  type: 'result';
  attempted: number;
  accepted: Accepted[];
  /** Request-to-answer latency of the measured requests, ms, sorted. */
  latencies: Float64Array;
  acceptedLatencies: Float64Array;
  byStatus: Record<string, number>;
  byCode: Record<string, number>;
  byOutcome: Record<string, number>;
  refusedTooLow: number;
  otherErrors: number;
  networkErrors: number;
  lastError: string | null;
  /** User + system CPU over `cpuWallMs`, the measured window. */
  cpuMs: number;
  cpuWallMs: number;
  eventLoopDelayP99Ms: number;
}
type ViewerClient = 'socket.io' | 'raw';
interface ViewersStart {
  type: 'start';
  client: ViewerClient;
  /** One per instance: viewer i of a show joins the show's room on bases[i mod N] (counting that show's viewers only). */
  bases: string[];
  /** One per show; viewer i watches auctionIds[i mod shows]. */
  auctionIds: string[];
  viewers: number;
}
interface ViewersFinish {
  type: 'finish';
  /** Show, version and serverNow of each measured accepted bid. */
  shows: Float64Array;
  versions: Float64Array;
  serverNows: Float64Array;
  /** Each show's final version. */
  finalVersions: number[];
}
interface ViewersResult {
  type: 'result';
  connectMs: number;
  joined: number;
  connectErrors: number;
  /** Over bids: the latest arrival across viewers (the "every viewer" figure). */
  deliveryMs: { p50: number | null; p99: number | null; max: number | null };
  /** Over bids: the earliest arrival across viewers (what the first viewer sees). */
  firstViewerMs: { p50: number | null; p99: number | null };
  undelivered: number;
  eventsPerViewer: number;
  viewersAtFinalVersion: number;
  finalWaitMs: number;
  /** User + system CPU over `cpuWallMs`: from ready to the bids' end (warm-up and measured window). */
  cpuMs: number;
  cpuWallMs: number;
  eventLoopDelayP99Ms: number;
}

// ── Bidders (child process) ──────────────────────────────────────────────────

async function runBidders(): Promise<void> {
  const start = await onceMessage<BiddersStart>(process, 'start');
  // Keep-alive connections per instance (an agent pools by host and port).
  const agent = new http.Agent({ keepAlive: true, maxSockets: start.bidders });
  const urls = start.bidBases.map((base) => new URL(base));
  const bidPath = (show: number) => `/api/auctions/${start.auctionIds[show]}/bids`;
  const post = (show: number, cookie: string, body: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          agent,
          host: urls[show]?.hostname,
          port: urls[show]?.port,
          method: 'POST',
          path: bidPath(show),
          headers: { cookie: `${SESSION_COOKIE}=${cookie}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const latencies: number[] = [];
  const acceptedLatencies: number[] = [];
  const accepted: Accepted[] = [];
  const byStatus: Record<string, number> = {};
  const byCode: Record<string, number> = {};
  const byOutcome: Record<string, number> = {};
  let attempted = 0;
  let refusedTooLow = 0;
  let otherErrors = 0;
  let networkErrors = 0;
  let lastError: string | null = null;

  // Each show's auction as the public page loads it, before the first bid.
  const initials = await Promise.all(
    start.auctionIds.map(async (_, show) => ((await (await fetch(`${start.bidBases[show]}${bidPath(show)}?limit=1`)).json()) as BidHistory).state),
  );
  // Every bidder has the show's page open before bidding, signed in, as in a real show: the page's
  // first read resolved their session, so each instance's session cache already holds it (a
  // minute), and the measured window times bids, not first sign-ins.
  const bases = [...new Set(start.bidBases)];
  for (let i = 0; i < start.cookies.length; i += start.bidders) {
    const batch = start.cookies.slice(i, i + start.bidders);
    await Promise.all(
      bases.flatMap((base) =>
        batch.map(async (cookie) => {
          const res = await fetch(`${base}${bidPath(0)}?limit=1`, { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });
          await res.arrayBuffer();
        }),
      ),
    );
  }
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const t0 = performance.now();
  const measureFrom = t0 + start.warmupMs;
  const stopAt = measureFrom + start.durationMs;
  void sendToParent({ type: 'started', measureInMs: start.warmupMs });
  let cpuBefore = process.cpuUsage();
  let cpuFrom = performance.now();
  setTimeout(() => {
    delay.enable();
    cpuBefore = process.cpuUsage();
    cpuFrom = performance.now();
  }, start.warmupMs).unref();

  // ladder: one rung per bid, per show, handed out in send order; a refusal that shows a higher minimum moves it up.
  const rungs = initials.map((s) => s.nextMinimum);
  async function loop(index: number): Promise<void> {
    // What this loop last heard of each show's auction (its answers and refusals).
    const knownOf = initials.map((s) => ({ version: s.version, nextMinimum: s.nextMinimum, minIncrement: s.minIncrement }));
    let user = index;
    // Loop j bids on shows j, j + B, j + 2B, … (mod SHOWS), so every show gets bids even with more shows than loops.
    let turn = 0;
    while (performance.now() < stopAt) {
      const show = (index + turn++ * start.bidders) % start.auctionIds.length;
      const known = knownOf[show] as (typeof knownOf)[number];
      const learn = (s: { version: number; nextMinimum: number; minIncrement: number } | undefined) => {
        if (s && s.version > known.version) knownOf[show] = { version: s.version, nextMinimum: s.nextMinimum, minIncrement: s.minIncrement };
      };
      const userIndex = user % start.cookies.length;
      user += start.bidders;
      let amount = known.nextMinimum;
      if (start.mode === 'ladder') {
        amount = Math.max(rungs[show] as number, known.nextMinimum);
        rungs[show] = amount + known.minIncrement;
      }
      const began = performance.now();
      const measured = began >= measureFrom;
      let res: { status: number; body: string };
      try {
        res = await post(show, start.cookies[userIndex] as string, JSON.stringify({ amount }));
      } catch (err) {
        networkErrors++;
        otherErrors++;
        lastError = String(err);
        continue;
      }
      const took = performance.now() - began;
      if (measured) {
        attempted++;
        latencies.push(took);
        byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
      }
      if (res.status === 201) {
        const answer = JSON.parse(res.body) as BidAnswer;
        learn(answer.state);
        if (measured) {
          acceptedLatencies.push(took);
          byOutcome[answer.outcome] = (byOutcome[answer.outcome] ?? 0) + 1;
        }
        for (const line of answer.bids) {
          accepted.push({ show, userIndex, seq: line.seq, amount: line.amount, version: answer.state.version, serverNow: answer.state.serverNow, measured });
        }
        continue;
      }
      let code = `HTTP_${res.status}`;
      try {
        const body = JSON.parse(res.body) as { error?: { code?: string; state?: { version: number; nextMinimum: number; minIncrement: number } } };
        code = body.error?.code ?? code;
        learn(body.error?.state);
      } catch {
        // not JSON: keep the status as the code
      }
      if (!measured) continue;
      byCode[code] = (byCode[code] ?? 0) + 1;
      if (code === 'BID_TOO_LOW') refusedTooLow++;
      else {
        otherErrors++;
        lastError = `${res.status} ${res.body.slice(0, 200)}`;
      }
    }
  }
  await Promise.all(Array.from({ length: start.bidders }, (_, i) => loop(i)));
  const cpu = process.cpuUsage(cpuBefore);
  const cpuWallMs = performance.now() - cpuFrom;
  delay.disable();
  agent.destroy();
  const result: BiddersResult = {
    type: 'result',
    attempted,
    accepted,
    latencies: Float64Array.from(latencies).sort(),
    acceptedLatencies: Float64Array.from(acceptedLatencies).sort(),
    byStatus,
    byCode,
    byOutcome,
    refusedTooLow,
    otherErrors,
    networkErrors,
    lastError,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    cpuWallMs: Math.round(cpuWallMs),
    eventLoopDelayP99Ms: round(delay.percentile(99) / 1e6),
  };
  await sendToParent(result);
}

// ── Viewers (child process) ──────────────────────────────────────────────────

async function runViewers(): Promise<void> {
  const start = await onceMessage<ViewersStart>(process, 'start');
  const closers: (() => void)[] = [];
  const versions: number[][] = [];
  const arrivals: number[][] = [];
  const lastVersion: number[] = [];
  let connectErrors = 0;
  const showOf = (i: number) => i % start.auctionIds.length;
  const auctionOf = (i: number) => start.auctionIds[showOf(i)] as string;
  const baseOf = (i: number) => start.bases[Math.floor(i / start.auctionIds.length) % start.bases.length] as string;
  const connectStarted = performance.now();
  const arrived = (i: number, version: number) => {
    const at = Date.now();
    (versions[i] as number[]).push(version);
    (arrivals[i] as number[]).push(at);
    if (version > (lastVersion[i] as number)) lastVersion[i] = version;
  };

  /** socket.io-client, as the web app connects. */
  const joinWithClient = (i: number) =>
    new Promise<void>((resolve) => {
      const socket = io(baseOf(i), { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true });
      closers[i] = () => socket.disconnect();
      socket.on(AUCTION_STATE_EVENT, (event: AuctionStateEvent) => arrived(i, event.state.version));
      socket.once('connect_error', () => {
        connectErrors++;
        resolve();
      });
      socket.once('connect', () => {
        socket.timeout(10_000).emit('joinAuction', { auctionId: auctionOf(i) }, (err: Error | null, answer: { ok: boolean }) => {
          if (err || !answer?.ok) connectErrors++;
          resolve();
        });
      });
    });

  const STATE_PREFIX = Buffer.from(`42["${AUCTION_STATE_EVENT}",`);
  const VERSION_KEY = Buffer.from('"version":');
  /** The state's version, the digits after the first `"version":` (the state's own, which comes first). */
  const versionIn = (data: Buffer) => {
    let at = data.indexOf(VERSION_KEY, STATE_PREFIX.length) + VERSION_KEY.length;
    let version = 0;
    for (let c = data[at] as number; c >= 0x30 && c <= 0x39; c = data[++at] as number) version = version * 10 + (c - 0x30);
    return version;
  };
  /**
   * The same protocol spoken by hand over a bare WebSocket (Engine.IO 4, Socket.IO 5), reading only
   * the state's version: about a third of socket.io-client's CPU per event, so on a small machine
   * the viewers' own event loop delays the arrival times less.
   */
  const joinRaw = (i: number) =>
    new Promise<void>((resolve) => {
      const url = new URL(baseOf(i));
      const ws = new WebSocket(`ws://${url.host}/socket.io/?EIO=4&transport=websocket`);
      closers[i] = () => ws.close();
      ws.on('message', (data: Buffer) => {
        // A state is read in its bytes: only its version, without making a string of the whole frame.
        if (data.length > STATE_PREFIX.length && data.indexOf(STATE_PREFIX) === 0) return arrived(i, versionIn(data));
        const text = data.toString();
        if (text === '2') return ws.send('3'); // ping → pong
        if (text.startsWith('0')) return ws.send('40'); // open → connect to the main namespace
        if (text.startsWith('40')) return ws.send(`420${JSON.stringify(['joinAuction', { auctionId: auctionOf(i) }])}`);
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
    versions[i] = [];
    arrivals[i] = [];
    lastVersion[i] = 0;
    return start.client === 'raw' ? joinRaw(i) : joinWithClient(i);
  };
  // A hundred handshakes at a time, as a crowd arriving does not all land in one millisecond.
  for (let i = 0; i < start.viewers; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, start.viewers - i) }, (_, k) => join(i + k)));
  }
  const connectMs = Math.round(performance.now() - connectStarted);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  const cpuFrom = performance.now();
  await sendToParent({ type: 'ready', joined: start.viewers - connectErrors });

  const finish = await onceMessage<ViewersFinish>(process, 'finish');
  const cpu = process.cpuUsage(cpuBefore);
  const cpuWallMs = performance.now() - cpuFrom;
  // The last event can trail the last answer by the coalescing interval; wait for every viewer.
  const waitStarted = performance.now();
  const finalOf = (i: number) => finish.finalVersions[showOf(i)] as number;
  while (performance.now() - waitStarted < 5000 && lastVersion.some((v, i) => v < finalOf(i))) await sleep(20);
  const finalWaitMs = Math.round(performance.now() - waitStarted);
  delay.disable();

  // Delivery of a bid at one viewer: the earliest arrival of an event whose version is at least the
  // bid's. Computed per viewer as a suffix minimum over versions, then the max (and min) across the
  // show's viewers; each show on its own (its versions are its auction's), pooled.
  const deliveries: number[] = [];
  const firsts: number[] = [];
  let undelivered = 0;
  for (let show = 0; show < start.auctionIds.length; show++) {
    const bids: number[] = [];
    for (let b = 0; b < finish.shows.length; b++) if (finish.shows[b] === show) bids.push(b);
    if (bids.length === 0) continue;
    let vMin = Number.POSITIVE_INFINITY;
    let vMax = 0;
    for (const b of bids) {
      vMin = Math.min(vMin, finish.versions[b] as number);
      vMax = Math.max(vMax, finish.versions[b] as number);
    }
    const span = vMax - vMin + 1;
    const latest = new Float64Array(span).fill(Number.NEGATIVE_INFINITY);
    const earliestAny = new Float64Array(span).fill(Number.POSITIVE_INFINITY);
    const earliest = new Float64Array(span);
    for (let i = show; i < versions.length; i += start.auctionIds.length) {
      earliest.fill(Number.POSITIVE_INFINITY);
      const vs = versions[i] as number[];
      const ts = arrivals[i] as number[];
      for (let k = 0; k < vs.length; k++) {
        const v = vs[k] as number;
        if (v < vMin) continue;
        const at = Math.min(v, vMax) - vMin;
        if ((ts[k] as number) < (earliest[at] as number)) earliest[at] = ts[k] as number;
      }
      for (let k = span - 2; k >= 0; k--) if ((earliest[k + 1] as number) < (earliest[k] as number)) earliest[k] = earliest[k + 1] as number;
      for (let k = 0; k < span; k++) {
        if ((earliest[k] as number) > (latest[k] as number)) latest[k] = earliest[k] as number;
        if ((earliest[k] as number) < (earliestAny[k] as number)) earliestAny[k] = earliest[k] as number;
      }
    }
    for (const b of bids) {
      const k = (finish.versions[b] as number) - vMin;
      const worst = latest[k] as number;
      if (!Number.isFinite(worst)) {
        undelivered++;
        continue;
      }
      deliveries.push(worst - (finish.serverNows[b] as number));
      firsts.push((earliestAny[k] as number) - (finish.serverNows[b] as number));
    }
  }
  deliveries.sort((a, b) => a - b);
  firsts.sort((a, b) => a - b);
  const events = versions.reduce((n, v) => n + v.length, 0);
  for (const close of closers) close();
  const result: ViewersResult = {
    type: 'result',
    connectMs,
    joined: start.viewers - connectErrors,
    connectErrors,
    deliveryMs: {
      p50: percentile(deliveries, 50),
      p99: percentile(deliveries, 99),
      max: deliveries.length ? round(deliveries[deliveries.length - 1] as number) : null,
    },
    firstViewerMs: { p50: percentile(firsts, 50), p99: percentile(firsts, 99) },
    undelivered,
    eventsPerViewer: round(events / Math.max(1, versions.length), 1),
    viewersAtFinalVersion: lastVersion.filter((v, i) => v === finalOf(i)).length,
    finalWaitMs,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    cpuWallMs: Math.round(cpuWallMs),
    eventLoopDelayP99Ms: round(delay.percentile(99) / 1e6),
  };
  await sendToParent(result);
}

// ── The server side (this process) ───────────────────────────────────────────

interface Seeded {
  /** One hot auction per show. */
  auctionIds: string[];
  userIds: string[];
  cookies: string[];
}

/** A seller of another company, one hot auction per show, and USERS bidders with complete profiles and a session each. */
export async function seed(database: Database, secret: string): Promise<Seeded> {
  const db = database.db;
  const [seller] = await db.insert(users).values({ email: 'vendedor@bench.mx' }).returning({ id: users.id });
  const sellerId = (seller as { id: string }).id;
  await db.insert(userProfiles).values({
    userId: sellerId,
    email: 'vendedor@bench.mx',
    firstName: 'Vendedor',
    lastName: 'Bench',
    displayName: 'Remates Bench',
    roles: ['seller'],
    companyId: 'remates-bench',
    companyName: 'Remates Bench',
  });
  const inserted = await db
    .insert(auctions)
    .values(
      Array.from({ length: SHOWS }, (_, show) => ({
        name: SHOWS > 1 ? `Reloj Casio vintage de colección, show ${show + 1}` : 'Reloj Casio vintage de colección',
        description: 'Subasta caliente del bench: todos pujan aquí.',
        startingPrice: STARTING_PRICE,
        status: 'active' as const,
        // Far enough ahead that anti-sniping never moves it during the run.
        endTime: new Date(Date.now() + 6 * 3_600_000),
        sellerId,
        companyId: 'remates-bench',
      })),
    )
    .returning({ id: auctions.id });
  const auctionIds = inserted.map((a) => a.id);

  const { userIds, cookies } = await seedBuyers(database, secret, USERS);
  await db.execute(sql`analyze`);
  return { auctionIds, userIds, cookies };
}

/** The durable-write limit: B workers doing `update … set n = n + 1 where id = 1` in autocommit through the app's pool. */
async function baseline(database: Database): Promise<{ updatesPerS: number; updates: number; p50Ms: number | null; p99Ms: number | null }> {
  const db = database.db;
  await db.execute(sql`create table bench_counter (id integer primary key, n bigint not null)`);
  await db.execute(sql`insert into bench_counter values (1, 0)`);
  const t0 = performance.now();
  const measureFrom = t0 + WARMUP_S * 1000;
  const stopAt = measureFrom + DURATION_S * 1000;
  let updates = 0;
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: BIDDERS }, async () => {
      while (performance.now() < stopAt) {
        const began = performance.now();
        await db.execute(sql`update bench_counter set n = n + 1 where id = 1`);
        if (began >= measureFrom) {
          updates++;
          times.push(performance.now() - began);
        }
      }
    }),
  );
  const [row] = rows<{ n: string | number }>(await db.execute(sql`select n from bench_counter where id = 1`));
  if (!row || Number(row.n) < updates) throw new Error('baseline lost updates');
  await db.execute(sql`drop table bench_counter`);
  times.sort((a, b) => a - b);
  return { updatesPerS: round(updates / DURATION_S, 1), updates, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
}

/**
 * Times each `auctionState` broadcast inside the server, by wrapping the realtime handle the bid
 * broadcaster calls (measurement only: the broadcast itself is unchanged). fanoutMs: how long the
 * synchronous emit to the whole room takes; commitToEmitMs: from the newest state's serverNow to
 * the start of that emit (the coalescing wait plus any event-loop delay).
 */
function watchBroadcasts(realtime: Realtime) {
  const fanout: number[] = [];
  const commitToEmit: number[] = [];
  /** The server's CPU inside the synchronous emits (encoding, and each socket's write as far as the kernel took it). */
  let emitCpuUs = 0;
  /** Messages the emits wrote: each emit × this instance's sockets in the room at that moment. */
  let messages = 0;
  const original = realtime.toAuctionHere;
  const watch = {
    recording: false,
    /** The last state broadcast as Socket.IO writes it to each viewer's WebSocket (an EVENT packet in an Engine.IO message). */
    frame: null as string | null,
    summary() {
      const f = [...fanout].sort((a, b) => a - b);
      const c = [...commitToEmit].sort((a, b) => a - b);
      return {
        count: f.length,
        messages,
        emitCpuMs: round(emitCpuUs / 1000, 1),
        fanoutMs: { p50: percentile(f, 50), p99: percentile(f, 99), max: percentile(f, 100) },
        commitToEmitMs: { p50: percentile(c, 50), p99: percentile(c, 99), max: percentile(c, 100) },
      };
    },
  };
  realtime.toAuctionHere = (auctionId, event, ...args) => {
    if (!watch.recording || event !== AUCTION_STATE_EVENT) return original(auctionId, event, ...args);
    const startedAt = Date.now();
    const began = performance.now();
    const cpuBefore = process.cpuUsage();
    original(auctionId, event, ...args);
    const cpu = process.cpuUsage(cpuBefore);
    fanout.push(performance.now() - began);
    emitCpuUs += cpu.user + cpu.system;
    messages += realtime.io.of('/').adapter.rooms.get(rooms.auction(auctionId))?.size ?? 0;
    watch.frame = `42${JSON.stringify([event, ...args])}`;
    commitToEmit.push(startedAt - (args[0] as AuctionStateEvent).state.serverNow);
  };
  return watch;
}

/** The V8 CPU profiler of this process, through the inspector, from now until `stop` answers what it sampled. */
async function startProfile(intervalUs = 1000) {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result as T))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: intervalUs });
  await post('Profiler.start');
  return {
    async stop(): Promise<CpuProfile> {
      const { profile } = await post<{ profile: CpuProfile }>('Profiler.stop');
      session.disconnect();
      return profile;
    },
  };
}

/** A profile as a `.cpuprofile` file in `dir` (Chrome's DevTools open it); its path. */
function writeProfile(profile: CpuProfile, dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.resolve(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

function forkBidsRole(role: 'bidders' | 'viewers' | 'bare' | 'bare-viewers'): ChildProcess {
  return forkRole(fileURLToPath(import.meta.url), ROLE_ENV, role);
}

// ── The machine's own fan-out: a bare WebSocket server (child processes) ──────

interface BareStart {
  type: 'start';
  /** The frame Socket.IO wrote for the run's last state, sent as text. */
  frame: string;
  perSecond: number;
  durationMs: number;
}
interface BareResult {
  type: 'result';
  cpuMs: number;
  wallMs: number;
  broadcasts: number;
  sent: number;
}

/**
 * The bare server: the `ws` package alone, no Socket.IO, no rooms. Each broadcast encodes the frame
 * once and writes it to every socket, at the run's own pace; its CPU counts until every socket's
 * queue has drained, as the server's does.
 */
async function runBareServer(): Promise<void> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, clientTracking: true });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const address = wss.address();
  await sendToParent({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
  const start = await onceMessage<BareStart>(process, 'start');
  const interval = 1000 / start.perSecond;
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  let broadcasts = 0;
  let sent = 0;
  while (performance.now() - t0 < start.durationMs) {
    const due = t0 + broadcasts * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const data = Buffer.from(start.frame);
    for (const client of wss.clients) {
      if (client.readyState !== WebSocket.OPEN) continue;
      client.send(data, { binary: false });
      sent++;
    }
    broadcasts++;
  }
  const drainBy = performance.now() + 5000;
  while (performance.now() < drainBy && [...wss.clients].some((c) => c.bufferedAmount > 0)) await sleep(5);
  const cpu = process.cpuUsage(cpuBefore);
  const result: BareResult = {
    type: 'result',
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    wallMs: Math.round(performance.now() - t0),
    broadcasts,
    sent,
  };
  await sendToParent(result);
  await onceMessage(process, 'stop');
  for (const client of wss.clients) client.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
}

/** The bare server's viewers: plain WebSockets that count what reaches them. */
async function runBareViewers(): Promise<void> {
  const start = await onceMessage<{ type: 'start'; port: number; viewers: number }>(process, 'start');
  const sockets: WebSocket[] = [];
  let received = 0;
  let failed = 0;
  const join = () =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${start.port}/`, { perMessageDeflate: false });
      sockets.push(ws);
      ws.on('message', () => {
        received++;
      });
      ws.once('open', () => resolve());
      ws.once('error', () => {
        failed++;
        resolve();
      });
    });
  for (let i = 0; i < start.viewers; i += 100) await Promise.all(Array.from({ length: Math.min(100, start.viewers - i) }, () => join()));
  await sendToParent({ type: 'ready', joined: start.viewers - failed });
  const finish = await onceMessage<{ type: 'finish'; sent: number }>(process, 'finish');
  const waitUntil = performance.now() + 5000;
  while (performance.now() < waitUntil && received < finish.sent) await sleep(20);
  for (const ws of sockets) ws.terminate();
  await sendToParent({ type: 'result', received });
}

/** The bare server's run: as many viewers, the same frame at the same pace for as long; its CPU per message sent. */
async function measureBare(frame: string, perSecond: number, viewers: number, loadCpus: string | null) {
  const server = forkBidsRole('bare');
  const clients = forkBidsRole('bare-viewers');
  try {
    if (SERVER_CPUS && server.pid) pinProcess(server.pid, SERVER_CPUS);
    if (loadCpus && clients.pid) pinProcess(clients.pid, loadCpus);
    const { port } = await onceMessage<{ port: number }>(server, 'listening');
    const ready = onceMessage<{ joined: number }>(clients, 'ready');
    clients.send({ type: 'start', port, viewers });
    const { joined } = await ready;
    const done = onceMessage<BareResult>(server, 'result');
    server.send({ type: 'start', frame, perSecond, durationMs: DURATION_S * 1000 } satisfies BareStart);
    const result = await done;
    const counted = onceMessage<{ received: number }>(clients, 'result');
    clients.send({ type: 'finish', sent: result.sent });
    const { received } = await counted;
    server.send({ type: 'stop' });
    await Promise.all([exited(server), exited(clients)]);
    return {
      viewers: joined,
      broadcastsPerS: round((result.broadcasts * 1000) / result.wallMs, 1),
      sent: result.sent,
      received,
      frameBytes: Buffer.byteLength(frame),
      cpuMs: result.cpuMs,
      shareOfOneCore: round(result.cpuMs / result.wallMs),
      usPerDelivery: result.sent ? round((result.cpuMs * 1000) / result.sent) : null,
    };
  } finally {
    for (const child of [server, clients]) if (child.exitCode === null) child.kill();
  }
}

/** One show's auction against the bids answered for it. */
async function checkShow(database: Database, auctionId: string, userIds: string[], accepted: Accepted[]) {
  const db = database.db;
  const stored = await db.execute(sql`select seq, amount, bidder_id from bids where auction_id = ${auctionId}::uuid order by seq`);
  const lines = rows<{ seq: number; amount: number; bidder_id: string }>(stored).map((l) => ({
    seq: Number(l.seq),
    amount: Number(l.amount),
    bidderId: l.bidder_id,
  }));
  const [auction] = await db
    .select({ currentPrice: auctions.currentPrice, bidCount: auctions.bidCount, version: auctions.version, leaderId: auctions.leaderId })
    .from(auctions)
    .where(eq(auctions.id, auctionId));
  if (!auction) throw new Error('hot auction vanished');
  const bySeq = new Map(lines.map((l) => [l.seq, l]));
  const acceptedSeqs = new Set(accepted.map((a) => a.seq));
  const highestAccepted = accepted.reduce((m, a) => Math.max(m, a.amount), 0);
  const bySeqAccepted = [...accepted].sort((a, b) => a.seq - b.seq);
  const lastAccepted = bySeqAccepted[bySeqAccepted.length - 1];
  const checks = {
    acceptedBids: accepted.length,
    storedLines: lines.length,
    everyAcceptedStored: accepted.every((a) => {
      const line = bySeq.get(a.seq);
      return line !== undefined && line.amount === a.amount && line.bidderId === userIds[a.userIndex];
    }),
    nothingStoredUnanswered: lines.length === accepted.length && lines.every((l) => acceptedSeqs.has(l.seq)),
    noDuplicateSeqs: new Set(lines.map((l) => l.seq)).size === lines.length && acceptedSeqs.size === accepted.length,
    seqsContiguous: lines.every((l, i) => l.seq === i + 1),
    amountsStrictlyIncrease: lines.every((l, i) => i === 0 || l.amount > (lines[i - 1] as { amount: number }).amount),
    acceptedStrictlyIncreaseBySeq: bySeqAccepted.every((a, i) => i === 0 || a.amount > (bySeqAccepted[i - 1] as Accepted).amount),
    // A show no bid reached keeps no price and no leader.
    finalPriceIsHighestAccepted:
      accepted.length === 0 ? auction.currentPrice === null : auction.currentPrice === highestAccepted && lines.every((l) => l.amount <= highestAccepted),
    bidCountMatchesLines: auction.bidCount === lines.length,
    leaderIsLastAccepted: lastAccepted === undefined ? auction.leaderId === null : auction.leaderId === userIds[lastAccepted.userIndex],
    finalPrice: auction.currentPrice,
    finalVersion: auction.version,
  };
  const ok = Object.values(checks).every((v) => v !== false);
  return { ok, ...checks };
}

/** Every show checked on its own (checkShow), pooled: each check holds in every show, the counts summed, each show's final price and version. */
async function checkConsistency(database: Database, seeded: Seeded, accepted: Accepted[]) {
  const perShow = await Promise.all(
    seeded.auctionIds.map((auctionId, show) =>
      checkShow(
        database,
        auctionId,
        seeded.userIds,
        accepted.filter((a) => a.show === show),
      ),
    ),
  );
  const every = (read: (c: (typeof perShow)[number]) => boolean) => perShow.every(read);
  const sum = (read: (c: (typeof perShow)[number]) => number) => perShow.reduce((n, c) => n + read(c), 0);
  return {
    ok: every((c) => c.ok),
    acceptedBids: sum((c) => c.acceptedBids),
    storedLines: sum((c) => c.storedLines),
    everyAcceptedStored: every((c) => c.everyAcceptedStored),
    nothingStoredUnanswered: every((c) => c.nothingStoredUnanswered),
    noDuplicateSeqs: every((c) => c.noDuplicateSeqs),
    seqsContiguous: every((c) => c.seqsContiguous),
    amountsStrictlyIncrease: every((c) => c.amountsStrictlyIncrease),
    acceptedStrictlyIncreaseBySeq: every((c) => c.acceptedStrictlyIncreaseBySeq),
    finalPriceIsHighestAccepted: every((c) => c.finalPriceIsHighestAccepted),
    bidCountMatchesLines: every((c) => c.bidCountMatchesLines),
    leaderIsLastAccepted: every((c) => c.leaderIsLastAccepted),
    ...(perShow.length === 1
      ? { finalPrice: perShow[0]?.finalPrice ?? null, finalVersion: perShow[0]?.finalVersion ?? null }
      : { finalPrices: perShow.map((c) => c.finalPrice), finalVersions: perShow.map((c) => c.finalVersion) }),
    /** Internal: each show's final version, to set against what its viewers ended on. */
    showFinalVersions: perShow.map((c) => c.finalVersion),
  };
}

/** What V8's CPU profiler returns: the call tree's nodes, and which node each sample hit and after how long. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Where a server's CPU goes, by the code a sample was in. Each kind's code, by the URL of a frame:
 * `adapter` carries messages between instances (Redis's client and its parts, the cluster
 * adapter, the room relay); `delivery` writes to this instance's sockets (Socket.IO, Engine.IO,
 * `ws`, the in-memory rooms, the broadcaster and its shared frames); `database` talks to PostgreSQL (`pg`, drizzle, the
 * app's db/); `http` serves the requests (Fastify and its plugins, Zod, Node's HTTP). A sample is
 * the kind of the innermost frame of its stack that is any kind's (so the sends a relayed change
 * leads to are delivery, and a query a route makes is the database's); `gc` is the collector's
 * own samples, `other` the rest (the bid and job code of the app, timers, the runtime).
 */
const CODE_KINDS = [
  [
    'adapter',
    /node_modules\/(ioredis|@ioredis|@socket\.io\/redis-adapter|redis-parser|notepack\.io|denque|cluster-key-slot|standard-as-callback)\/|socket\.io-adapter\/dist\/cluster-adapter|realtime\/room-relay\.ts/,
  ],
  [
    'delivery',
    /node_modules\/(socket\.io|socket\.io-parser|engine\.io|engine\.io-parser|ws)\/|socket\.io-adapter\/dist\/index|realtime\/(bid-broadcaster|room-frames)\.ts/,
  ],
  ['database', /node_modules\/(pg|pg-protocol|pg-pool|pg-types|drizzle-orm)\/|src\/server\/db\//],
  ['http', /node_modules\/(fastify|@fastify\/[^/]+|find-my-way|light-my-request|avvio|fast-json-stringify|zod|helmet)\/|^node:_?http/],
] as const;
type CodeKind = (typeof CODE_KINDS)[number][0] | 'gc' | 'other';

/** Each kind's share of a profile's busy (not idle) time, or null if it sampled nothing busy. */
function cpuByKind(profile: CpuProfile): Record<CodeKind, number> | null {
  const kind = new Map<number, CodeKind | null>();
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const innermost = (id: number): CodeKind | null => {
    const known = kind.get(id);
    if (known !== undefined) return known;
    const url = byId.get(id)?.callFrame.url ?? '';
    const up = parent.get(id);
    const found = CODE_KINDS.find(([, code]) => code.test(url))?.[0] ?? (up === undefined ? null : innermost(up));
    kind.set(id, found);
    return found;
  };
  const time: Record<CodeKind, number> = { adapter: 0, delivery: 0, database: 0, http: 0, gc: 0, other: 0 };
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const name = byId.get(id)?.callFrame.functionName;
    if (name === '(idle)') return;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    time[name === '(garbage collector)' ? 'gc' : (innermost(id) ?? 'other')] += dt;
  });
  if (busy === 0) return null;
  return Object.fromEntries(Object.entries(time).map(([k, t]) => [k, round(t / busy, 3)])) as Record<CodeKind, number>;
}

/** Shares of several processes' busy time, pooled by each one's CPU. */
function pooledByKind(parts: { cpuMs: number; byKind: Record<CodeKind, number> | null }[]): Record<CodeKind, number> | null {
  const known = parts.filter((p): p is { cpuMs: number; byKind: Record<CodeKind, number> } => p.byKind !== null);
  const total = known.reduce((n, p) => n + p.cpuMs, 0);
  if (known.length === 0 || total === 0) return null;
  const kinds = Object.keys(known[0]?.byKind ?? {}) as CodeKind[];
  return Object.fromEntries(kinds.map((k) => [k, round(known.reduce((n, p) => n + p.byKind[k] * p.cpuMs, 0) / total, 3)])) as Record<CodeKind, number>;
}

// ── Several server instances (SERVER_INSTANCES > 1) ────────────────────────────

interface WorkerReport {
  type: 'report';
  cpuMs: number;
  wallMs: number;
  loop: { p50: number; p99: number; max: number };
  broadcasts: ReturnType<ReturnType<typeof watchBroadcasts>['summary']>;
  frame: string | null;
  /** Where this instance's busy CPU went (cpuByKind). */
  byKind: Record<CodeKind, number> | null;
}

/** One cluster worker: the app as production starts it, on the shared port; measures itself on request. */
async function runServerWorker(): Promise<void> {
  const database = await connectDatabase({ kind: 'postgresql', url: process.env.BENCH_DATABASE_URL as string });
  const config = loadConfig(
    {
      NODE_ENV: 'development',
      LOG_LEVEL: 'silent',
      DATA_DIR: process.env.BENCH_DATA_DIR as string,
      PORT: '0',
      SESSION_SECRET,
      REDIS_URL: process.env.REDIS_URL as string,
      // Several instances need a shared video server (config.ts); nothing here starts a broadcast, so none is reached.
      VIDEO_PROVIDER: 'janus',
      JANUS_URL: 'ws://127.0.0.1:8188',
    },
    { persistSecret: false },
  );
  const { app, ctx } = await buildApp({ config, database, logger: false, jobs: 'all' });
  const broadcasts = watchBroadcasts(ctx.realtime);
  // Its own port, listened on here rather than through the primary: the bench routes to each instance as HAProxy would.
  await app.listen({ port: Number(process.env.BENCH_PORT), host: '127.0.0.1', exclusive: true });
  let cpuBefore = process.cpuUsage();
  let from = performance.now();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let profiler: Awaited<ReturnType<typeof startProfile>> | null = null;
  process.on('message', async (m: { type: string }) => {
    if (m.type === 'measure') {
      // Sampled every 5 ms: enough samples for a share over the window, at a cost too small to move it.
      profiler = await startProfile(5000);
      cpuBefore = process.cpuUsage();
      from = performance.now();
      loop.enable();
      broadcasts.recording = true;
    } else if (m.type === 'report') {
      broadcasts.recording = false;
      loop.disable();
      const cpu = process.cpuUsage(cpuBefore);
      const wallMs = Math.round(performance.now() - from);
      const profile = await profiler?.stop();
      // PROFILE keeps each instance's profile too, named by its worker number.
      if (profile && PROFILE) writeProfile(profile, PROFILE, `bids-instance-${cluster.worker?.id ?? 0}`);
      const report: WorkerReport = {
        type: 'report',
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
        wallMs,
        loop: { p50: round(loop.percentile(50) / 1e6), p99: round(loop.percentile(99) / 1e6), max: round(loop.max / 1e6) },
        broadcasts: broadcasts.summary(),
        frame: broadcasts.frame,
        byKind: profile ? cpuByKind(profile) : null,
      };
      process.send?.(report);
    } else if (m.type === 'stop') {
      void app
        .close()
        .then(() => database.close())
        .then(() => process.exit(0));
    }
  });
  process.send?.({ type: 'listening' });
}

async function startWorkers(databaseUrl: string, dataDir: string): Promise<{ bases: string[]; workers: Worker[] }> {
  const ports: number[] = [];
  for (let i = 0; i < SERVER_INSTANCES; i++) ports.push(await freePort());
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url), execArgv: tsxExecArgv(), serialization: 'advanced' });
  const workers = ports.map((port) =>
    cluster.fork({ [ROLE_ENV]: 'server', BENCH_DATABASE_URL: databaseUrl, BENCH_DATA_DIR: dataDir, BENCH_PORT: String(port) }),
  );
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.on('message', (m: { type: string }) => m.type === 'listening' && resolve());
          w.once('exit', (code) => reject(new Error(`a server worker exited with code ${code} before it listened`)));
        }),
    ),
  );
  return { bases: ports.map((port) => `http://127.0.0.1:${port}`), workers };
}

async function runOn(engine: 'pglite' | 'postgresql', databaseUrl?: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'martillo-bench-bids-'));
  const database = await connectDatabase(databaseUrl ? { kind: 'postgresql', url: databaseUrl } : { kind: 'embedded', dir: path.join(dataDir, 'db') });
  const children: ChildProcess[] = [];
  try {
    await migrateDatabase(database);
    const seedStarted = performance.now();
    const seeded = await seed(database, SESSION_SECRET);
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);

    let app: Awaited<ReturnType<typeof buildApp>>['app'] | null = null;
    let broadcasts: ReturnType<typeof watchBroadcasts> | null = null;
    let workers: Worker[] = [];
    let bases: string[];
    if (SERVER_INSTANCES > 1) {
      if (!databaseUrl || !process.env.REDIS_URL) throw new Error('SERVER_INSTANCES > 1 needs PostgreSQL (ENGINES=postgresql, DATABASE_URL) and REDIS_URL');
      ({ bases, workers } = await startWorkers(databaseUrl, dataDir));
    } else {
      const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: '0', SESSION_SECRET }, { persistSecret: false });
      const built = await buildApp({ config, database, logger: false, jobs: 'all' });
      app = built.app;
      broadcasts = watchBroadcasts(built.ctx.realtime);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      bases = [`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`];
    }
    // SERVER_CPUS: the server on its cores (this process, and every worker), the rest of the machine for the load and PostgreSQL.
    const loadCpus = SERVER_CPUS ? otherCpus(SERVER_CPUS) : null;
    let unpinPostgres: (() => void) | null = null;
    try {
      if (SERVER_CPUS) {
        if (!loadCpus) throw new Error(`SERVER_CPUS=${SERVER_CPUS} leaves no core for the viewers and the bidders`);
        pinProcess(process.pid, SERVER_CPUS);
        for (const w of workers) if (w.process.pid) pinProcess(w.process.pid, SERVER_CPUS);
        if (databaseUrl) unpinPostgres = await pinPostgres(databaseUrl, loadCpus);
      }
      const limit = await baseline(database);

      // The server's resident memory (this process, or its workers) before the viewers join and once they have.
      const serverPids = workers.length ? workers.map((w) => w.process.pid).filter((pid): pid is number => pid !== undefined) : [process.pid];
      const serverRssMb = () =>
        round(
          serverPids.reduce((sum, pid) => sum + (rssMb(pid) ?? 0), 0),
          1,
        );
      // In this process, a full collection and a second for V8 to hand the freed pages back first (without it a later
      // run, RUNS, starts from the last run's garbage and its RSS shrinks while the viewers join), then the RSS and
      // what the heap and the buffers outside it hold alive. Workers are fresh processes of their own run.
      const memory = async () => {
        if (workers.length) return { rss: serverRssMb(), live: null };
        collectGarbage();
        await sleep(1000);
        const { heapUsed, external } = process.memoryUsage();
        return { rss: serverRssMb(), live: round((heapUsed + external) / 2 ** 20, 1) };
      };
      const { rss: rssBeforeViewersMb, live: liveBeforeViewersMb } = await memory();
      const viewers = forkBidsRole('viewers');
      children.push(viewers);
      if (loadCpus && viewers.pid) pinProcess(viewers.pid, loadCpus);
      const ready = onceMessage<{ joined: number }>(viewers, 'ready');
      viewers.send({ type: 'start', client: VIEWER_CLIENT, bases, auctionIds: seeded.auctionIds, viewers: VIEWERS } satisfies ViewersStart);
      const { joined } = await ready;
      const { rss: rssWithViewersMb, live: liveWithViewersMb } = await memory();
      const liveMbPer1000Viewers =
        joined > 0 && liveBeforeViewersMb !== null && liveWithViewersMb !== null ? round((liveWithViewersMb - liveBeforeViewersMb) / (joined / 1000), 1) : null;
      const rssMbPer1000Viewers = joined > 0 ? round((rssWithViewersMb - rssBeforeViewersMb) / (joined / 1000), 1) : null;

      const bidders = forkBidsRole('bidders');
      children.push(bidders);
      if (loadCpus && bidders.pid) pinProcess(bidders.pid, loadCpus);
      const started = onceMessage<{ measureInMs: number }>(bidders, 'started');
      const done = onceMessage<BiddersResult>(bidders, 'result');
      bidders.send({
        type: 'start',
        // As deploy/haproxy.cfg's `bids` backend: every bid on one auction to one instance.
        bidBases: seeded.auctionIds.map((_, show) => bases[show % bases.length] as string),
        auctionIds: seeded.auctionIds,
        cookies: seeded.cookies,
        bidders: BIDDERS,
        mode: BID_MODE,
        warmupMs: WARMUP_S * 1000,
        durationMs: DURATION_S * 1000,
      } satisfies BiddersStart);
      // The server's own event loop and the machine's CPUs, over the measured window.
      const { measureInMs } = await started;
      await sleep(measureInMs);
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      if (broadcasts) broadcasts.recording = true;
      for (const w of workers) w.send({ type: 'measure' });
      // In-process, sampled as each instance samples itself (PROFILE: every ms, and kept in a file).
      const profiler = workers.length ? null : await startProfile(PROFILE ? 1000 : 5000);
      const cpuBefore = process.cpuUsage();
      const cpuFrom = performance.now();
      const machineBefore = os.cpus();
      const bid = await done;
      if (broadcasts) broadcasts.recording = false;
      const profile = profiler ? await profiler.stop() : null;
      const profileFile = profile && PROFILE ? writeProfile(profile, PROFILE, `bids-${engine}-${VIEWERS}`) : null;
      const reports = await Promise.all(
        workers.map((w) => {
          const got = new Promise<WorkerReport>((resolve) => w.once('message', (m: WorkerReport) => resolve(m)));
          w.send({ type: 'report' });
          return got;
        }),
      );
      const serverCpu = process.cpuUsage(cpuBefore);
      const serverWallMs = performance.now() - cpuFrom;
      const machineBusy = cpuBusy(machineBefore, os.cpus());
      loopDelay.disable();

      const measured = bid.accepted.filter((a) => a.measured);
      // Each show's newest version answered to a bidder (0: none accepted; the viewers then wait for nothing).
      const finalVersions = seeded.auctionIds.map((_, show) => bid.accepted.reduce((m, a) => (a.show === show ? Math.max(m, a.version) : m), 0));
      const viewed = onceMessage<ViewersResult>(viewers, 'result');
      viewers.send({
        type: 'finish',
        shows: Float64Array.from(measured.map((a) => a.show)),
        versions: Float64Array.from(measured.map((a) => a.version)),
        serverNows: Float64Array.from(measured.map((a) => a.serverNow)),
        finalVersions,
      } satisfies ViewersFinish);
      const view = await viewed;
      await Promise.all([exited(bidders), exited(viewers)]);

      const consistency = await checkConsistency(database, seeded, bid.accepted);
      const { showFinalVersions: _internal, ...consistencyShown } = consistency;
      const acceptedBidsPerS = round(measured.length / DURATION_S, 1);
      const ratio = limit.updatesPerS ? round(acceptedBidsPerS / limit.updatesPerS, 3) : 0;
      const everyViewerFinal =
        view.viewersAtFinalVersion === VIEWERS && consistency.showFinalVersions.every((v, show) => v === finalVersions[show] || finalVersions[show] === 0);
      const deliveryP99 = view.deliveryMs.p99;
      const target = TARGETS(ROOM);
      const serverCpuMs = Math.round((serverCpu.user + serverCpu.system) / 1000);

      // The fan-out's CPU per message sent to a viewer, against the bare `ws` server's at the same pace.
      const broadcastCount = broadcasts ? broadcasts.summary().count : reports.reduce((n, r) => n + r.broadcasts.count, 0);
      // Each emit reached its instance's own viewers: the messages are counted where they were written.
      const deliveries = broadcasts ? broadcasts.summary().messages : reports.reduce((n, r) => n + r.broadcasts.messages, 0);
      const windowCpuMs = workers.length ? reports.reduce((n, r) => n + r.cpuMs, 0) : serverCpuMs;
      const serverCpuUsPerDelivery = deliveries ? round((windowCpuMs * 1000) / deliveries) : null;
      const emitCpuMs = broadcasts ? broadcasts.summary().emitCpuMs : reports.reduce((n, r) => n + r.broadcasts.emitCpuMs, 0);
      const emitCpuUsPerDelivery = deliveries ? round((emitCpuMs * 1000) / deliveries) : null;
      const frame = broadcasts ? broadcasts.frame : (reports.find((r) => r.frame !== null)?.frame ?? null);
      // As many messages a second to as many viewers: one bare server sending to all of them.
      const bare =
        BARE && frame && deliveries > 0 && view.joined > 0
          ? await measureBare(frame, deliveries / view.joined / (serverWallMs / 1000), view.joined, loadCpus)
          : null;
      const bareCpuUsPerDelivery = bare?.usPerDelivery ?? null;
      const fanoutOverBare = serverCpuUsPerDelivery !== null && bareCpuUsPerDelivery ? round(serverCpuUsPerDelivery / bareCpuUsPerDelivery) : null;
      const fanoutMet = bare === null ? null : fanoutOverBare !== null && fanoutOverBare <= TARGET_FANOUT_OVER_BARE;
      const deliveriesPerInstanceCoreS = windowCpuMs > 0 ? Math.round(deliveries / (windowCpuMs / 1000)) : null;
      // Each instance's share weighted by its CPU: the adapter's part of all the instances' busy time.
      const serverCpuByKind = workers.length ? pooledByKind(reports) : profile ? cpuByKind(profile) : null;
      const adapterCpuShare = workers.length ? (serverCpuByKind?.adapter ?? null) : null;
      return {
        engine,
        bidders: BIDDERS,
        viewers: VIEWERS,
        shows: SHOWS,
        users: USERS,
        bidMode: BID_MODE,
        viewerClient: VIEWER_CLIENT,
        instances: SERVER_INSTANCES,
        serverCpus: SERVER_CPUS,
        loadCpus,
        postgresPinned: unpinPostgres !== null,
        durationS: DURATION_S,
        warmupS: WARMUP_S,
        seedSeconds,
        baselineUpdatesPerS: limit.updatesPerS,
        acceptedBidsPerS,
        attemptedPerS: round(bid.attempted / DURATION_S, 1),
        refusedTooLow: bid.refusedTooLow,
        otherErrors: bid.otherErrors,
        ratio,
        latencyMs: { p50: percentile(bid.latencies, 50), p99: percentile(bid.latencies, 99) },
        deliveryMs: view.deliveryMs,
        everyViewerReceivedFinalState: everyViewerFinal,
        /** The server's CPU over the measured window (bids, fan-out and all) ÷ its broadcasts × the viewers in the room. */
        serverCpuUsPerDelivery,
        bareCpuUsPerDelivery,
        fanoutOverBare,
        /** The part of serverCpuUsPerDelivery spent inside the state broadcasts' synchronous emits: the fan-out without the bids. */
        emitCpuUsPerDelivery,
        emitOverBare: emitCpuUsPerDelivery !== null && bareCpuUsPerDelivery ? round(emitCpuUsPerDelivery / bareCpuUsPerDelivery) : null,
        /** Messages delivered to viewers ÷ the CPU-seconds all the instances spent over the window: what one core delivers once the show is spread. */
        deliveriesPerInstanceCoreS,
        /** With several instances, the share of their busy CPU spent carrying messages between them (Redis's client, the adapter, the relay); null with one. */
        adapterCpuShare,
        /** Where the server's busy CPU went over the window (cpuByKind; the instances' pooled by their CPU). */
        serverCpuByKind,
        /** The server's RSS growth from before the viewers joined to once they had, per 1,000 of them (one reading each: GC moves it). */
        rssMbPer1000Viewers,
        serverRssMb: { beforeViewers: rssBeforeViewersMb, withViewers: rssWithViewersMb },
        /** The same growth in what the server's heap and buffers hold alive after a full collection (in-process server only; null with workers). */
        liveMbPer1000Viewers,
        deliveries: { broadcasts: broadcastCount, viewers: view.joined, messages: deliveries },
        ...(profileFile ? { profile: profileFile } : {}),
        bareServer: bare ?? (BARE ? 'not measured: no state was broadcast in the window' : 'BARE=0'),
        consistency: {
          ...consistencyShown,
          ok: consistency.ok && (bare === null || bare.received === bare.sent),
          /** Every message the bare server sent reached its viewer. */
          bareDelivered: bare === null ? null : bare.received === bare.sent,
        },
        targets: {
          ...target,
          fanoutOverBareAtMost: TARGET_FANOUT_OVER_BARE,
          fanoutOverBareMet: fanoutMet,
          acceptedShareMet: ratio >= target.acceptedShareOfWriteLimit,
          deliveryMet: deliveryP99 !== null && deliveryP99 < target.deliveryP99Ms && view.undelivered === 0,
          met:
            ratio >= target.acceptedShareOfWriteLimit &&
            deliveryP99 !== null &&
            deliveryP99 < target.deliveryP99Ms &&
            view.undelivered === 0 &&
            everyViewerFinal &&
            fanoutMet !== false &&
            consistency.ok,
        },
        /** Each process over the measured window: CPU (user + system) and its share of one core, and its event-loop delay. */
        processes: {
          server: workers.length
            ? {
                cpuMs: reports.reduce((n, r) => n + r.cpuMs, 0),
                shareOfOneCore: round(reports.reduce((n, r) => n + r.cpuMs / r.wallMs, 0)),
                workers: reports.map((r) => ({
                  cpuMs: r.cpuMs,
                  shareOfOneCore: round(r.cpuMs / r.wallMs),
                  eventLoopDelayMs: r.loop,
                  byKind: r.byKind,
                  messages: r.broadcasts.messages,
                })),
                primary: { cpuMs: serverCpuMs, shareOfOneCore: round(serverCpuMs / serverWallMs) },
              }
            : {
                cpuMs: serverCpuMs,
                shareOfOneCore: round(serverCpuMs / serverWallMs),
                eventLoopDelayMs: { p50: round(loopDelay.percentile(50) / 1e6), p99: round(loopDelay.percentile(99) / 1e6), max: round(loopDelay.max / 1e6) },
              },
          viewers: { cpuMs: view.cpuMs, shareOfOneCore: round(view.cpuMs / view.cpuWallMs), eventLoopDelayP99Ms: view.eventLoopDelayP99Ms },
          bidders: { cpuMs: bid.cpuMs, shareOfOneCore: round(bid.cpuMs / bid.cpuWallMs), eventLoopDelayP99Ms: bid.eventLoopDelayP99Ms },
          machineCpuBusy: machineBusy,
        },
        diagnostics: {
          baseline: limit,
          acceptedShare: bid.attempted ? round(measured.length / bid.attempted, 3) : null,
          attemptedToBaseline: limit.updatesPerS ? round(bid.attempted / DURATION_S / limit.updatesPerS, 3) : null,
          acceptedLatencyMs: { p50: percentile(bid.acceptedLatencies, 50), p99: percentile(bid.acceptedLatencies, 99) },
          byStatus: bid.byStatus,
          byCode: bid.byCode,
          byOutcome: bid.byOutcome,
          networkErrors: bid.networkErrors,
          lastError: bid.lastError,
          firstViewerDeliveryMs: view.firstViewerMs,
          undeliveredBids: view.undelivered,
          eventsPerViewer: view.eventsPerViewer,
          viewersJoined: view.joined,
          viewersAtFinalVersion: view.viewersAtFinalVersion,
          viewerConnectMs: view.connectMs,
          finalEventWaitMs: view.finalWaitMs,
          serverBroadcasts: broadcasts ? broadcasts.summary() : reports.map((r) => r.broadcasts),
        },
      };
    } finally {
      unpinPostgres?.();
      for (const child of children) if (child.exitCode === null) child.kill();
      await app?.close();
      await Promise.all(
        workers.map((w) => {
          if (w.isDead()) return Promise.resolve();
          const gone = new Promise<void>((resolve) => w.once('exit', () => resolve()));
          w.send({ type: 'stop' });
          return gone;
        }),
      );
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type BidsRun = Awaited<ReturnType<typeof runOn>>;

/** The figures a repeated run prints as medians, each as one run reads it. */
const FIGURES = {
  baselineUpdatesPerS: (r: BidsRun) => r.baselineUpdatesPerS,
  acceptedBidsPerS: (r: BidsRun) => r.acceptedBidsPerS,
  ratio: (r: BidsRun) => r.ratio,
  latencyP50Ms: (r: BidsRun) => r.latencyMs.p50,
  latencyP99Ms: (r: BidsRun) => r.latencyMs.p99,
  deliveryP50Ms: (r: BidsRun) => r.deliveryMs.p50,
  deliveryP99Ms: (r: BidsRun) => r.deliveryMs.p99,
  serverCpuUsPerDelivery: (r: BidsRun) => r.serverCpuUsPerDelivery,
  bareCpuUsPerDelivery: (r: BidsRun) => r.bareCpuUsPerDelivery,
  fanoutOverBare: (r: BidsRun) => r.fanoutOverBare,
  emitCpuUsPerDelivery: (r: BidsRun) => r.emitCpuUsPerDelivery,
  emitOverBare: (r: BidsRun) => r.emitOverBare,
  rssMbPer1000Viewers: (r: BidsRun) => r.rssMbPer1000Viewers,
  liveMbPer1000Viewers: (r: BidsRun) => r.liveMbPer1000Viewers,
  serverShareOfOneCore: (r: BidsRun) => r.processes.server.shareOfOneCore,
  deliveriesPerInstanceCoreS: (r: BidsRun) => r.deliveriesPerInstanceCoreS,
  adapterCpuShare: (r: BidsRun) => r.adapterCpuShare,
} satisfies Record<string, (r: BidsRun) => number | null>;

function medianByKind(shares: (Record<CodeKind, number> | null)[]): Record<CodeKind, number | null> | null {
  const known = shares.filter((s): s is Record<CodeKind, number> => s !== null);
  if (known.length === 0) return null;
  const kinds = Object.keys(known[0] ?? {}) as CodeKind[];
  return Object.fromEntries(
    kinds.map((k) => [
      k,
      percentile(
        known.map((s) => s[k]).sort((a, b) => a - b),
        50,
      ),
    ]),
  ) as Record<CodeKind, number | null>;
}

/**
 * RUNS > 1: one engine's runs as one, under a single run's field names, each figure the median of
 * the runs (the middle one of three), `each` every run's value in run order, the targets judged on
 * the medians, and `detail` the whole runs.
 */
function combineRuns(runs: BidsRun[]) {
  const each = Object.fromEntries(Object.entries(FIGURES).map(([name, read]) => [name, runs.map(read)])) as Record<keyof typeof FIGURES, (number | null)[]>;
  const median = Object.fromEntries(
    Object.entries(each).map(([name, values]) => [
      name,
      percentile(
        values.filter((v): v is number => v !== null).sort((a, b) => a - b),
        50,
      ),
    ]),
  ) as Record<keyof typeof FIGURES, number | null>;
  const [first] = runs as [BidsRun, ...BidsRun[]];
  const target = TARGETS(ROOM);
  const consistent = runs.every((r) => r.consistency.ok);
  const everyViewerFinal = runs.every((r) => r.everyViewerReceivedFinalState);
  const undelivered = runs.reduce((n, r) => n + r.diagnostics.undeliveredBids, 0);
  const fanoutMet = runs.every((r) => r.targets.fanoutOverBareMet === null)
    ? null
    : median.fanoutOverBare !== null && median.fanoutOverBare <= TARGET_FANOUT_OVER_BARE;
  const acceptedShareMet = median.ratio !== null && median.ratio >= target.acceptedShareOfWriteLimit;
  const deliveryMet = median.deliveryP99Ms !== null && median.deliveryP99Ms < target.deliveryP99Ms && undelivered === 0;
  return {
    engine: first.engine,
    runs: runs.length,
    note: `each figure is the median of ${runs.length} runs, each from scratch, but rssMbPer1000Viewers, the first run's (its server process was fresh); each holds every run's value, detail the whole runs`,
    bidders: first.bidders,
    viewers: first.viewers,
    shows: first.shows,
    users: first.users,
    bidMode: first.bidMode,
    viewerClient: first.viewerClient,
    instances: first.instances,
    serverCpus: first.serverCpus,
    loadCpus: first.loadCpus,
    postgresPinned: first.postgresPinned,
    durationS: first.durationS,
    warmupS: first.warmupS,
    baselineUpdatesPerS: median.baselineUpdatesPerS,
    acceptedBidsPerS: median.acceptedBidsPerS,
    ratio: median.ratio,
    latencyMs: { p50: median.latencyP50Ms, p99: median.latencyP99Ms },
    deliveryMs: { p50: median.deliveryP50Ms, p99: median.deliveryP99Ms },
    everyViewerReceivedFinalState: everyViewerFinal,
    serverCpuUsPerDelivery: median.serverCpuUsPerDelivery,
    bareCpuUsPerDelivery: median.bareCpuUsPerDelivery,
    fanoutOverBare: median.fanoutOverBare,
    emitCpuUsPerDelivery: median.emitCpuUsPerDelivery,
    emitOverBare: median.emitOverBare,
    deliveriesPerInstanceCoreS: median.deliveriesPerInstanceCoreS,
    adapterCpuShare: median.adapterCpuShare,
    /** Each kind's median share over the runs. */
    serverCpuByKind: medianByKind(runs.map((r) => r.serverCpuByKind)),
    // The first run's: its server is a fresh process. A later run's sockets reuse the memory the earlier runs freed
    // (the allocator keeps it), so their RSS hardly grows; `each` shows it. The live figure is the median.
    rssMbPer1000Viewers: first.rssMbPer1000Viewers,
    liveMbPer1000Viewers: median.liveMbPer1000Viewers,
    serverShareOfOneCore: median.serverShareOfOneCore,
    each,
    consistency: { ok: consistent, perRun: runs.map((r) => r.consistency.ok) },
    targets: {
      ...target,
      fanoutOverBareAtMost: TARGET_FANOUT_OVER_BARE,
      fanoutOverBareMet: fanoutMet,
      acceptedShareMet,
      deliveryMet,
      met: acceptedShareMet && deliveryMet && everyViewerFinal && fanoutMet !== false && consistent,
    },
    detail: runs,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const role = process.env[ROLE_ENV];
  if (role === 'server') await runServerWorker();
  else if (role === 'bare') await runBareServer();
  else if (role === 'bare-viewers') await runBareViewers();
  else if (role === 'bidders') await runBidders();
  else if (role === 'viewers') await runViewers();
  else {
    if (!(RUNS >= 1 && Number.isInteger(RUNS))) throw new Error('RUNS must be a whole number of at least 1');
    await runOnEngines('bids', runOn, { times: RUNS, combine: combineRuns });
  }
  if (role && role !== 'server') process.disconnect?.();
}
