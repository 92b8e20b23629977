import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { applyFunctions, FUNCTIONS_DIR, readFunctionFiles } from '../../../src/server/db/apply-functions.js';
import { connectDatabase, type Database, rows } from '../../../src/server/db/connect.js';
import { MIGRATIONS_DIR, migrateDatabase } from '../../../src/server/db/migrate.js';
import { createEmptyPostgresDatabase, engine } from '../../support/db.js';

/** The sha256 of every migration, added with the migration itself: once landed, a file never changes. */
const manifest = JSON.parse(readFileSync(new URL('./fixtures/landed-migrations.json', import.meta.url), 'utf8')) as Record<string, string>;
/** drizzle/0003_bidding.sql as it first landed (2f2d07c), before it was edited in place. */
const ORIGINAL_0003 = fileURLToPath(new URL('./fixtures/0003_bidding.original.sql', import.meta.url));

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'martillo-migrations-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An empty database on this project's engine, closed (and dropped) after the file. */
async function emptyDatabase(): Promise<Database> {
  if (engine === 'pglite') {
    const database = await connectDatabase({ kind: 'embedded', dir: null });
    cleanups.push(() => database.close());
    return database;
  }
  const target = await createEmptyPostgresDatabase();
  if (!target) throw new Error('TEST_ENGINE=postgresql needs TEST_DATABASE_URL');
  const database = await connectDatabase({ kind: 'postgresql', url: target.url }, { poolSize: 2 });
  cleanups.push(async () => {
    await database.close();
    await target.drop();
  });
  return database;
}

/** Every function Martillo defines (extensions' own left out), with its full definition. */
async function functionDefinitions(database: Database): Promise<{ name: string; definition: string }[]> {
  return rows<{ name: string; definition: string }>(
    await database.db.execute(sql`
      select p.oid::regprocedure::text as name, pg_get_functiondef(p.oid) as definition
      from pg_proc p
      where p.pronamespace = 'public'::regnamespace
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
      order by 1`),
  );
}

async function recorded(database: Database): Promise<Map<string, { sha256: string; appliedAt: string }>> {
  const list = rows<{ name: string; sha256: string; applied_at: string }>(
    await database.db.execute(sql`select name, sha256, applied_at::text from martillo_functions`),
  );
  return new Map(list.map((r) => [r.name, { sha256: r.sha256, appliedAt: r.applied_at }]));
}

describe('landed migrations', () => {
  it('are never edited: each file still has the sha256 it landed with', () => {
    const journal = JSON.parse(readFileSync(`${MIGRATIONS_DIR}/meta/_journal.json`, 'utf8')) as { entries: { tag: string }[] };
    const tags = journal.entries.map((e) => e.tag);
    for (const [tag, sha256] of Object.entries(manifest)) {
      expect(tags, `${tag} is landed and must stay in drizzle/meta/_journal.json`).toContain(tag);
      const text = readFileSync(`${MIGRATIONS_DIR}/${tag}.sql`);
      expect(createHash('sha256').update(text).digest('hex'), `drizzle/${tag}.sql changed: landed migrations are never edited; add a new one`).toBe(sha256);
    }
    // A new migration enters the manifest in the commit that adds it, so it is frozen from the moment it lands.
    expect(Object.keys(manifest), 'every migration in the journal needs its sha256 in fixtures/landed-migrations.json').toEqual(tags);
  });
});

