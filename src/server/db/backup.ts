/**
 * Backups of the embedded database (PGlite on disk). A backup is a gzipped tar of the database's
 * folder, copied between transactions (new ones wait while it is made), so it is the database at
 * one moment. The server that holds the folder answers backups on a Unix socket beside it (only
 * this machine's user can reach it; nothing is exposed on the HTTP port); with no server running,
 * `npm run db:backup` opens the folder itself. `npm run db:restore` unpacks a backup into an empty
 * folder. PostgreSQL is backed up with its own tools (pg_dump), not here.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/** The longest Unix socket path Linux and macOS accept (sun_path), less its terminator. */
const MAX_SOCKET_PATH = 103;
/** The file the server that holds a database folder writes in it (db/connect.ts). */
export const PID_FILE = 'martillo.pid';
const GZIP_MAGIC = [0x1f, 0x8b];

/** A backup or restore that cannot be done, with the reason in words an operator can act on. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** Where the server holding `dbDir` answers backups: a socket beside the folder, not in it (a copy would carry it). */
export const backupSocketPath = (dbDir: string) => `${path.resolve(dbDir)}-backup.sock`;

/**
 * Answers `POST /backup` on the folder's socket with a backup, while the server runs. Null when the
 * path is too long for a socket (then `db:backup` asks to stop the server first).
 */
export async function serveBackups(dbDir: string, backup: () => Promise<Uint8Array>): Promise<{ close(): Promise<void> } | null> {
  const socketPath = backupSocketPath(dbDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) return null;
  // The caller holds the folder's lock, so a socket file here was left by a process that died.
  rmSync(socketPath, { force: true });
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/backup') {
      res.writeHead(404).end();
      return;
    }
    backup().then(
      (bytes) => {
        res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.byteLength });
        res.end(bytes);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(err instanceof Error ? err.message : String(err));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          rmSync(socketPath, { force: true });
          resolve();
        });
      }),
  };
}

/** Asks the server holding `dbDir` for a backup through its socket. */
export function requestBackup(dbDir: string): Promise<Uint8Array> {
  const socketPath = backupSocketPath(dbDir);
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: '/backup', method: 'POST' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode === 200) resolve(new Uint8Array(body));
        else reject(new BackupError(`The running server could not make the backup: ${body.toString('utf8') || `HTTP ${res.statusCode}`}`));
      });
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'ENOENT' || err.code === 'ECONNREFUSED'
          ? new BackupError(`The server using ${dbDir} offers no backup socket at ${socketPath}. Stop it and run the backup again.`)
          : err,
      );
    });
    req.end();
  });
}

/** The pid of the live process holding `dbDir`, or null. */
export function folderOwner(dbDir: string): number | null {
  const file = path.join(dbDir, PID_FILE);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!pid || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

/** Writes `bytes` to `file` whole or not at all (a partial file is never left under the name). */
export function writeBackupFile(file: string, bytes: Uint8Array): void {
  const partial = `${file}.partial`;
  writeFileSync(partial, bytes, { flag: 'w', mode: 0o600 });
  renameSync(partial, file);
}

/** Whether `dir` is missing or holds nothing. */
function isEmptyFolder(dir: string): boolean {
  return !existsSync(dir) || (statSync(dir).isDirectory() && readdirSync(dir).length === 0);
}

export interface RestoreResult {
  auctions: number;
  bids: number;
  users: number;
}

/**
 * Unpacks the backup in `file` into `dbDir`, which must be empty or missing; checks it opens as a
 * Martillo database. On any failure the folder is left as it was found.
 */
export async function restoreBackup(file: string, dbDir: string): Promise<RestoreResult> {
  if (!existsSync(file)) throw new BackupError(`No file at ${file}.`);
  if (!isEmptyFolder(dbDir)) {
    throw new BackupError(`${dbDir} is not empty: a backup is restored only into an empty folder. Move the old one away first (or choose another DATA_DIR).`);
  }
  const bytes = readFileSync(file);
  if (bytes[0] !== GZIP_MAGIC[0] || bytes[1] !== GZIP_MAGIC[1]) throw new BackupError(`${file} is not a Martillo backup (not a gzipped archive).`);
  const existed = existsSync(dbDir);
  let db: PGlite | null = null;
  try {
    mkdirSync(dbDir, { recursive: true });
    // Only a restore opens PGlite here; a server on PostgreSQL, which imports this file, never loads it.
    const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]);
    db = await PGlite.create({ dataDir: dbDir, loadDataDir: new Blob([bytes]), extensions: { pg_trgm } });
    const tables = await db.query<{ name: string | null }>(`select to_regclass('public.bids')::text as name`);
    if (!tables.rows[0]?.name) throw new BackupError(`${file} holds a database, but not Martillo's.`);
    const counts = await db.query<RestoreResult>(
      'select (select count(*)::int from auctions) as auctions, (select count(*)::int from bids) as bids, (select count(*)::int from users) as users',
    );
    await db.close();
    db = null;
    // The copy carries the pid file of the server it was taken from; this folder has no owner yet.
    rmSync(path.join(dbDir, PID_FILE), { force: true });
    return counts.rows[0] as RestoreResult;
  } catch (err) {
    if (db && !db.closed) await db.close().catch(() => {});
    if (existed) for (const entry of readdirSync(dbDir)) rmSync(path.join(dbDir, entry), { recursive: true, force: true });
    else rmSync(dbDir, { recursive: true, force: true });
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${file} could not be restored: ${err instanceof Error ? err.message : String(err)}`);
  }
}
