/**
 * PGlite on its own thread. PGlite is PostgreSQL compiled to WebAssembly, and a query runs
 * synchronously on the thread that owns it: in the server's thread, every statement stopped the
 * HTTP and Socket.IO work. Here a worker thread owns the database and the server's thread talks to
 * it by messages, so both run at once (and requests arriving during a statement are read at once,
 * in order).
 *
 * `PgliteThread` offers the part of PGlite's API that drizzle-orm/pglite and connect.ts use:
 * `query(sql, params, {rowMode, parsers})`, `exec`, `transaction(fn)` (with `query`/`exec` on the
 * transaction) and `close()`, with the rest of PGlite's `Transaction` interface for drizzle's type. Parsers cannot cross threads: the worker returns the raw text of
 * every type a caller gives a parser for, which is what drizzle's parsers do (they keep dates and
 * intervals as text).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { PGlite, Results, Transaction } from '@electric-sql/pglite';

type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: Record<number, unknown> };

type Request =
  | { id: number; op: 'open'; dataDir: string | null; copy: Uint8Array | null }
  | { id: number; op: 'query'; tx: number | null; sql: string; params: unknown[]; rowMode?: 'array' | 'object'; rawTypes: number[] }
  | { id: number; op: 'exec'; tx: number | null; sql: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };
type Reply = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: SerializedError };

/** A database error as it crosses the thread: its message and its fields (code, constraint, detail…). */
type SerializedError = { message: string; fields: Record<string, unknown> };

function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function' || (value !== null && typeof value === 'object')) continue;
    fields[key] = value;
  }
  return { message: err.message, fields };
}

function deserializeError(e: SerializedError): Error {
  return Object.assign(new Error(e.message), e.fields);
}

// ── The worker: owns the database ────────────────────────────────────────────

/**
 * PostgreSQL's own page cache inside PGlite's memory. Its default, 128 MB, is taken whole at start
 * and was most of an idle embedded server's memory; pages beyond it are read from the operating
 * system's cache, which keeps the database's files anyway (bench/README.md, idle memory).
 */
const SHARED_BUFFERS = '32MB';

const identity = (value: unknown) => value;

async function serve(port: NonNullable<typeof parentPort>): Promise<void> {
  let db: PGlite | null = null;
  /** Open transactions by id: each holds PGlite's transaction until the server's thread ends it. */
  const txs = new Map<number, { tx: Transaction; end: (commit: boolean) => void; done: Promise<void> }>();
  const ROLLBACK = Symbol('rollback');

  /** While a backup is being copied no transaction begins; `opening` counts begins not yet in `txs`. */
  let dumping: Promise<void> | null = null;
  let opening = 0;

  const reply = (message: Reply) => port.postMessage(message);
  const target = (tx: number | null): PGlite | Transaction => {
    if (tx === null) {
      if (!db) throw new Error('database not open');
      return db;
    }
    const open = txs.get(tx);
    if (!open) throw new Error(`transaction ${tx} is not open`);
    return open.tx;
  };

  async function handle(m: Request): Promise<unknown> {
    switch (m.op) {
      case 'open': {
        // Imported here, on PGlite's own thread: the server's thread (and a server on PostgreSQL) never loads it.
        const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]);
        db = await PGlite.create({
          ...(m.dataDir ? { dataDir: m.dataDir } : {}),
          ...(m.copy ? { loadDataDir: new Blob([new Uint8Array(m.copy)]) } : {}),
          extensions: { pg_trgm },
          startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
        });
        return undefined;
      }
      case 'query': {
        const parsers = Object.fromEntries(m.rawTypes.map((oid) => [oid, identity]));
        const result: Results = await target(m.tx).query(m.sql, m.params, { ...(m.rowMode ? { rowMode: m.rowMode } : {}), parsers });
        return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
      }
      case 'exec':
        return (await target(m.tx).exec(m.sql)).map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
      case 'begin': {
        if (!db) throw new Error('database not open');
        const database = db;
        while (dumping) await dumping;
        opening++;
        let isOpening = true;
        const opened = () => {
          if (isOpening) opening--;
          isOpening = false;
        };
        return new Promise<number>((began, failed) => {
          const done = database
            .transaction(async (tx) => {
              const ended = new Promise<boolean>((end) => {
                txs.set(m.id, { tx, end, done });
              });
              opened();
              began(m.id);
              if (!(await ended)) throw ROLLBACK;
            })
            .then(
              () => {},
              (err) => {
                if (err !== ROLLBACK) throw err;
              },
            )
            .finally(() => txs.delete(m.id));
          // A failure before the transaction began (BEGIN itself) answers the begin request.
          done.catch((err) => {
            opened();
            failed(err);
          });
        });
      }
      case 'dump': {
        if (!db) throw new Error('database not open');
        // One copy at a time; new transactions wait, the open ones finish, then a checkpoint puts
        // every committed change in the data files, so the copy is the database at one moment.
        while (dumping) await dumping;
        let release = () => {};
        dumping = new Promise<void>((resolve) => {
          release = resolve;
        });
        try {
          while (txs.size > 0 || opening > 0) {
            await Promise.race([Promise.all([...txs.values()].map((t) => t.done.catch(() => {}))), new Promise((r) => setTimeout(r, 5))]);
          }
          await db.exec('checkpoint');
          const archive = await db.dumpDataDir('gzip');
          return new Uint8Array(await archive.arrayBuffer());
        } finally {
          dumping = null;
          release();
        }
      }
      case 'end': {
        const open = txs.get(m.tx);
        if (!open) throw new Error(`transaction ${m.tx} is not open`);
        open.end(m.commit);
        await open.done;
        return undefined;
      }
      case 'close':
        if (db && !db.closed) await db.close();
        return undefined;
    }
  }

  port.on('message', (m: Request) => {
    handle(m).then(
      (value) => reply({ id: m.id, ok: true, value }),
      (err) => reply({ id: m.id, ok: false, error: serializeError(err) }),
    );
  });
}

