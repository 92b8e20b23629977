import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type os from 'node:os';
import { cpus } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import type { Database } from '../src/server/db/connect.js';
import { authSessions, userProfiles, users } from '../src/server/db/schema.js';
import { hashToken } from '../src/server/sessions/store.js';

/** A throwaway database on the DATABASE_URL server, dropped afterwards. */
export async function withScratchPostgres<T>(adminUrl: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `martillo_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await fn(url.href);
  } finally {
    await admin(`drop database if exists "${name}" with (force)`);
  }
}

// ── Shared by the load benches (bids.ts, live-show.ts) ────────────────────────

/** The p-th percentile of an ascending list (nearest rank), rounded to 2 decimals; null when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return round(sorted[index] as number);
}
export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** To the parent process, resolved once the message is handed over (so the child may exit after it). */
export function sendToParent(message: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) return reject(new Error('not a child process'));
    process.send(message, undefined, {}, (err) => (err ? reject(err) : resolve()));
  });
}

/** The next message of this type; rejects if the peer exits first. */
export function onceMessage<T>(peer: NodeJS.Process | ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const handler = (m: unknown) => {
      if ((m as { type?: string })?.type !== type) return;
      cleanup();
      resolve(m as T);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`load process exited (${code}) before sending ${type}`));
    };
    const cleanup = () => {
      peer.off('message', handler);
      peer.off('exit', onExit);
    };
    peer.on('message', handler);
    peer.on('exit', onExit);
  });
}

/** Node's arguments for a child that runs a TypeScript bench file: under tsx, execArgv carries its loader; otherwise load it explicitly. */
export function tsxExecArgv(): string[] {
  return process.execArgv.some((a) => a.includes('tsx')) ? process.execArgv : ['--import', 'tsx'];
}

/**
 * This same bench file in a child process with `role` in `roleEnv`, under tsx. `ownSession` starts
 * it in a session (so a Linux autogroup) of its own, whose share of a core it may then lower.
 */
export function forkRole(file: string, roleEnv: string, role: string, opts: { ownSession?: boolean } = {}): ChildProcess {
  return fork(file, [], {
    execArgv: tsxExecArgv(),
    env: { ...process.env, [roleEnv]: role },
    serialization: 'advanced',
    stdio: 'inherit',
    detached: opts.ownSession ?? false,
  });
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

/** Busy share of all CPUs between two os.cpus() samples. */
export function cpuBusy(before: os.CpuInfo[], after: os.CpuInfo[]): number {
  let busy = 0;
  let total = 0;
  for (const [i, a] of after.entries()) {
    const b = before[i] as os.CpuInfo;
    const t = (x: os.CpuInfo['times']) => x.user + x.nice + x.sys + x.irq + x.idle;
    total += t(a.times) - t(b.times);
    busy += t(a.times) - t(b.times) - (a.times.idle - b.times.idle);
  }
  return total ? round(busy / total, 2) : 0;
}

/** `count` buyers with complete profiles (so they may bid) and a sign-in session each: their ids and session cookies. */
export async function seedBuyers(database: Database, secret: string, count: number): Promise<{ userIds: string[]; cookies: string[] }> {
  const db = database.db;
  const userIds: string[] = [];
  const cookies: string[] = [];
  const expiresAt = new Date(Date.now() + 86_400_000);
  const NAMES = ['Juana', 'Pedro', 'Lucía', 'Marco', 'Rosa', 'Luis', 'Carmen', 'Diego'];
  const SURNAMES = ['Pérez', 'López', 'García', 'Hernández', 'Martínez', 'Ramírez'];
  for (let startAt = 0; startAt < count; startAt += 500) {
    const batch = Array.from({ length: Math.min(500, count - startAt) }, (_, k) => startAt + k);
    const inserted = await db
      .insert(users)
      .values(batch.map((i) => ({ email: `postor-${i}@bench.mx` })))
      .returning({ id: users.id, email: users.email });
    await db.insert(userProfiles).values(
      inserted.map((u, k) => {
        const i = batch[k] as number;
        const local = String(3_300_000_000 + i);
        return {
          userId: u.id,
          email: u.email,
          firstName: NAMES[i % NAMES.length],
          lastName: SURNAMES[i % SURNAMES.length],
          roles: ['buyer'],
          whatsapp: `+52${local}`,
          whatsappCountryCode: '+52',
          whatsappLocal: local,
          whatsappConsentGiven: true,
          whatsappConsentAt: new Date(),
        };
      }),
    );
    const tokens = inserted.map(() => randomBytes(32).toString('base64url'));
    await db.insert(authSessions).values(inserted.map((u, k) => ({ tokenHash: hashToken(tokens[k] as string, secret), userId: u.id, expiresAt })));
    for (const [k, u] of inserted.entries()) {
      userIds.push(u.id);
      cookies.push(tokens[k] as string);
    }
  }
  return { userIds, cookies };
}

/**
 * Runs a bench on PGlite, then on PostgreSQL when DATABASE_URL is set (in a throwaway database on
 * that server), and prints one JSON document. ENGINES=postgresql skips PGlite (e.g. to profile one
 * engine).
 */
export async function runOnEngines<R>(
  bench: string,
  runOn: (engine: 'pglite' | 'postgresql', databaseUrl?: string) => Promise<R>,
  repeat?: { times: number; combine: (runs: R[]) => unknown },
): Promise<void> {
  const engines = (process.env.ENGINES ?? 'pglite,postgresql').split(',').map((e) => e.trim());
  const runs: unknown[] = [];
  // Each repetition from scratch: its own data folder, or its own throwaway PostgreSQL database.
  const repeated = async (once: () => Promise<R>) => {
    if (!repeat || repeat.times === 1) return once();
    const each: R[] = [];
    for (let i = 0; i < repeat.times; i++) each.push(await once());
    return repeat.combine(each);
  };
  if (engines.includes('pglite')) runs.push(await repeated(() => runOn('pglite')));
  const postgres = process.env.DATABASE_URL;
  if (postgres && engines.includes('postgresql')) runs.push(await repeated(() => withScratchPostgres(postgres, (url) => runOn('postgresql', url))));
  console.log(JSON.stringify({ bench, at: new Date().toISOString(), node: process.version, cpus: cpus().length, runs }, null, 2));
}

// ── CPU affinity (Linux, util-linux's taskset) ───────────────────────────────

/** Every core of this machine but those in `list` ("0", "0,2", "1-3"), as taskset's list; null when none is left. */
export function otherCpus(list: string): string | null {
  const chosen = new Set<number>();
  for (const part of list.split(',')) {
    const [from, to = from] = part.split('-').map((n) => Number(n.trim()));
    if (!Number.isInteger(from) || !Number.isInteger(to)) throw new Error(`not a CPU list: ${list}`);
    for (let cpu = from as number; cpu <= (to as number); cpu++) chosen.add(cpu);
  }
  const rest = cpus()
    .map((_, cpu) => cpu)
    .filter((cpu) => !chosen.has(cpu));
  return rest.length > 0 ? rest.join(',') : null;
}

/** Every thread of `pid` on the cores `list`; threads it starts later inherit them. */
export function pinProcess(pid: number, list: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
}

/**
 * The local PostgreSQL (its postmaster and every process it has started) on the cores `list`;
 * backends it starts later inherit them. Returns how to give it every core back, or null when the
 * server is not a process of this machine (a remote DATABASE_URL) or cannot be pinned.
 */
export async function pinPostgres(databaseUrl: string, list: string): Promise<(() => void) | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const backend = Number((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid);
    const postmaster = Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(backend)], { encoding: 'utf8' }).trim());
    if (!Number.isInteger(postmaster) || postmaster <= 1) return null;
    const children = () => {
      try {
        return execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean)
          .map(Number);
      } catch {
        return []; // pgrep found none
      }
    };
    const pinFamily = (cores: string) => {
      pinProcess(postmaster, cores);
      for (const pid of children()) {
        try {
          pinProcess(pid, cores);
        } catch {
          // A backend that ended meanwhile.
        }
      }
    };
    pinFamily(list);
    return () => pinFamily(`0-${cpus().length - 1}`);
  } catch {
    return null;
  } finally {
    await client.end();
  }
}

/** The median of some runs' figures (the lower middle one of an even count), rounded to 2 decimals; null when there are none. */
export function median(values: readonly number[]): number | null {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** Resident memory of a process, MB (VmRSS, Linux), or null when it is gone. */
/**
 * A full garbage collection of this process, so a memory reading after it holds what is live rather
 * than what the last collection left (the `gc` that `--expose-gc` would give, made at run time).
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? round(Number(match[1]) / 1024, 1) : null;
  } catch {
    return null;
  }
}
