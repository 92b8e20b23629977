/**
 * Every bench, run as `npm run bench:*` runs it but at a tiny size: it must complete, print its
 * JSON, and pass its own consistency checks. No timing is asserted; the point is that a schema or
 * API change cannot break a bench unnoticed.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canMakeVideoNetns } from '../../scripts/video-netns.js';
import { janusMissingReason } from '../support/janus.js';

const BENCH_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

const BIDS_PROFILE_DIR = path.join(tmpdir(), `martillo-bench-smoke-profile-${process.pid}`);

/** The knobs that make each bench tiny. A new bench must add its own line here. */
const SMOKE: Record<string, Record<string, string>> = {
  'admin-list.ts': { AUCTIONS: '150', ITERATIONS: '2', WARMUP: '1' },
  // The server pinned to the first core and the load to the rest, where there is a rest (PGlite: no PostgreSQL is pinned);
  // two runs, printed as one of medians, each with the server's CPU profile of its window.
  'bids.ts': {
    PROFILE: BIDS_PROFILE_DIR,
    BIDDERS: '2',
    VIEWERS: '3',
    USERS: '10',
    DURATION: '1',
    WARMUP: '0',
    RUNS: '2',
    ...(cpus().length > 1 ? { SERVER_CPUS: '0' } : {}),
  },
  // 20 followers, one show (the median of one), a 1 s bid window.
  'go-live.ts': { FOLLOWERS: '20', RUNS: '1', BIDDERS: '2', USERS: '10', MIN_WINDOW_S: '1' },
  'live-show.ts': { VIEWERS: '5', LOTS: '2', TIMER: '5', BIDDERS: '2', USERS: '20' },
  // Both runs (without chat, then with it); 3 chatters at a line a second in all.
  'live-chat.ts': { VIEWERS: '5', LOTS: '2', TIMER: '5', BIDDERS: '2', USERS: '20', CHATTERS: '3', CHAT_RATE: '1' },
  // Both shows (plain, then killed halfway through its links and retried) of 4 buyers.
  'show-billing.ts': { BUYERS: '4', LOTS: '10' },
  // 300 auctions, 10 scheduled shows and 2 live ones of 5 lots, three rounds of 2 requests per query.
  'storefront.ts': { AUCTIONS: '300', SHOWS: '10', LIVE: '2', LOTS: '5', ITERATIONS: '2', ROUNDS: '3', WARMUP: '1' },
  // Janus only where it is installed; the bench itself refuses a missing one. Its flood mode runs too, as small.
  // The embedded crowd runs once, with recording (the recorder beside the SFU), 3 s of glass to glass: RECORDING=both
  // only runs it twice, which took 2 minutes of the suite.
  'video.ts': {
    VIEWERS: '3',
    WINDOW_S: '2',
    BASELINE_S: '1',
    G2G_S: '3',
    GAP_MS: '20',
    RECORDING: 'on',
    // The edges mode (an origin and two edges) where Janus has its Streaming plugin too.
    PROVIDERS: janusMissingReason() ? 'embedded' : janusMissingReason(['videoroom', 'streaming']) ? 'embedded,janus' : 'embedded,janus,janus-edges',
    EDGES: '2',
    FLOOD_SOCKETS: '6',
    FLOOD_S: '4',
    FLOOD_SETTLE_S: '2',
  },
  // A 6-second recording of a small camera in two segments, 4 lots, one height; the recorder (bench:video's record
  // mode, where a network namespace can be made) one round of 2 s without and 2 s with recording.
  'replay.ts': {
    MINUTES: '0.1',
    SEGMENTS: '2',
    LOTS: '4',
    HEIGHTS: '360',
    RECORD_SIZE: '320x180',
    RECORD_KBPS: '300',
    RECORD_WINDOW_S: '2',
    RECORD_ROUNDS: '1',
    PHONE_OPENS: '1',
    PHONE_SEEKS: '2',
  },
  // The development start only: the production runs build the release first.
  'idle-memory.ts': { MODES: 'development', SETTLE_S: '0' },
  // Lighthouse takes most of a minute per page: the smoke run measures the transfers only.
  'weight.ts': { LIGHTHOUSE: '0' },
};
const hasFfmpeg = () => (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(`${dir}/ffmpeg`) && existsSync(`${dir}/ffprobe`));