/** Marks the worker this module starts, so importing it in any other thread (Vitest's) serves nothing. */
const WORKER_MARK = 'martillo:pglite-thread';
if (parentPort && (workerData as { mark?: string } | null)?.mark === WORKER_MARK) await serve(parentPort);

// ── The server's thread: a PGlite-like handle ────────────────────────────────

interface Remote {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

/**
 * The thread offers PGlite's `Transaction` interface, the client type drizzle-orm/pglite's session
 * takes besides a PGlite instance (connect.ts), and `transaction`, which that session calls to begin one.
 */
export class PgliteThread implements Remote, Transaction {
  #worker: Worker;
  #next = 1;
  #pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  #closed = false;

  private constructor() {
    // The worker runs this same file. From the TypeScript sources (development, tests) it registers
    // tsx's loader first (loader hooks are per thread), found from this file rather than from the
    // working directory an eval'd worker resolves from; the built release is plain JavaScript.
    const self = JSON.stringify(import.meta.url);
    const entry = import.meta.url.endsWith('.ts')
      ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${self}); })`
      : `import(${self})`;
    this.#worker = new Worker(entry, { eval: true, workerData: { mark: WORKER_MARK } });
    this.#worker.on('message', (m: Reply) => {
      const pending = this.#pending.get(m.id);
      if (!pending) return;
      this.#pending.delete(m.id);
      if (m.ok) pending.resolve(m.value);
      else pending.reject(deserializeError(m.error));
    });
    this.#worker.on('error', (err) => this.#failAll(err));
    this.#worker.on('exit', (code) => this.#failAll(new Error(`PGlite thread exited (${code})`)));
  }

  /**
   * Starts the thread and opens the database: on disk in `dataDir`, or in memory (empty, or
   * starting from `copy`, a copy that `dump()` made, which skips initdb).
   */
  static async create(opts: { dataDir: string | null; copy?: Uint8Array }): Promise<PgliteThread> {
    if (opts.copy && opts.dataDir) throw new Error('a copy opens in memory only (db:restore writes one to a folder)');
    if (opts.dataDir && !existsSync(path.join(opts.dataDir, 'PG_VERSION'))) await makeDataFolder(opts.dataDir);
    const thread = new PgliteThread();
    try {
      await thread.#call({ op: 'open', dataDir: opts.dataDir, copy: opts.copy ?? null });
    } catch (err) {
      await thread.#worker.terminate();
      throw err;
    }
    return thread;
  }

  get closed(): boolean {
    return this.#closed;
  }

  #failAll(err: Error) {
    this.#closed = true;
    for (const pending of this.#pending.values()) pending.reject(err);
    this.#pending.clear();
  }

  #call<T>(request: { op: Request['op'] } & Record<string, unknown>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('PGlite is closed'));
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  #query(tx: number | null, sql: string, params: unknown[] = [], opts: QueryOptions = {}): Promise<Results> {
    const rawTypes = opts.parsers ? Object.keys(opts.parsers).map(Number) : [];
    return this.#call<Results>({ op: 'query', tx, sql, params, rowMode: opts.rowMode, rawTypes });
  }

  query<T = Record<string, unknown>>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<Results<T>> {
    return this.#query(null, sql, params, opts) as Promise<Results<T>>;
  }

  exec(sql: string): Promise<Results[]> {
    return this.#call<Results[]>({ op: 'exec', tx: null, sql });
  }

  /** A tagged-template query: each value is a parameter ($1, $2…), never spliced into the text. */
  sql<T = Record<string, unknown>>(strings: TemplateStringsArray, ...params: unknown[]): Promise<Results<T>> {
    return this.query<T>(
      strings.reduce((text, part, i) => `${text}$${i}${part}`),
      params,
    );
  }

  /** Nothing to roll back outside `transaction`, which rolls back when its function throws. */
  rollback(): Promise<void> {
    return Promise.reject(new Error('no transaction is open: throw inside transaction() to roll one back'));
  }

  /** Notifications do not cross the thread. */
  listen(): Promise<() => Promise<void>> {
    return Promise.reject(new Error('LISTEN is not offered across the PGlite thread'));
  }

  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: Remote) => Promise<T>): Promise<T> {
    const tx = await this.#call<number>({ op: 'begin' });
    const handle: Remote = {
      query: <R>(sql: string, params?: unknown[], opts?: QueryOptions) => this.#query(tx, sql, params, opts) as Promise<Results<R>>,
      exec: (sql) => this.#call<Results[]>({ op: 'exec', tx, sql }),
    };
    let result: T;
    try {
      result = await fn(handle);
    } catch (err) {
      await this.#call({ op: 'end', tx, commit: false }).catch(() => {});
      throw err;
    }
    await this.#call({ op: 'end', tx, commit: true });
    return result;
  }

  /**
   * A copy of the whole database as a gzipped tar of its data folder, taken between transactions
   * (new ones wait while it is made): what `npm run db:backup` writes and `db:restore` reads.
   */
  dump(): Promise<Uint8Array> {
    return this.#call<Uint8Array>({ op: 'dump' });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#call({ op: 'close' });
    this.#closed = true;
    await this.#worker.terminate();
  }
}

/**
 * Makes a new data folder (PostgreSQL's initdb) in a short-lived process of its own. initdb takes
 * hundreds of MB; on a thread of the server's process, the C library kept much of it after the
 * thread ended (its allocation arenas), so a first start held about 100 MB more than a restart for
 * as long as it ran. A process gives all of it back when it exits. The child is plain JavaScript
 * (PGlite found from here), so it needs no TypeScript loader in development.
 */
async function makeDataFolder(dataDir: string): Promise<void> {
  const code = `
    const { PGlite } = await import(${JSON.stringify(import.meta.resolve('@electric-sql/pglite'))});
    const { pg_trgm } = await import(${JSON.stringify(import.meta.resolve('@electric-sql/pglite/contrib/pg_trgm'))});
    const db = await PGlite.create({ dataDir: process.argv[1], extensions: { pg_trgm } });
    await db.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '--eval', code, dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exit = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => resolve(signal ? null : exitCode));
  });
  if (exit !== 0) throw new Error(`Could not create the embedded database in ${dataDir} (initdb exited with ${exit ?? 'a signal'}):\n${stderr.trim()}`);
}
