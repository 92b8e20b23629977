import { randomBytes } from 'node:crypto';
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

/** A fresh, migrated database for one test file: in-memory PGlite, or a new PostgreSQL database. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const database = await connectDatabase({ kind: 'embedded', dir: null });
    await migrateDatabase(database);
    return { ...database, destroy: () => database.close() };
  }
  const target = await createEmptyPostgresDatabase();
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
export async function createEmptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return null;
  const name = `martillo_test_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, `create database "${name}"`);
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