/** Benches that need more than the database: why they cannot run here, or null. */
const CANNOT_RUN: Record<string, () => string | null> = {
  'video.ts': () => {
    const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
    return canMakeVideoNetns() ?? (existsSync(chromium) ? null : `no Chromium at ${chromium}`);
  },
  'replay.ts': () => (hasFfmpeg() ? null : 'no ffmpeg (apt-get install ffmpeg)'),
  'weight.ts': () => {
    const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
    return existsSync(chromium) ? null : `no Chromium at ${chromium}`;
  },
};
/** Shared helpers, not benches (video-flood.ts is the video bench's flood mode, replay-phone.ts the replay bench's phone). */
const NOT_BENCHES = new Set(['support.ts', 'video-flood.ts', 'replay-phone.ts']);

interface BenchOutput {
  bench: string;
  runs: { engine: string; mode?: string; consistency: { ok: boolean } }[];
}

/**
 * How long a bench may take to exit once it printed its result. Longer means something it opened was
 * never closed (a database, a timer, a socket), and the run would otherwise wait for the test's
 * whole timeout (weight.ts once did: 400 s) instead of saying so.
 */
const EXIT_AFTER_RESULT_MS = 30_000;

/** Whether the bench's output holds its whole JSON result. */
function printedResult(stdout: string): boolean {
  const start = stdout.indexOf('{');
  if (start < 0) return false;
  try {
    JSON.parse(stdout.slice(start));
    return true;
  } catch {
    return false;
  }
}

/**
 * A failed bench's stderr for an assertion message: the error it threw first (a CI summary shows a
 * message's first line only), then the output's tail.
 */
function failureMessage(stderr: string): string {
  const thrown = stderr
    .split('\n')
    .filter((line) => /^\w*Error\b/.test(line))
    .at(-1);
  return `${thrown ?? 'no error line in stderr'}\n${stderr.slice(-2_000)}`;
}

