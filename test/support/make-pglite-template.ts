/** Writes a migrated PGlite database's copy to the file named (template-databases.ts runs it). */
import { writeFileSync } from 'node:fs';
import { connectDatabase } from '../../src/server/db/connect.js';
import { migrateDatabase } from '../../src/server/db/migrate.js';

const file = process.argv[2];
if (!file) throw new Error('usage: make-pglite-template.ts FILE');
const database = await connectDatabase({ kind: 'embedded', dir: null });
try {
  await migrateDatabase(database);
  writeFileSync(file, await (database.backup as () => Promise<Uint8Array>)());
} finally {
  await database.close();
}
