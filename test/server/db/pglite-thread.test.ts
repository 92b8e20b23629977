import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgError, UNIQUE_VIOLATION } from '../../../src/server/db/errors.js';
import { PgliteThread } from '../../../src/server/db/pglite-thread.js';

/** PGlite on its worker thread (src/server/db/pglite-thread.ts), through the handle drizzle and connect.ts use. */

let db: PgliteThread;
beforeAll(async () => {
  db = await PgliteThread.create({ dataDir: null });
  await db.exec('create table t (id integer primary key, at timestamptz not null default now(), note text)');
}, 60_000);
afterAll(async () => db?.close());

const count = async () => Number((await db.query<{ n: number }>('select count(*)::int as n from t')).rows[0]?.n);

describe('PGlite answers from its worker thread as a driver would', () => {
  it('answers queries in object and array rows, and keeps the raw text of the types given parsers', async () => {
    await db.query('insert into t (id, note) values ($1, $2)', [1, 'uno']);
    const objects = await db.query<{ id: number; note: string }>('select id, note from t where id = $1', [1]);
    expect(objects.rows).toEqual([{ id: 1, note: 'uno' }]);
    expect(objects.fields.map((f) => f.name)).toEqual(['id', 'note']);
    const arrays = await db.query('select id, note from t where id = 1', [], { rowMode: 'array' });
    expect(arrays.rows).toEqual([[1, 'uno']]);
    // timestamptz (1184): a Date without a parser, its text with one (as drizzle asks).
    expect((await db.query<{ at: unknown }>('select at from t where id = 1')).rows[0]?.at).toBeInstanceOf(Date);
    const raw = await db.query<{ at: unknown }>('select at from t where id = 1', [], { parsers: { 1184: (v: string) => v } });
    expect(typeof raw.rows[0]?.at).toBe('string');
    expect(raw.rows[0]?.at).toMatch(/^\d{4}-\d{2}-\d{2} /);
  });

  it('commits a transaction that resolves and rolls back one that throws, with its error intact', async () => {
    const before = await count();
    const answer = await db.transaction(async (tx) => {
      await tx.query('insert into t (id, note) values (10, $1)', ['diez']);
      return (await tx.query<{ n: number }>('select count(*)::int as n from t')).rows[0]?.n;
    });
    expect(answer).toBe(before + 1);
    expect(await count()).toBe(before + 1);

    const failure = await db
      .transaction(async (tx) => {
        await tx.query('insert into t (id, note) values (11, $1)', ['once']);
        await tx.query('insert into t (id, note) values (10, $1)', ['repetido']);
      })
      .catch((err: unknown) => err);
    // The database error crosses the thread with its SQLSTATE and constraint.
    expect(pgError(failure)).toEqual({ code: UNIQUE_VIOLATION, constraint: 't_pkey' });
    expect((failure as Error).message).toMatch(/duplicate key/);
    expect(await count()).toBe(before + 1);

    // A throw of the caller's own rolls back too, and the thread stays usable.
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into t (id) values (12)');
        throw new Error('cambio de planes');
      }),
    ).rejects.toThrow('cambio de planes');
    expect(await count()).toBe(before + 1);
  });

  it('runs a statement from outside a transaction after it, never inside it', async () => {
    const order: string[] = [];
    let wrote!: () => void;
    const written = new Promise<void>((r) => {
      wrote = r;
    });
    let sent!: () => void;
    const outsideSent = new Promise<void>((r) => {
      sent = r;
    });
    const tx = db.transaction(async (t) => {
      await t.query('insert into t (id) values (20)');
      order.push('tx wrote');
      wrote();
      await outsideSent;
      // Posted after the outside read, so the worker has that read in hand before this answers.
      await t.query('select 1');
      await t.query('delete from t where id = 20');
      order.push('tx done');
    });
    await written;
    const outside = db.query<{ n: number }>('select count(*)::int as n from t where id = 20').then((r) => {
      order.push('outside read');
      return r.rows[0]?.n;
    });
    sent();
    await tx;
    // The outside read waited for the transaction, and so never saw its uncommitted row.
    expect(await outside).toBe(0);
    expect(order).toEqual(['tx wrote', 'tx done', 'outside read']);
  });

  it('takes a tagged-template query with its values as parameters, never as text', async () => {
    const note = "o'brien'); drop table t; --";
    await db.sql`insert into t (id, note) values (${30}, ${note})`;
    const found = await db.sql<{ id: number; note: string }>`select id, note from t where id = ${30} and note = ${note}`;
    expect(found.rows).toEqual([{ id: 30, note }]);
  });

  it('refuses a rollback outside a transaction and LISTEN, which do not cross the thread', async () => {
    await expect(db.rollback()).rejects.toThrow(/no transaction is open/);
    await expect(db.listen()).rejects.toThrow(/LISTEN/);
  });

  it('refuses queries once closed', async () => {
    const other = await PgliteThread.create({ dataDir: null });
    await other.close();
    expect(other.closed).toBe(true);
    await expect(other.query('select 1')).rejects.toThrow(/closed/);
  });
});

