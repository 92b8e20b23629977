/**
 * Vitest global setup: one migrated database per run for every test file to start from (see
 * createTestDatabase in db.ts). The migrations run here once, through the same migrateDatabase
 * as a server start; the files copy the result instead of running them again each. PGlite's is a
 * copy in a file (what the embedded backup writes); PostgreSQL's a template database, made only
 * for a project on that engine, and dropped at the end.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../../src/server/db/connect.js';
import { migrateDatabase } from '../../src/server/db/migrate.js';
import { createEmptyPostgresDatabase, TEMPLATE_ENV } from './db.js';

/**
 * PGlite's, made by a child process (make-pglite-template.ts): the PGlite thread finds its worker
 * and PGlite with import.meta.resolve, which Vitest's module runner for global setup lacks.
 */
function pgliteTemplate(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'martillo-template-'));
  const file = path.join(dir, 'pglite.tar.gz');
  const made = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./make-pglite-template.ts', import.meta.url)), file], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (made.status !== 0) throw new Error(`the PGlite template was not made (exit ${made.status ?? made.signal})`);
  process.env[TEMPLATE_ENV.pglite] = file;
  return () => rmSync(dir, { recursive: true, force: true });
}

async function postgresTemplate(): Promise<() => Promise<void>> {
  const template = await createEmptyPostgresDatabase();
  if (!template) throw new Error('the PostgreSQL template needs TEST_DATABASE_URL');
  const database = await connectDatabase({ kind: 'postgresql', url: template.url }, { poolSize: 1 });
  try {
    await migrateDatabase(database);
  } finally {
    // A template is copied only while nobody is connected to it.
    await database.close();
  }
  process.env[TEMPLATE_ENV.postgresql] = new URL(template.url).pathname.slice(1);
  return template.drop;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = (project.config.env as Record<string, string> | undefined)?.TEST_ENGINE;
  if (engine === 'postgresql' && process.env.TEST_DATABASE_URL) {
    const drop = await postgresTemplate();
    return async () => {
      delete process.env[TEMPLATE_ENV.postgresql];
      await drop();
    };
  }
  const remove = pgliteTemplate();
  return async () => {
    delete process.env[TEMPLATE_ENV.pglite];
    remove();
  };
}
