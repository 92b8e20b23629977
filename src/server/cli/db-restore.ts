/**
 * `npm run db:restore -- FILE`: restores a backup made by `npm run db:backup` into DATA_DIR/db,
 * which must be empty or missing (a restore never writes over a database). Then start Martillo
 * with the same DATA_DIR.
 */
import path from 'node:path';
import { BackupError, restoreBackup } from '../db/backup.js';
import { loadDotEnv } from '../dotenv.js';

async function main(): Promise<void> {
  loadDotEnv();
  const [file, ...extra] = process.argv.slice(2);
  if (!file || extra.length > 0) throw new BackupError('Usage: npm run db:restore -- FILE   (a backup made by npm run db:backup)');
  if (process.env.DATABASE_URL) {
    throw new BackupError('DATABASE_URL is set: this Martillo runs on PostgreSQL. Restore it with pg_restore or psql (see "Backups" in the README).');
  }
  // The same default as the server's configuration (src/server/config.ts).
  const dbDir = path.join(path.resolve(process.env.DATA_DIR || './data'), 'db');
  const source = path.resolve(file);
  const restored = await restoreBackup(source, dbDir);
  console.log(
    `Restored ${source} into ${dbDir}: ${restored.auctions} auctions, ${restored.bids} bids, ${restored.users} users. Start Martillo with DATA_DIR=${path.dirname(dbDir)}.`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof BackupError ? err.message : err);
    process.exit(1);
  },
);
