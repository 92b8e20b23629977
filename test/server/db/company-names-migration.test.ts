import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database, rows } from '../../../src/server/db/connect.js';
import { MIGRATIONS_DIR, migrateDatabase } from '../../../src/server/db/migrate.js';
import { createEmptyPostgresDatabase, engine } from '../../support/db.js';

/** A copy of drizzle/ that stops after 0005, so a database can be built as it was before companies. */
function migrationsUpTo(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'martillo-migrations-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === tag);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, end + 1) }));
  return dir;
}

const U = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];
const SOLO = '00000000-0000-4000-8000-000000000004';
const SOLO_UNNAMED = '00000000-0000-4000-8000-000000000005';

describe('migration 0007 names every company from what was there', () => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  let folder: string;

  beforeAll(async () => {
    const target = engine === 'postgresql' ? await createEmptyPostgresDatabase() : null;
    database = target
      ? await connectDatabase({ kind: 'postgresql', url: target.url }, { poolSize: 2 })
      : await connectDatabase({ kind: 'embedded', dir: null });
    drop = target?.drop;
    folder = migrationsUpTo('0005_payments');
    // biome-ignore lint/suspicious/noExplicitAny: each migrator wants its own driver's database type.
    if (database.kind === 'embedded') await migratePglite(database.db as any, { migrationsFolder: folder });
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    else await migratePg(database.db as any, { migrationsFolder: folder });
    const db = database.db;
    // Raw SQL: the tables as 0005 left them, whatever later migrations add to the schema.
    for (const [i, id] of [...U, SOLO, SOLO_UNNAMED].entries())
      await db.execute(sql`insert into users (id, email) values (${id}::uuid, ${`u${i}@ejemplo.mx`})`);
    const profile = (id: string, companyId: string | null, companyName: string | null, displayName: string | null, updated: string) =>
      db.execute(sql`insert into user_profiles (user_id, email, company_id, company_name, display_name, roles, updated_at)
        values (${id}::uuid, ${`${id}@ejemplo.mx`}, ${companyId}, ${companyName}, ${displayName}, array['seller']::text[], ${updated}::timestamptz)`);
    // 'tianguis': three members; the most recently updated one with a name wins, an empty name does not count.
    await profile(U[0] as string, 'tianguis', 'Tianguis Viejo', 'Ana', '2026-01-01T00:00:00Z');
    await profile(U[1] as string, 'tianguis', 'El Tianguis Tapatío', 'Beto', '2026-03-01T00:00:00Z');
    await profile(U[2] as string, 'sin-nombre', '  ', 'Carla', '2026-04-01T00:00:00Z');
    await db.execute(sql`update user_profiles set company_id = 'tianguis' where user_id = ${U[2]}::uuid`);
    await db.execute(sql`update user_profiles set updated_at = '2026-05-01T00:00:00Z' where user_id = ${U[2]}::uuid`);
    await profile(SOLO, null, 'Antigüedades Solís', 'Sol', '2026-01-01T00:00:00Z');
    await profile(SOLO_UNNAMED, null, null, 'Lupita Ramos', '2026-01-01T00:00:00Z');
    // A member-less company ('sin-nombre' lost its only member) still has an auction.
    const auction = (companyId: string) =>
      db.execute(sql`insert into auctions (name, description, starting_price, company_id) values ('Lote', 'Desc', 100, ${companyId})`);
    await auction('tianguis');
    await auction(SOLO);
    await auction('sin-nombre');
    await db.execute(
      sql`insert into live_sessions (title, seller_id, company_id, scheduled_at) values ('Jueves', ${SOLO_UNNAMED}::uuid, ${SOLO_UNNAMED}, now())`,
    );
    await db.execute(
      sql`insert into payments (winner_id, winner_name, company_id, company_name) values (${U[0]}::uuid, 'Ganador', 'huerfana', 'Nombre en el pago')`,
    );
    await migrateDatabase(database);
  });

  afterAll(async () => {
    await database?.close();
    await drop?.();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('creates one record per company id in use, named as the issue asks', async () => {
    const found = rows<{ id: string; name: string }>(await database.db.execute(sql`select id, name from companies order by id`));
    expect(found).toEqual(
      [
        { id: SOLO, name: 'Antigüedades Solís' },
        { id: SOLO_UNNAMED, name: 'Lupita Ramos' },
        { id: 'huerfana', name: 'Nombre en el pago' },
        { id: 'sin-nombre', name: 'sin-nombre' },
        { id: 'tianguis', name: 'El Tianguis Tapatío' },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
  });
});
