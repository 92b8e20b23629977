import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/server/config.js';
import { createStorage } from '../../../../src/server/providers/index.js';
import { createS3Storage, IMMUTABLE_CACHE_CONTROL, MAX_PUT_OBJECT_BYTES, PRIVATE_CACHE_CONTROL } from '../../../../src/server/providers/storage/s3.js';
import type { Storage } from '../../../../src/server/providers/storage/types.js';
import { type S3Server, startS3Server } from '../../../support/s3.js';
import { describeReplayStorage, UNSAFE_KEYS } from './replay-storage-cases.js';

/** The S3 storage provider against s3rver, a real S3 API server in its own process. */

let s3: S3Server;
let storage: Storage;

const configFrom = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }, { persistSecret: false });
const s3Config = (env: Record<string, string>) => {
  const { storage } = configFrom(env);
  if (storage.kind !== 's3') throw new Error('expected STORAGE=s3');
  return storage;
};

beforeAll(async () => {
  s3 = await startS3Server();
  storage = createStorage(configFrom(s3.env));
});
afterAll(async () => {
  await s3?.stop();
});

const newKey = (suffix = '.jpg') => `images/2026/11/${randomUUID()}${suffix}`;

describe('S3 storage', () => {
  it('is chosen by STORAGE=s3 and keeps nothing on local disk', () => {
    expect(storage.localDir).toBeNull();
  });

  it('puts an object that a browser reads at its URL, with its type and a year of caching', async () => {
    const key = newKey();
    const body = Buffer.from('not really a JPEG, but bytes are bytes');
    const { url } = await storage.put(key, body, 'image/jpeg');
    expect(url).toBe(`${s3.endpoint}/${s3.bucket}/${key}`);
    expect(storage.urlFor(key)).toBe(url);

    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
  });

  it('deletes an object, and deleting a missing key is not an error', async () => {
    const key = newKey('-thumb.jpg');
    const { url } = await storage.put(key, Buffer.from('miniatura'), 'image/jpeg');
    expect((await fetch(url)).status).toBe(200);
    await storage.delete(key);
    expect((await fetch(url)).status).toBe(404);
    expect(await s3.keys()).not.toContain(key);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('reads an object back (the share card draws a stored photo), and null for a missing key', async () => {
    const key = newKey();
    const body = Buffer.from('foto guardada');
    await storage.put(key, body, 'image/jpeg');
    expect((await storage.read(key))?.equals(body)).toBe(true);
    expect(await storage.read(newKey())).toBeNull();
  });

  it('encodes each segment of a key in its URL', async () => {
    const key = 'images/2026/11/foto con espacio#1.jpg';
    const { url } = await storage.put(key, Buffer.from('x'), 'image/jpeg');
    expect(url).toBe(`${s3.endpoint}/${s3.bucket}/images/2026/11/foto%20con%20espacio%231.jpg`);
    expect((await s3.get(key))?.body.toString()).toBe('x');
    expect((await fetch(url)).status).toBe(200);
  });

  it('fails the put when the bucket does not exist, so the caller records nothing', async () => {
    const missing = createS3Storage(s3Config({ ...s3.env, S3_BUCKET: 'no-existe' }));
    await expect(missing.put(newKey(), Buffer.from('x'), 'image/jpeg')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('fails with an unknown access key (the one credential check s3rver makes)', async () => {
    const stranger = createS3Storage(s3Config({ ...s3.env, S3_ACCESS_KEY_ID: 'DESCONOCIDA', S3_SECRET_ACCESS_KEY: 'x' }));
    await expect(stranger.put(newKey(), Buffer.from('x'), 'image/jpeg')).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
  });
});

describeReplayStorage('S3 storage', () => storage);

describe('S3 storage: replays in the bucket', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'martillo-s3-replays-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores a file with its type and caching only in the browser, never in a shared cache', async () => {
    const source = path.join(dir, 'clip.mp4');
    await writeFile(source, 'clip de subasta');
    const key = `clips/${randomUUID()}.mp4`;
    await storage.putFile(key, source, 'video/mp4');
    expect(await s3.get(key)).toEqual({ body: Buffer.from('clip de subasta'), contentType: 'video/mp4', cacheControl: PRIVATE_CACHE_CONTROL });
  });

  it('refuses a file larger than one PutObject takes before sending a byte', async () => {
    // Sparse: the size is there, the disk is not used.
    const source = path.join(dir, 'huge.mp4');
    await writeFile(source, '');
    await truncate(source, MAX_PUT_OBJECT_BYTES + 1);
    const key = `replays/${randomUUID()}/replay.mp4`;
    await expect(storage.putFile(key, source, 'video/mp4')).rejects.toThrow(/5 GiB/);
    expect(await s3.keys()).not.toContain(key);
  });

  it('sends nothing to the bucket for an unsafe key', async () => {
    const source = path.join(dir, 'unsafe.mp4');
    await writeFile(source, 'x');
    const before = await s3.keys();
    for (const key of UNSAFE_KEYS) await expect(storage.putFile(key, source, 'video/mp4')).rejects.toThrow(/unsafe storage key/);
    expect(await s3.keys()).toEqual(before);
  });

  it('fails putFile when the bucket does not exist', async () => {
    const source = path.join(dir, 'nobucket.mp4');
    await writeFile(source, 'x');
    const missing = createS3Storage(s3Config({ ...s3.env, S3_BUCKET: 'no-existe' }));
    await expect(missing.putFile(`clips/${randomUUID()}.mp4`, source, 'video/mp4')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });
});

describe('public URLs', () => {
  const url = (env: Record<string, string>) => createS3Storage(s3Config({ STORAGE: 's3', S3_BUCKET: 'martillo-fotos', ...env })).urlFor('images/2026/11/a.jpg');

  it('uses S3_PUBLIC_URL (a CDN) when set, with or without a trailing slash', () => {
    expect(url({ S3_PUBLIC_URL: 'https://cdn.martillo.mx/' })).toBe('https://cdn.martillo.mx/images/2026/11/a.jpg');
    expect(url({ S3_PUBLIC_URL: 'https://cdn.martillo.mx/fotos' })).toBe('https://cdn.martillo.mx/fotos/images/2026/11/a.jpg');
  });

  it("otherwise the bucket's own address: AWS virtual-hosted, an endpoint path-style", () => {
    expect(url({})).toBe('https://martillo-fotos.s3.us-east-1.amazonaws.com/images/2026/11/a.jpg');
    expect(url({ S3_REGION: 'mx-central-1' })).toBe('https://martillo-fotos.s3.mx-central-1.amazonaws.com/images/2026/11/a.jpg');
    expect(url({ S3_ENDPOINT: 'http://minio.local:9000/' })).toBe('http://minio.local:9000/martillo-fotos/images/2026/11/a.jpg');
    expect(url({ S3_ENDPOINT: 'https://nyc3.digitaloceanspaces.com', S3_FORCE_PATH_STYLE: 'false' })).toBe(
      'https://martillo-fotos.nyc3.digitaloceanspaces.com/images/2026/11/a.jpg',
    );
  });
});
