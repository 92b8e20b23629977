import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTableRelationsHelpers, type ExtractTablesWithRelations, extractTablesRelationalConfig, sql } from 'drizzle-orm';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { PID_FILE, serveBackups } from './backup.js';
import { PgliteThread } from './pglite-thread.js';
import * as schema from './schema.js';

/** What both drivers' databases are (drizzle-orm/pglite's and drizzle-orm/node-postgres'): the code runs on either. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle: services take `Db | Tx` so they compose inside one transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** PGlite on disk in `dir`, or in memory when dir is null (starting from `copy`, what backup() gives, if set); or PostgreSQL. */
export type DatabaseTarget = { kind: 'embedded'; dir: string | null; copy?: Uint8Array } | { kind: 'postgresql'; url: string };

export interface Database {
  db: Db;
  kind: 'embedded' | 'postgresql';
  /** Runs `fn` while holding a session-level advisory lock on one connection. */
  withAdvisoryLock<T>(key: number, fn: (db: Db) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /** The embedded database only: a copy of it at one moment (db/backup.ts). */
  backup?(): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * Opens PGlite (on disk, or in memory when dir is null) or a PostgreSQL pool. Each engine's driver
 * is imported when it is chosen: a server loads one of them, not both (bench/README.md, idle memory).
 */
export async function connectDatabase(target: DatabaseTarget, opts: { poolSize?: number } = {}): Promise<Database> {
  if (target.kind === 'postgresql') return connectPostgres(target.url, opts.poolSize ?? 10);
  return connectPglite(target.dir, target.copy);
}

async function connectPglite(dir: string | null, copy: Uint8Array | undefined): Promise<Database> {
  const unlock = dir ? lockDirectory(dir) : () => {};
  let client: PgliteThread;
  try {
    // On its own thread, so statements and the server's HTTP and Socket.IO work run at once.
    client = await PgliteThread.create({ dataDir: dir, ...(copy ? { copy } : {}) });
  } catch (err) {
    unlock();
    throw err;
  }
  // On disk, `npm run db:backup` asks this process for its copy: the folder is this process's alone.
  const backups = dir ? await serveBackups(dir, () => client.dump()).catch(() => null) : null;
  const db = await drizzleOverThread(client);
  // One PGlite session holds advisory locks re-entrantly, so callers in this process queue here.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    db,
    kind: 'embedded',
    withAdvisoryLock(key, fn) {
      const run = queue.then(async () => {
        await client.query('select pg_advisory_lock($1)', [key]);
        try {
          return await fn(db);
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]);
        }
      });
      queue = run.catch(() => {});
      return run;
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    backup: () => client.dump(),
    async close() {
      await backups?.close();
      if (!client.closed) await client.close();
      unlock();
    },
  };
}

/**
 * drizzle-orm/pglite's database over the thread. Its `drizzle()` takes a PGlite instance only, but
 * its session takes any client with PGlite's `Transaction` interface, which the thread offers
 * (pglite-thread.ts): so the database is put together as `drizzle()` does it, from the dialect, the
 * session and the schema's tables and relations.
 */
async function drizzleOverThread(client: PgliteThread): Promise<Db> {
  const { PgliteDatabase, PgliteSession } = await import('drizzle-orm/pglite');
  const dialect = new PgDialect({ casing: 'snake_case' });
  const tables = extractTablesRelationalConfig<ExtractTablesWithRelations<typeof schema>>(schema, createTableRelationsHelpers);
  const relational = { fullSchema: schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap };
  return new PgliteDatabase<typeof schema>(dialect, new PgliteSession(client, dialect, relational), relational);
}

export class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError';
}

/**
 * PGlite on disk belongs to one process: a second server on the same DATA_DIR would corrupt it.
 * A pid file claims the folder; a file left by a process that no longer runs is taken over.
 */
function lockDirectory(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, PID_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (owner && owner !== process.pid && isRunning(owner)) {
        throw new DatabaseInUseError(
          `The embedded database in ${dir} is in use by another Martillo process (pid ${owner}). Stop it, or set DATA_DIR or DATABASE_URL.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DatabaseInUseError(`Could not lock ${dir}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function connectPostgres(url: string, max: number): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 });
  // An idle client's network error must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
  let closed = false;
  return {
    db,
    kind: 'postgresql',
    async withAdvisoryLock(key, fn) {
      const conn = await pool.connect();
      try {
        await conn.query('select pg_advisory_lock($1)', [key]);
        try {
          return await fn(drizzlePg({ client: conn, schema, casing: 'snake_case' }));
        } finally {
          await conn.query('select pg_advisory_unlock($1)', [key]);
        }
      } finally {
        conn.release();
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** The rows of `db.execute(sql...)`: both drivers answer `{ rows }`, typed here once. */
export function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
