import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../../src/server/audit.js';
import { connectDatabase, type Database, rows } from '../../../src/server/db/connect.js';
import { MIGRATIONS_DIR, migrateDatabase } from '../../../src/server/db/migrate.js';
import { createEmptyPostgresDatabase, engine } from '../../support/db.js';

/** A copy of drizzle/ that stops after `tag`, so a database can be built as it was then. */
function migrationsUpTo(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'martillo-migrations-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === tag);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, end + 1) }));
  return dir;
}

/** Each action as rows before 0019 spelled it, and as it is spelled now. */
const RESPELLED = [
  ['payment.addAuctions', 'payment.add_auctions'],
  ['payment.requestPayout', 'payment.request_payout'],
  ['payment.markPaidOut', 'payment.mark_paid_out'],
  ['unpaid.secondChance.decline', 'unpaid.second_chance.decline'],
  ['payments.connect', 'payment.connect'],
] as const;

describe('migration 0019: the audit log keeps one spelling per action and gains the request id', () => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  let folder: string;

  beforeAll(async () => {
    const target = engine === 'postgresql' ? await createEmptyPostgresDatabase() : null;
    database = target
      ? await connectDatabase({ kind: 'postgresql', url: target.url }, { poolSize: 2 })
      : await connectDatabase({ kind: 'embedded', dir: null });
    drop = target?.drop;
    folder = migrationsUpTo('0018_chat_address_pace');
    // biome-ignore lint/suspicious/noExplicitAny: each migrator wants its own driver's database type.
    if (database.kind === 'embedded') await migratePglite(database.db as any, { migrationsFolder: folder });
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    else await migratePg(database.db as any, { migrationsFolder: folder });
    // Raw SQL: the table as 0018 left it, with no request_id column yet.
    for (const [old] of RESPELLED)
      await database.db.execute(sql`insert into audit_log (action, entity_type, entity_id) values (${old}, 'payment', ${`old ${old}`})`);
    await database.db.execute(sql`insert into audit_log (action, entity_type, entity_id) values ('category.create', 'category', 'kept')`);
    await migrateDatabase(database);
  });

  afterAll(async () => {
    await database?.close();
    await drop?.();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('rewrites the older rows’ spellings to the one each action has now, and leaves the rest as they were', async () => {
    const found = rows<{ entity_id: string; action: string; request_id: string | null }>(
      await database.db.execute(sql`select entity_id, action, request_id from audit_log order by id`),
    );
    expect(found).toEqual([
      ...RESPELLED.map(([old, now]) => ({ entity_id: `old ${old}`, action: now, request_id: null })),
      { entity_id: 'kept', action: 'category.create', request_id: null },
    ]);
  });

  it('rewrites to spellings the server writes today', () => {
    for (const [, now] of RESPELLED) expect(AUDIT_ACTIONS).toContain(now);
  });
});
