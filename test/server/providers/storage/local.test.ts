import { randomUUID } from 'node:crypto';
import { access, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../../../src/server/providers/storage/local.js';
import type { Storage } from '../../../../src/server/providers/storage/types.js';
import { describeReplayStorage, UNSAFE_KEYS } from './replay-storage-cases.js';

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

describeReplayStorage('local storage', () => storage);

describe('local storage: replays on disk', () => {
  const exists = (file: string) =>
    access(file).then(
      () => true,
      () => false,
    );

  it('leaves no temporary file beside a stored one, nor after a failed copy', async () => {
    const source = path.join(dataDir, 'source.mp4');
    await writeFile(source, 'video');
    const session = randomUUID();
    await storage.putFile(`replays/${session}/replay.mp4`, source, 'video/mp4');
    await expect(storage.putFile(`replays/${session}/clip.mp4`, path.join(dataDir, 'missing.mp4'), 'video/mp4')).rejects.toThrow();
    expect(await readdir(path.join(dataDir, 'uploads', 'replays', session))).toEqual(['replay.mp4']);
  });

  it('answers the type its extension names, for there is no other record of it on disk', async () => {
    const source = path.join(dataDir, 'poster-source');
    await writeFile(source, 'póster');
    const key = `replays/${randomUUID()}/poster.jpg`;
    // The type given is not kept: a poster stored as anything is served as the JPEG its key says.
    await storage.putFile(key, source, 'application/octet-stream');
    expect(await storage.stat(key)).toEqual({ size: Buffer.byteLength('póster'), contentType: 'image/jpeg' });
  });

  it("removes a session's folder with its keys", async () => {
    const source = path.join(dataDir, 'folder-source.mp4');
    await writeFile(source, 'video');
    const session = randomUUID();
    await storage.putFile(`replays/${session}/replay.mp4`, source, 'video/mp4');
    expect(await storage.deletePrefix(`replays/${session}/`)).toBe(1);
    expect(await exists(path.join(dataDir, 'uploads', 'replays', session))).toBe(false);
    expect(await exists(path.join(dataDir, 'uploads', 'replays'))).toBe(true);
  });

  it('writes nothing outside the uploads folder for a key that escapes it', async () => {
    const source = path.join(dataDir, 'escape-source.mp4');
    await writeFile(source, 'video');
    for (const key of UNSAFE_KEYS) await expect(storage.putFile(key, source, 'video/mp4')).rejects.toThrow();
    expect((await readdir(dataDir)).sort()).toEqual(['escape-source.mp4', 'folder-source.mp4', 'poster-source', 'source.mp4', 'uploads'].sort());
  });
});