function runBench(file: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; hungAfterResult: boolean }> {
  return new Promise((resolve, reject) => {
    // PGlite unless `env` names a database: no DATABASE_URL of the parent's reaches the bench.
    const { DATABASE_URL: _url, ...parent } = process.env;
    // A process group of its own: tsx runs the bench in a child process, which a kill must reach too.
    const child = spawn(TSX, [`${BENCH_DIR}${file}`], { env: { ...parent, ENGINES: 'pglite', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let exitTimer: NodeJS.Timeout | null = null;
    let hungAfterResult = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (exitTimer || !printedResult(stdout)) return;
      exitTimer = setTimeout(() => {
        hungAfterResult = true;
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      }, EXIT_AFTER_RESULT_MS);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (exitTimer) clearTimeout(exitTimer);
      resolve({ code, stdout, stderr, hungAfterResult });
    });
  });
}

const benches = readdirSync(BENCH_DIR).filter((f) => f.endsWith('.ts') && !NOT_BENCHES.has(f));

/** Benches that start Chromium and a video server for each provider: run alone, after the others. */
const RUN_ALONE = new Set(['video.ts']);

function smokeTest(file: string): void {
  const reason = CANNOT_RUN[file]?.() ?? null;
  if (reason) console.log(`bench smoke: ${file} skipped: ${reason}`);
  // The video bench runs a server, Chromium and Janus per provider: more than the default 180 s on a busy machine.
  it.skipIf(reason !== null)(`${file} completes and its consistency checks hold`, { timeout: 400_000 }, async ({ expect }) => {
    const { code, stdout, stderr, hungAfterResult } = await runBench(file, SMOKE[file] ?? {});
    expect(hungAfterResult, `printed its result but had not exited ${EXIT_AFTER_RESULT_MS / 1000} s later: something it opened was never closed`).toBe(false);
    expect(code, failureMessage(stderr)).toBe(0);
    const output = JSON.parse(stdout.slice(stdout.indexOf('{'))) as BenchOutput;
    expect(output.runs.length).toBeGreaterThan(0);
    // One run per engine, or (video) per provider, all on PGlite.
    for (const run of output.runs) expect(run.engine).toBe('pglite');
    if (file !== 'video.ts') expect(output.runs).toHaveLength(1);
    else expect(output.runs.map((r) => r.mode)).toContain('flood');
    for (const run of output.runs) expect(run.consistency, JSON.stringify(run.consistency)).toMatchObject({ ok: true });
    if (file === 'bids.ts') {
      // RUNS=2: the two runs as one, each figure a median beside both runs' values; PROFILE: a profile per run.
      const [run] = output.runs as unknown as { detail: { profile?: string }[] }[];
      expect(output.runs[0]).toMatchObject({ runs: 2, each: { acceptedBidsPerS: [expect.any(Number), expect.any(Number)] } });
      for (const { profile } of run?.detail ?? []) expect(JSON.parse(readFileSync(profile as string, 'utf8'))).toHaveProperty('samples');
      rmSync(BIDS_PROFILE_DIR, { recursive: true, force: true });
    }
  });
}

describe('benches at a tiny size', () => {
  it('has a smoke run for every bench', () => {
    expect(benches.sort()).toEqual(Object.keys(SMOKE).sort());
  });

  // Each bench is a process of its own on its own ports and data folder, so a few run at once (the
  // project's maxConcurrency): 250 s for all of them instead of 306 s one after another on the 2-core
  // machine, where most of a tiny run is CPU (tsx, PGlite's start). Nothing here is timed.
  describe.concurrent('the lighter ones, a few at once', () => {
    for (const file of benches.filter((f) => !RUN_ALONE.has(f))) smokeTest(file);

    // The bids bench's several instances: node:cluster workers joined by Redis (the sharded adapter and the room relay), on PostgreSQL.
    const instancesMissing = !process.env.TEST_DATABASE_URL ? 'PostgreSQL (TEST_DATABASE_URL)' : !process.env.TEST_REDIS_URL ? 'Redis (TEST_REDIS_URL)' : null;
    if (instancesMissing) console.log(`bench smoke: bids.ts with two server instances skipped: no ${instancesMissing}`);
    it.skipIf(instancesMissing !== null)(
      'bids.ts with two server instances and two shows completes, each instance delivers to its share of the rooms, and its consistency checks hold',
      { timeout: 400_000 },
      async ({ expect }) => {
        const { code, stdout, stderr, hungAfterResult } = await runBench('bids.ts', {
          ...SMOKE['bids.ts'],
          ENGINES: 'postgresql',
          DATABASE_URL: process.env.TEST_DATABASE_URL as string,
          REDIS_URL: process.env.TEST_REDIS_URL as string,
          SERVER_INSTANCES: '2',
          // Two shows at once, so the per-show ladders, deliveries and checks run too.
          SHOWS: '2',
          RUNS: '1',
          // Pinning would take the shared PostgreSQL, which the other suites use meanwhile, to one core.
          SERVER_CPUS: '',
          // The lighter viewers the large runs use (the protocol by hand), so both kinds are smoked.
          VIEWER_CLIENT: 'raw',
        });
        expect(hungAfterResult, 'printed its result but its server instances had not exited').toBe(false);
        expect(code, failureMessage(stderr)).toBe(0);
        const output = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
          runs: {
            engine: string;
            instances: number;
            shows: number;
            deliveriesPerInstanceCoreS: number | null;
            adapterCpuShare: number | null;
            consistency: { ok: boolean };
            serverCpuByKind: Record<string, number> | null;
            processes: { server: { workers?: { messages: number; byKind: Record<string, number> | null }[] } };
          }[];
        };
        expect(output.runs).toHaveLength(1);
        const [run] = output.runs;
        expect(run).toMatchObject({ engine: 'postgresql', instances: 2, shows: 2 });
        expect(run?.processes.server.workers).toHaveLength(2);
        expect(run?.consistency, JSON.stringify(run?.consistency)).toMatchObject({ ok: true });
        // Three viewers dealt out in turn: both instances hold some, and each wrote to its own.
        for (const worker of run?.processes.server.workers ?? []) expect(worker.messages).toBeGreaterThan(0);
        expect(run?.deliveriesPerInstanceCoreS).toBeGreaterThan(0);
        // Where the instances' CPU went: every kind a share, together the whole.
        const shares = Object.values(run?.serverCpuByKind ?? {});
        expect(shares).toHaveLength(6);
        expect(shares.reduce((n, v) => n + v, 0)).toBeCloseTo(1, 1);
        expect(run?.adapterCpuShare).toBeGreaterThan(0);
        expect(run?.adapterCpuShare).toBeLessThan(1);
      },
    );
  });

  describe('the video bench, alone', () => {
    for (const file of benches.filter((f) => RUN_ALONE.has(f))) smokeTest(file);
  });
});
