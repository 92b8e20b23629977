import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../../../src/server/providers/storage/local.js';
import type { Storage } from '../../../../src/server/providers/storage/types.js';

/** The local disk storage provider: files under DATA_DIR/uploads. */

let dataDir = '';
let storage: Storage;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'martillo-local-storage-'));
  storage = createLocalStorage(dataDir);
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('local storage', () => {
  it('reads a stored file back, and null for a missing key', async () => {
    const key = `images/2026/11/${randomUUID()}.jpg`;
    await storage.put(key, Buffer.from('foto local'), 'image/jpeg');
    expect((await storage.read(key))?.toString()).toBe('foto local');
    expect(await storage.read(`images/2026/11/${randomUUID()}.jpg`)).toBeNull();
  });

  it('refuses a key that escapes the uploads folder', async () => {
    await expect(storage.read('../../etc/passwd')).rejects.toThrow(/escapes/);
  });
});
