import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../src/server/db/connect.js';
import { migrateDatabase, migrationsApplied } from '../../../src/server/db/migrate.js';

/**
 * The embedded database's first start: a new folder is made and migrated on a short-lived thread
 * (its memory given back when the thread ends), then opened on the server's own, already migrated.
 * A folder that exists is opened straight away.
 */

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDataFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'martillo-first-start-'));
  folders.push(dir);
  return path.join(dir, 'db');
}

describe('the embedded database on its first start', () => {
  it('migrates a new folder before the server opens it, and prepares an existing folder no more', async () => {
    const dir = newDataFolder();
    const prepared: boolean[] = [];
    const prepare = async (database: Database) => {
      prepared.push(await migrationsApplied(database.db));
      await migrateDatabase(database);
    };

    const first = await connectDatabase({ kind: 'embedded', dir }, { prepareNewFolder: prepare });
    try {
      expect(prepared).toEqual([false]);
      expect(await migrationsApplied(first.db)).toBe(true);
    } finally {
      await first.close();
    }

    const again = await connectDatabase({ kind: 'embedded', dir }, { prepareNewFolder: prepare });
    try {
      expect(prepared).toEqual([false]);
      expect(await migrationsApplied(again.db)).toBe(true);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('leaves a folder whose preparation failed to be migrated by the next start', async () => {
    const dir = newDataFolder();
    await expect(
      connectDatabase(
        { kind: 'embedded', dir },
        {
          prepareNewFolder: async () => {
            throw new Error('a migration failed');
          },
        },
      ),
    ).rejects.toThrow('a migration failed');

    const next = await connectDatabase({ kind: 'embedded', dir });
    try {
      expect(await migrationsApplied(next.db)).toBe(false);
      await migrateDatabase(next);
      expect(await migrationsApplied(next.db)).toBe(true);
    } finally {
      await next.close();
    }
  }, 120_000);
});
