import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../../../src/server/providers/storage/types.js';

/**
 * What replays need of either storage provider (putFile, stat, readRange, deletePrefix), declared
 * once and run by local.test.ts and s3.test.ts against a real disk and a real S3 server.
 */

/** Keys that would leave the storage root or name something other than the key they spell. */
export const UNSAFE_KEYS = [
  '',
  '../escape.mp4',
  'replays/../../escape.mp4',
  'replays/x/../../../escape.mp4',
  '/replays/x/replay.mp4',
  'replays\\x\\replay.mp4',
  'replays//replay.mp4',
  'replays/x/',
  'replays/./replay.mp4',
  'replays/x/replay..mp4',
];

export function describeReplayStorage(name: string, storage: () => Storage) {
  describe(`${name}: replays`, () => {
    let dir = '';
    let replay = Buffer.alloc(0);
    let replayFile = '';

    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'martillo-replay-storage-'));
      // Several megabytes, random so that any misplaced byte shows.
      replay = randomBytes(5 * 1024 * 1024 + 123);
      replayFile = path.join(dir, 'replay.mp4');
      await writeFile(replayFile, replay);
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    const sessionKey = (file = 'replay.mp4', session: string = randomUUID()) => `replays/${session}/${file}`;
    const readAll = async (key: string, range: { start: number; end: number } | null) => {
      const found = await storage().readRange(key, range);
      if (!found) throw new Error(`nothing stored under ${key}`);
      return { ...found, bytes: await buffer(found.body) };
    };

    it('stores a file of several megabytes, and stat answers its size and type', async () => {
      const key = sessionKey();
      await storage().putFile(key, replayFile, 'video/mp4');
      expect(await storage().stat(key)).toEqual({ size: replay.length, contentType: 'video/mp4' });
      const whole = await readAll(key, null);
      expect(whole).toMatchObject({ size: replay.length, start: 0, end: replay.length - 1, contentType: 'video/mp4' });
      expect(whole.bytes.equals(replay)).toBe(true);
    });

    it('streams only the bytes of a range: the first ones, the middle, the last byte', async () => {
      const key = sessionKey();
      await storage().putFile(key, replayFile, 'video/mp4');
      const size = replay.length;
      for (const [start, end] of [
        [0, 1023],
        [1_000_000, 3_500_000],
        [size - 1, size - 1],
      ] as const) {
        const part = await readAll(key, { start, end });
        expect({ size: part.size, start: part.start, end: part.end }).toEqual({ size, start, end });
        expect(part.bytes.equals(replay.subarray(start, end + 1))).toBe(true);
      }
    });

    it('ends a range that asks past the object at its last byte, as HTTP does', async () => {
      const key = sessionKey();
      await storage().putFile(key, replayFile, 'video/mp4');
      const tail = await readAll(key, { start: replay.length - 10, end: replay.length + 5000 });
      expect(tail.end).toBe(replay.length - 1);
      expect(tail.bytes.equals(replay.subarray(-10))).toBe(true);
    });

    it('answers null for a key that is not stored', async () => {
      const key = sessionKey();
      expect(await storage().stat(key)).toBeNull();
      expect(await storage().readRange(key, null)).toBeNull();
      expect(await storage().readRange(key, { start: 0, end: 10 })).toBeNull();
    });

    it('throws a RangeError for a range that ends before it starts or starts past the object', async () => {
      const key = sessionKey();
      await storage().putFile(key, replayFile, 'video/mp4');
      await expect(storage().readRange(key, { start: 10, end: 9 })).rejects.toBeInstanceOf(RangeError);
      await expect(storage().readRange(key, { start: replay.length, end: replay.length + 10 })).rejects.toBeInstanceOf(RangeError);
      await expect(storage().readRange(key, { start: -1, end: 10 })).rejects.toBeInstanceOf(RangeError);
    });

    it('reads an empty file whole, and refuses any range of it', async () => {
      const empty = path.join(dir, 'empty.mp4');
      await writeFile(empty, '');
      const key = sessionKey();
      await storage().putFile(key, empty, 'video/mp4');
      expect(await storage().stat(key)).toMatchObject({ size: 0 });
      const whole = await readAll(key, null);
      expect({ size: whole.size, length: whole.bytes.length }).toEqual({ size: 0, length: 0 });
      await expect(storage().readRange(key, { start: 0, end: 0 })).rejects.toBeInstanceOf(RangeError);
    });

    it('replaces a stored file with a new one under the same key', async () => {
      const key = sessionKey('poster.jpg');
      const first = path.join(dir, 'first.jpg');
      const second = path.join(dir, 'second.jpg');
      await writeFile(first, 'primer póster');
      await writeFile(second, 'segundo');
      await storage().putFile(key, first, 'image/jpeg');
      await storage().putFile(key, second, 'image/jpeg');
      expect((await readAll(key, null)).bytes.toString()).toBe('segundo');
    });

    it('fails putFile for a source file that does not exist, storing nothing', async () => {
      const key = sessionKey();
      await expect(storage().putFile(key, path.join(dir, 'no-existe.mp4'), 'video/mp4')).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await storage().stat(key)).toBeNull();
    });

    it("deletes every key under a session's prefix and only those, answering how many", async () => {
      const session = randomUUID();
      // A sibling whose name starts with the same characters is not under the prefix.
      const sibling = `${session}0`;
      const poster = path.join(dir, 'poster.jpg');
      await writeFile(poster, 'póster');
      await storage().putFile(sessionKey('replay.mp4', session), replayFile, 'video/mp4');
      await storage().putFile(sessionKey('poster.jpg', session), poster, 'image/jpeg');
      await storage().putFile(`replays/${session}/thumbs/1.jpg`, poster, 'image/jpeg');
      await storage().putFile(sessionKey('replay.mp4', sibling), poster, 'video/mp4');
      const clip = `clips/${randomUUID()}.mp4`;
      await storage().putFile(clip, poster, 'video/mp4');

      expect(await storage().deletePrefix(`replays/${session}/`)).toBe(3);
      expect(await storage().stat(sessionKey('replay.mp4', session))).toBeNull();
      expect(await storage().stat(sessionKey('poster.jpg', session))).toBeNull();
      expect(await storage().stat(`replays/${session}/thumbs/1.jpg`)).toBeNull();
      expect(await storage().stat(sessionKey('replay.mp4', sibling))).not.toBeNull();
      expect(await storage().stat(clip)).not.toBeNull();
      // Nothing left is not an error: a retried cleanup deletes nothing.
      expect(await storage().deletePrefix(`replays/${session}/`)).toBe(0);
    });

    it("refuses a prefix that is empty or does not end with '/', deleting nothing", async () => {
      const session = randomUUID();
      const key = sessionKey('replay.mp4', session);
      await storage().putFile(key, replayFile, 'video/mp4');
      for (const prefix of ['', '/', 'replays', `replays/${session}`, `replays/${session}/replay.mp4`, 'replays//', '../', `replays/${session}/../`]) {
        await expect(storage().deletePrefix(prefix), prefix).rejects.toThrow();
      }
      expect(await storage().stat(key)).not.toBeNull();
    });

    it('refuses keys that escape the storage root or are not plain paths, in every method for replays', async () => {
      for (const key of UNSAFE_KEYS) {
        await expect(storage().putFile(key, replayFile, 'video/mp4'), key).rejects.toThrow(/unsafe storage key/);
        await expect(storage().stat(key), key).rejects.toThrow(/unsafe storage key/);
        await expect(storage().readRange(key, null), key).rejects.toThrow(/unsafe storage key/);
        await expect(storage().readRange(key, { start: 0, end: 1 }), key).rejects.toThrow(/unsafe storage key/);
      }
    });
  });
}
