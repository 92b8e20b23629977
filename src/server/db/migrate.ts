import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ROOT } from '../root.js';
import { applyFunctions, FUNCTIONS_DIR } from './apply-functions.js';
import { type Database, type Db, rows } from './connect.js';

export const MIGRATIONS_DIR = path.join(ROOT, 'drizzle');
/** Any fixed 64-bit number works; every Martillo instance uses this one for migrations. */
const MIGRATION_LOCK_KEY = 7_301_924_001;

/**
 * Applies pending migrations, then the function files that changed (apply-functions.ts). Two
 * instances starting together queue on the advisory lock. The folders are options for tests.
 */
export async function migrateDatabase(database: Database, opts: { migrationsFolder?: string; functionsDir?: string } = {}): Promise<void> {
  await database.withAdvisoryLock(MIGRATION_LOCK_KEY, async (db) => {
    const config = { migrationsFolder: opts.migrationsFolder ?? MIGRATIONS_DIR };
    // Each engine's migrator is imported when it runs, as its driver is (connect.ts).
    if (database.kind === 'embedded') {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      // biome-ignore lint/suspicious/noExplicitAny: each migrator wants its own driver's database type.
      await migrate(db as any, config);
    } else {
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      // biome-ignore lint/suspicious/noExplicitAny: as above.
      await migrate(db as any, config);
    }
    await applyFunctions(db, opts.functionsDir ?? FUNCTIONS_DIR);
  });
}

function expectedMigrationCount(): number {
  const journal = JSON.parse(readFileSync(`${MIGRATIONS_DIR}/meta/_journal.json`, 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

/** For /readyz: true once every migration in drizzle/ is recorded as applied. */
export async function migrationsApplied(db: Db): Promise<boolean> {
  try {
    const [row] = rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`));
    return Number(row?.n ?? 0) >= expectedMigrationCount();
  } catch {
    return false;
  }
}
