/**
 * `npm run db:backup -- FILE`: writes a backup of the embedded database (DATA_DIR/db) to FILE. With
 * the server running, the server makes the copy (between transactions, while it keeps serving);
 * with none, this command opens the folder itself. PostgreSQL: use pg_dump (README, 'Backups').
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BackupError, folderOwner, requestBackup, writeBackupFile } from '../db/backup.js';
import { connectDatabase } from '../db/connect.js';
import { loadDotEnv } from '../dotenv.js';

async function main(): Promise<void> {
  loadDotEnv();
  const [file, ...extra] = process.argv.slice(2);
  if (!file || extra.length > 0)
    throw new BackupError('Usage: npm run db:backup -- FILE   (the file to write, for example backups/martillo-2026-11-27.tar.gz)');
  if (process.env.DATABASE_URL) {
    throw new BackupError('DATABASE_URL is set: this Martillo runs on PostgreSQL. Back it up with pg_dump (see "Backups" in the README).');
  }
  // The same default as the server's configuration (src/server/config.ts).
  const dbDir = path.join(path.resolve(process.env.DATA_DIR || './data'), 'db');
  const target = path.resolve(file);
  if (existsSync(target)) throw new BackupError(`${target} already exists: choose a new file name (a backup never overwrites one).`);
  if (!existsSync(path.join(dbDir, 'PG_VERSION'))) throw new BackupError(`There is no embedded database in ${dbDir} (check DATA_DIR).`);

  const started = Date.now();
  const owner = folderOwner(dbDir);
  let bytes: Uint8Array;
  if (owner !== null) {
    bytes = await requestBackup(dbDir);
  } else {
    const database = await connectDatabase({ kind: 'embedded', dir: dbDir });
    try {
      bytes = await (database.backup as () => Promise<Uint8Array>)();
    } finally {
      await database.close();
    }
  }
  writeBackupFile(target, bytes);
  const mb = (bytes.byteLength / 1_048_576).toFixed(1);
  const from = owner !== null ? `from the running server (pid ${owner})` : 'with no server running';
  console.log(`Backup of ${dbDir} written to ${target} (${mb} MB, ${from}, ${((Date.now() - started) / 1000).toFixed(1)} s).`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof BackupError ? err.message : err);
    process.exit(1);
  },
);
