import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replays } from '../../../../src/server/db/schema.js';
import { IMMUTABLE_CACHE_CONTROL, PRIVATE_CACHE_CONTROL } from '../../../../src/server/providers/storage/s3.js';
import { buildSession } from '../../../support/factories.js';
import { type S3Server, startS3Server } from '../../../support/s3.js';
import { startTestServer } from '../../../support/server.js';
import { runServerCommand } from '../../../support/server-command.js';

/**
 * `npm run storage:to-s3` as an operator runs it (a child process, its environment the server's):
 * it copies DATA_DIR/uploads into the bucket under the same keys (the images public, the replays
 * and clips private), skips what is already there when
 * run again, deletes no local file and changes no record; the server on S3 then redirects the
 * `/uploads/<key>` URLs that records and old pages hold to the same bytes in the bucket.
 */

let s3: S3Server;
let work: string;
const dataDir = () => path.join(work, 'data');
const month = `images/2025/10`;
const id = randomUUID();
const images = [`${month}/${id}.jpg`, `${month}/${id}-thumb.jpg`];
const show = randomUUID();
const replayFiles = [`replays/${show}/replay.mp4`, `replays/${show}/poster.jpg`, `clips/${randomUUID()}.mp4`];
const keys = [...images, ...replayFiles];
const localFile = (key: string) => path.join(dataDir(), 'uploads', ...key.split('/'));

/** Runs the command with `env` from a folder with no .env; answers its exit code and output. */
function run(env: Record<string, string>) {
  const { DATABASE_URL: _db, STORAGE: _storage, ...parent } = process.env;
  return runServerCommand('storage-to-s3', [], { cwd: work, env: { ...parent, DATA_DIR: dataDir(), ...env } });
}

beforeAll(async () => {
  s3 = await startS3Server();
  work = await mkdtemp(path.join(tmpdir(), 'martillo-to-s3-'));
  for (const key of keys) await mkdir(path.dirname(localFile(key)), { recursive: true });
  for (const key of replayFiles) await writeFile(localFile(key), `bytes of ${key}`);
  const photo = sharp({ create: { width: 640, height: 480, channels: 3, background: '#8e44ad' } });
  await writeFile(localFile(keys[0] as string), await photo.clone().jpeg().toBuffer());
  await writeFile(localFile(keys[1] as string), await photo.clone().resize(320).jpeg().toBuffer());
  // A write the server never finished: not an image it recorded, so it stays where it is.
  await writeFile(`${localFile(keys[0] as string)}.${randomUUID()}.part`, 'partial');
});
afterAll(async () => {
  await s3?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm run storage:to-s3', () => {
  it('refuses to run unless STORAGE=s3 names a bucket', async () => {
    const { code, out } = await run({});
    expect(code).toBe(1);
    expect(out).toContain('STORAGE must be s3');
    expect(await s3.keys()).toEqual([]);
  });

  it('copies every stored image under the same key, reports each and a summary, and deletes nothing local', async () => {
    const { code, out } = await run(s3.env);
    expect(code, out).toBe(0);
    expect(out).toContain(`2 images and 3 replay files in ${path.join(dataDir(), 'uploads')} → bucket "${s3.bucket}"`);
    expect(out).toMatch(/left alone \(not an image the server stored\): images\/2025\/10\/[0-9a-f-]{36}\.jpg\.[0-9a-f-]{36}\.part/);
    // Four files go at once, so the lines come in the order the uploads finish.
    for (const key of keys) expect(out).toMatch(new RegExp(`\\[[1-5]/5\\] ${key.replaceAll('.', '\\.')} uploaded\n`));
    expect(out).toContain('Done: 5 uploaded, 0 replaced (a different size was in the bucket), 0 already in the bucket, 0 failed.');
    expect(out).toContain('Nothing in the database was changed');
    expect(out).toContain('No local file was deleted');

    expect(await s3.keys()).toEqual([...keys].sort());
    for (const key of images) {
      const object = await s3.get(key);
      expect(object).toMatchObject({ contentType: 'image/jpeg', cacheControl: IMMUTABLE_CACHE_CONTROL });
      expect(object?.body.equals(await readFile(localFile(key)))).toBe(true);
    }
    // A replay, its poster and a clip: kept by the browser let in, never by a CDN in front of the bucket.
    for (const key of replayFiles) {
      const object = await s3.get(key);
      expect(object, key).toMatchObject({ contentType: key.endsWith('.mp4') ? 'video/mp4' : 'image/jpeg', cacheControl: PRIVATE_CACHE_CONTROL });
      expect(object?.body.equals(await readFile(localFile(key)))).toBe(true);
    }
  });

  it('skips, when run again, what is already in the bucket with the same size', async () => {
    const { code, out } = await run(s3.env);
    expect(code, out).toBe(0);
    expect(out).toContain(`${keys[0]} already in the bucket`);
    expect(out).toContain('Done: 0 uploaded, 0 replaced (a different size was in the bucket), 5 already in the bucket, 0 failed.');
  });

  it('exits with an error, naming each file, when the bucket refuses them', async () => {
    const { code, out } = await run({ ...s3.env, S3_BUCKET: 'no-existe' });
    expect(code).toBe(1);
    expect(out).toContain(`${keys[0]} FAILED: NoSuchBucket`);
    expect(out).toContain('5 files were not copied; run the command again');
  });

  it('leaves the /uploads/<key> URLs records hold working: the server on S3 redirects them to the copied objects', async () => {
    const server = await startTestServer({ env: { DATA_DIR: dataDir(), ...s3.env } });
    try {
      for (const key of images) {
        const res = await fetch(`${server.url}/uploads/${key}`);
        expect(res.redirected).toBe(true);
        expect(res.url).toBe(`${s3.endpoint}/${s3.bucket}/${key}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/jpeg');
        expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(localFile(key)))).toBe(true);
      }
    } finally {
      await server.close();
    }
  });

  it('leaves a show’s replay playing from the bucket', async () => {
    const server = await startTestServer({ env: { DATA_DIR: dataDir(), ...s3.env } });
    try {
      await buildSession(server.ctx.db, { id: show, status: 'ended' });
      await server.ctx.db.insert(replays).values({
        sessionId: show,
        status: 'ready',
        progress: 100,
        videoKey: `replays/${show}/replay.mp4`,
        posterKey: `replays/${show}/poster.jpg`,
        durationMs: 1000,
        chapters: [],
        readyAt: new Date(),
      });
      const res = await fetch(`${server.url}/api/live-sessions/${show}/replay/video`, { headers: { range: 'bytes=0-' } });
      expect(res.status).toBe(206);
      expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(localFile(`replays/${show}/replay.mp4`)))).toBe(true);
    } finally {
      await server.close();
    }
  });
});