// Each test migrates one or two databases from nothing.
describe('function files', { timeout: 120_000 }, () => {
  it('leave a database that applied the original 0003 with the same functions as a fresh one', async () => {
    const folder = tempDir();
    cpSync(MIGRATIONS_DIR, folder, { recursive: true });
    cpSync(ORIGINAL_0003, path.join(folder, '0003_bidding.sql'));
    const drifted = await emptyDatabase();
    await migrateDatabase(drifted, { migrationsFolder: folder });
    const fresh = await emptyDatabase();
    await migrateDatabase(fresh);

    const freshFunctions = await functionDefinitions(fresh);
    expect(freshFunctions.map((f) => f.name)).toContain('place_bids(jsonb)');
    expect(await functionDefinitions(drifted)).toEqual(freshFunctions);
  });

  it('own every function Martillo defines: each one in a migrated database has its file, recorded as applied', async () => {
    const database = await emptyDatabase();
    await migrateDatabase(database);
    const inDatabase = [...new Set((await functionDefinitions(database)).map((f) => f.name.slice(0, f.name.indexOf('('))))].sort();
    const files = readFunctionFiles()
      .map((f) => f.name)
      .sort();
    expect(inDatabase).toEqual(files);
    expect([...(await recorded(database)).keys()].sort()).toEqual(files);
    // Starting again finds every file applied: nothing to do but one read.
    expect(await applyFunctions(database.db)).toEqual([]);
  });

  it('are applied again when their content changes, and only then', async () => {
    const dir = tempDir();
    cpSync(FUNCTIONS_DIR, dir, { recursive: true });
    const database = await emptyDatabase();
    await migrateDatabase(database, { functionsDir: dir });
    const first = await recorded(database);
    expect([...first.keys()].sort()).toEqual(
      readFunctionFiles()
        .map((f) => f.name)
        .sort(),
    );

    const file = path.join(dir, 'bid-line.sql');
    writeFileSync(file, readFileSync(file, 'utf8').replace('\'seq\', b."seq"', "'seq', b.\"seq\", 'changed', true"));
    await migrateDatabase(database, { functionsDir: dir });
    const second = await recorded(database);
    expect(second.get('bid_line')?.sha256).not.toBe(first.get('bid_line')?.sha256);
    expect(second.get('bid_line')?.appliedAt).not.toBe(first.get('bid_line')?.appliedAt);
    for (const [name, row] of first) if (name !== 'bid_line') expect(second.get(name), name).toEqual(row);
    const [definition] = rows<{ d: string }>(await database.db.execute(sql`select pg_get_functiondef('bid_line(bids)'::regprocedure) as d`));
    expect(definition?.d).toContain("'changed', true");
  });

  it('are applied again when a later migration drops or redefines their function', async () => {
    const database = await emptyDatabase();
    await migrateDatabase(database);
    const before = await functionDefinitions(database);
    // What a careless later migration could do to functions the files own.
    await database.db.execute(sql.raw('drop function bid_refusal(auctions, uuid, text)'));
    await database.db.execute(
      sql.raw(`create or replace function company_starting_name(p_id text, p_name text) returns text language sql stable as $$ select 'drifted' $$`),
    );
    expect(await applyFunctions(database.db)).toEqual(['bid_refusal', 'company_starting_name']);
    expect(await functionDefinitions(database)).toEqual(before);
    expect(await applyFunctions(database.db)).toEqual([]);
  });

  it('drop the old overload when a function file changes its signature', async () => {
    const dir = tempDir();
    cpSync(FUNCTIONS_DIR, dir, { recursive: true });
    const file = path.join(dir, 'zz-probe.sql');
    writeFileSync(file, 'create or replace function zz_probe(a integer) returns integer language sql as $$ select a $$;\n');
    const database = await emptyDatabase();
    await migrateDatabase(database, { functionsDir: dir });
    writeFileSync(
      file,
      '-- Now with two arguments.\nCREATE OR REPLACE FUNCTION zz_probe(a integer, b integer) RETURNS integer LANGUAGE sql AS $$ SELECT a + b $$;\n',
    );
    await migrateDatabase(database, { functionsDir: dir });
    const names = (await functionDefinitions(database)).map((f) => f.name).filter((n) => n.startsWith('zz_probe'));
    expect(names).toEqual(['zz_probe(integer,integer)']);
  });

  it('refuse a file that does not define the function its name says', async () => {
    const dir = tempDir();
    cpSync(FUNCTIONS_DIR, dir, { recursive: true });
    writeFileSync(path.join(dir, 'zz-misnamed.sql'), 'create or replace function zz_other() returns integer language sql as $$ select 1 $$;\n');
    const database = await emptyDatabase();
    await expect(migrateDatabase(database, { functionsDir: dir })).rejects.toThrow('zz-misnamed.sql must define the function zz_misnamed');
    expect((await functionDefinitions(database)).map((f) => f.name)).not.toContain('zz_other()');
  });
});
