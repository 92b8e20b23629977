/**
 * Idle memory: the resident set (RSS) of a started server with no traffic, as an operator starts it.
 *
 * - `development` on PGlite: `npm start` on a fresh checkout (the server built from its sources into a cache folder, run with node).
 * - `production` on PGlite and on PostgreSQL: `NODE_ENV=production npm start`, the release that
 *   `npm run build` makes (built once here when MODES asks for it).
 *
 * Each run starts the server in a child process on an empty database, waits for `/readyz` and one
 * page, lets it settle, then reads VmRSS (the PGlite thread lives in the same process; no SFU
 * process runs until someone broadcasts). Targets: production on PostgreSQL under 150 MB, the
 * embedded start under 350 MB. Knobs: MODES (development,production), ENGINES (pglite,postgresql),
 * DATABASE_URL, SETTLE_S (5).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/support/net.js';
import { sleep, withScratchPostgres } from './support.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODES = (process.env.MODES ?? 'development,production').split(',').map((m) => m.trim());
const ENGINES = (process.env.ENGINES ?? 'pglite,postgresql').split(',').map((e) => e.trim());
const SETTLE_S = Number(process.env.SETTLE_S ?? 5);
const TARGET_MB = { production: { postgresql: 150, pglite: 350 }, development: { pglite: 350, postgresql: 350 } } as const;

type Mode = 'development' | 'production';
type Engine = 'pglite' | 'postgresql';

interface Run {
  engine: Engine;
  mode: Mode;
  rssMb: number;
  /** VmHWM: the most the process held while starting (migrations, the first page). */
  peakRssMb: number;
  targetMb: number;
  meetsTarget: boolean;
  startSeconds: number;
  consistency: { ok: boolean; ready: boolean; page: boolean };
}

function readStatus(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
}

async function waitReady(base: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output()}`);
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`no /readyz within 120 s:\n${output()}`);
}

async function measure(mode: Mode, engine: Engine, databaseUrl?: string): Promise<Run> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'martillo-idle-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(mode === 'production'
      ? {
          NODE_ENV: 'production',
          SESSION_SECRET: randomBytes(32).toString('hex'),
          PUBLIC_URL: base,
          // Required in production; nobody signs in here.
          GOOGLE_CLIENT_ID: 'bench',
          GOOGLE_CLIENT_SECRET: 'bench',
          PAYMENTS_PROVIDER: 'sandbox',
          PAYMENTS_SANDBOX_PUBLIC_DEMO: 'true',
        }
      : {}),
  };
  let out = '';
  const started = Date.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  try {
    await waitReady(base, child, () => out);
    const startSeconds = Math.round((Date.now() - started) / 100) / 10;
    const page = (await (await fetch(`${base}/`)).text()).includes('<div id="root">');
    await sleep(SETTLE_S * 1000);
    const { rss, hwm } = readStatus(child.pid as number);
    const targetMb = TARGET_MB[mode][engine];
    return {
      engine,
      mode,
      rssMb: rss,
      peakRssMb: hwm,
      targetMb,
      meetsTarget: rss < targetMb,
      startSeconds,
      consistency: { ok: page, ready: true, page },
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (MODES.includes('production')) execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const runs: Run[] = [];
  for (const mode of MODES as Mode[]) {
    if (ENGINES.includes('pglite')) runs.push(await measure(mode, 'pglite'));
    // The development start on PostgreSQL says nothing the production one does not; it is measured only when asked for alone.
    if (process.env.DATABASE_URL && ENGINES.includes('postgresql') && (mode === 'production' || MODES.length === 1)) {
      runs.push(await withScratchPostgres(process.env.DATABASE_URL, (url) => measure(mode, 'postgresql', url)));
    }
  }
  console.log(JSON.stringify({ bench: 'idle-memory', at: new Date().toISOString(), node: process.version, cpus: cpus().length, runs }, null, 2));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
