import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { connectDatabase, type Database, type Db } from '../../src/server/db/connect.js';
import { migrateDatabase } from '../../src/server/db/migrate.js';
import { auditLog } from '../../src/server/db/schema.js';

/** Which engine this Vitest project runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const engine = process.env.TEST_ENGINE === 'postgresql' ? 'postgresql' : 'pglite';

export interface TestDatabase extends Database {
  /** Closes the connection and, on PostgreSQL, drops the throwaway database. */
  destroy(): Promise<void>;
}

/**
 * Where the suites' global setup (test/support/template-databases.ts) left a migrated database
 * for every test file to start from: a PGlite copy (a file) and a PostgreSQL template (a database
 * name on TEST_DATABASE_URL). Without them (a bench, a script) each database is migrated itself.
 */
export const TEMPLATE_ENV = { pglite: 'MARTILLO_TEST_PGLITE_TEMPLATE', postgresql: 'MARTILLO_TEST_POSTGRES_TEMPLATE' } as const;

/** The PGlite template's bytes, read once per worker. */
let pgliteTemplate: { file: string; bytes: Uint8Array } | null = null;
function pgliteCopy(): Uint8Array | undefined {
  const file = process.env[TEMPLATE_ENV.pglite];
  if (!file) return undefined;
  if (pgliteTemplate?.file !== file) pgliteTemplate = { file, bytes: new Uint8Array(readFileSync(file)) };
  return pgliteTemplate.bytes;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new PostgreSQL database.
 * Both start from the migrated template when there is one (making and migrating a PGlite database
 * took about 6 s a file, copying one about 1.5 s), and are migrated as every server start does,
 * which finds nothing to do on a current template.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const copy = pgliteCopy();
    if (!copy || process.env[OPEN_SPARE_ENV] !== '1') return openPglite(copy);
    // Opening a copy is PostgreSQL's start in PGlite's thread, 1.2–1.9 s, while the test file's own
    // work mostly waits on one core. So one more copy opens in the background for the next file
    // (the server suites share the worker's modules between files, vitest.config.ts). Only there:
    // the last spare is never closed, and the end of Vitest's worker takes it down, where a process
    // of its own (a bench the smoke test starts, which inherits the template) would wait for it forever.
    const ready = spare ?? openPglite(copy);
    spare = openPglite(copy);
    // A spare that failed to open fails the file that takes it, not this one.
    spare.catch(() => {});
    return ready;
  }
  const target = await createPostgresDatabase(process.env[TEMPLATE_ENV.postgresql] ?? null);
  if (!target) throw new Error('TEST_ENGINE=postgresql needs TEST_DATABASE_URL');
  const database = await connectDatabase({ kind: 'postgresql', url: target.url }, { poolSize: 5 });
  await migrateDatabase(database);
  return {
    ...database,
    async destroy() {
      await database.close();
      await target.drop();
    },
  };
}

/** Set to 1 by the server suites' Vitest projects: keep a spare PGlite copy opening for the next file. */
const OPEN_SPARE_ENV = 'MARTILLO_TEST_OPEN_SPARE';

/** The PGlite copy the next file will take, opening meanwhile (see createTestDatabase). */
let spare: Promise<TestDatabase> | null = null;

async function openPglite(copy: Uint8Array | undefined): Promise<TestDatabase> {
  const database = await connectDatabase({ kind: 'embedded', dir: null, ...(copy ? { copy } : {}) });
  await migrateDatabase(database);
  return { ...database, destroy: () => database.close() };
}

async function asAdmin(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A new, empty database on the TEST_DATABASE_URL server (null without one), dropped by `drop()`. */
export function createEmptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  return createPostgresDatabase(null);
}

/** A new database on the TEST_DATABASE_URL server (null without one): empty, or a copy of `template`. */
async function createPostgresDatabase(template: string | null): Promise<{ url: string; drop(): Promise<void> } | null> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return null;
  const name = `martillo_test_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, `create database "${name}"${template ? ` template "${template}"` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => asAdmin(adminUrl, `drop database if exists "${name}" with (force)`) };
}

/** How many times the audit log recorded this auction's close: once, whoever closed it. */
export async function closeAudits(db: Db, auctionId: string): Promise<number> {
  const found = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'auction.closed'), eq(auditLog.entityId, auctionId)));
  return found.length;
}