describe('a data folder on disk', () => {
  let parent: string;
  beforeAll(() => {
    parent = mkdtempSync(path.join(tmpdir(), 'martillo-pglite-folder-'));
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('is made on the first open, keeps what was written, and is opened as it is the next time', async () => {
    const dataDir = path.join(parent, 'db');
    const first = await PgliteThread.create({ dataDir });
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    await first.exec("create table kept (note text); insert into kept values ('sigue aquí')");
    await first.close();

    const again = await PgliteThread.create({ dataDir });
    expect((await again.query<{ note: string }>('select note from kept')).rows).toEqual([{ note: 'sigue aquí' }]);
    await again.close();
  }, 120_000);

  it('that cannot be made is refused with the reason', async () => {
    const file = path.join(parent, 'a-file');
    writeFileSync(file, 'not a folder');
    const failure = await PgliteThread.create({ dataDir: path.join(file, 'db') }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/Could not create the embedded database in .*a-file\/db/);
    expect((failure as Error).message).toMatch(/ENOTDIR/);
  }, 120_000);
});

describe("the thread's copy of the database (what db:backup writes)", () => {
  it('waits for an open transaction, holds new ones back while it copies, and carries what was committed', async () => {
    let finish = () => {};
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let inserted = () => {};
    const isOpen = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const open = db.transaction(async (tx) => {
      await tx.query('insert into t (id, note) values (500, $1)', ['abierta']);
      inserted();
      await held;
    });
    await isOpen;
    let isCopied = false;
    const copy = db.dump().then((bytes) => {
      isCopied = true;
      return bytes;
    });
    // A transaction asked for during the copy starts only after it.
    let laterSawCopy: boolean | null = null;
    const later = db.transaction(async (tx) => {
      laterSawCopy = isCopied;
      await tx.query('insert into t (id, note) values (501, $1)', ['después']);
    });
    // Time for a copy that did not wait to finish (it must not).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isCopied).toBe(false);
    finish();
    await open;
    const bytes = await copy;
    await later;
    expect(laterSawCopy).toBe(true);

    const { PGlite } = await import('@electric-sql/pglite');
    const restored = await PGlite.create({ loadDataDir: new Blob([new Uint8Array(bytes)]) });
    const notes = (await restored.query<{ id: number }>('select id from t where id >= 500 order by id')).rows.map((r) => r.id);
    await restored.close();
    expect(notes).toEqual([500]);
  });

  it('opens in memory as a database of its own, which changes apart from the original', async () => {
    await db.query('insert into t (id, note) values (600, $1)', ['copiado']);
    const copy = await PgliteThread.create({ dataDir: null, copy: await db.dump() });
    try {
      expect((await copy.query<{ note: string }>('select note from t where id = 600')).rows).toEqual([{ note: 'copiado' }]);
      await copy.query('insert into t (id, note) values (601, $1)', ['solo en la copia']);
      await db.query('insert into t (id, note) values (602, $1)', ['solo en el original']);
      expect((await copy.query<{ id: number }>('select id from t where id > 600 order by id')).rows).toEqual([{ id: 601 }]);
      expect((await db.query<{ id: number }>('select id from t where id > 600 order by id')).rows).toEqual([{ id: 602 }]);
    } finally {
      await copy.close();
    }
  });

  it('is not opened over a folder on disk', async () => {
    await expect(PgliteThread.create({ dataDir: path.join(tmpdir(), 'martillo-never-made'), copy: await db.dump() })).rejects.toThrow(/in memory only/);
    expect(existsSync(path.join(tmpdir(), 'martillo-never-made'))).toBe(false);
  });
});
