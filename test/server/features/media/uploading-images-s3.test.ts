import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadResult } from '../../../../src/domain/uploads.js';
import { uploads } from '../../../../src/server/db/schema.js';
import { saveUploadedImage } from '../../../../src/server/features/media/service.js';
import { messages } from '../../../../src/server/messages.js';
import { IMMUTABLE_CACHE_CONTROL } from '../../../../src/server/providers/storage/s3.js';
import { signInAs } from '../../../support/actors.js';
import { type S3Server, startS3Server } from '../../../support/s3.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

/**
 * Uploads through the real media route with STORAGE=s3, into a bucket of s3rver (a real S3 API
 * server in its own process): the same checks run before anything is stored, the objects in the
 * bucket are the re-encoded images without metadata, and stored objects go when their record does.
 */

let s3: S3Server;
let server: TestServer;
let dataDir: string;
let admin: string;

beforeAll(async () => {
  s3 = await startS3Server();
  dataDir = await mkdtemp(path.join(tmpdir(), 'martillo-uploads-s3-'));
  server = await startTestServer({ env: { DATA_DIR: dataDir, ...s3.env } });
  admin = (await signInAs(server, { email: 'admin@ejemplo.mx', name: 'Ana', roles: ['admin', 'buyer'] })).cookie;
});
afterAll(async () => {
  await server?.close();
  await s3?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A multipart/form-data body with one `file` part, as a browser sends it. */
function upload(data: Buffer, filename = 'foto.jpg', contentType = 'image/jpeg') {
  const boundary = `----martillo${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return server.app.inject({
    method: 'POST',
    url: '/api/uploads',
    payload,
    headers: { cookie: admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#2e86c1' } });
const keyOf = (url: string) => url.slice(`${s3.endpoint}/${s3.bucket}/`.length);
const hasGpsPointer = (exif: Buffer) => exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));

async function uploadRows(): Promise<number> {
  const [row] = await server.ctx.db.select({ n: count() }).from(uploads);
  return row?.n ?? 0;
}

describe('POST /api/uploads with STORAGE=s3', () => {
  it('stores the re-encoded photo and its thumbnail in the bucket, stripped of EXIF and GPS, and records their URLs', async () => {
    const input = await solid(300, 200)
      .jpeg()
      .withExif({
        IFD0: { Make: 'Martillo Cam', Copyright: 'Ana en Guadalajara' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '20/1 40/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '103/1 21/1 0/1' },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(hasGpsPointer((await sharp(input).metadata()).exif as Buffer)).toBe(true);

    const res = await upload(input, 'IMG_0001.JPG');
    expect(res.statusCode).toBe(201);
    const body = res.json<UploadResult>();
    expect(body.url).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/images/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.jpg$`));
    expect(body.thumbnailUrl).toBe(body.url.replace(/\.jpg$/, '-thumb.jpg'));
    expect(body).toMatchObject({ width: 200, height: 300 });

    const main = await s3.get(keyOf(body.url));
    expect(main).toMatchObject({ contentType: 'image/jpeg', cacheControl: IMMUTABLE_CACHE_CONTROL });
    const stored = main?.body as Buffer;
    const after = await sharp(stored).metadata();
    expect(after).toMatchObject({ format: 'jpeg', width: 200, height: 300 });
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(stored.includes('Exif\0\0')).toBe(false);
    expect(stored.includes('Guadalajara')).toBe(false);
    const thumb = await s3.get(keyOf(body.thumbnailUrl));
    expect((await sharp(thumb?.body as Buffer).metadata()).exif).toBeUndefined();

    // The URL the API answers is the one pages load: the bucket's public address.
    const viaUrl = await fetch(body.url);
    expect(viaUrl.status).toBe(200);
    expect(Buffer.from(await viaUrl.arrayBuffer()).equals(stored)).toBe(true);

    const [row] = await server.ctx.db.select().from(uploads).where(eq(uploads.url, body.url));
    expect(row).toMatchObject({
      storageKey: keyOf(body.url),
      thumbnailKey: keyOf(body.thumbnailUrl),
      thumbnailUrl: body.thumbnailUrl,
      contentType: 'image/jpeg',
      bytes: stored.length,
    });
    // Nothing went to the local folder.
    await expect(readdir(path.join(dataDir, 'uploads'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a text file named photo.jpg before anything reaches the bucket', async () => {
    const before = await s3.keys();
    const rows = await uploadRows();
    const res = await upload(Buffer.from('Hola, esto no es una foto.\n'.repeat(50)), 'photo.jpg');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(messages.uploads.notAnImage);
    expect(await s3.keys()).toEqual(before);
    expect(await uploadRows()).toBe(rows);
  });

  it('takes the objects back out of the bucket when the database refuses the record', async () => {
    const before = await s3.keys();
    // An owner that does not exist breaks the foreign key, after both objects were stored.
    const attempt = saveUploadedImage(server.ctx.db, server.ctx.storage, {
      owner: { id: randomUUID(), companyId: 'fantasma' },
      kind: 'auction_image',
      bytes: await solid(50, 50).jpeg().toBuffer(),
    });
    await expect(attempt).rejects.toThrow();
    expect(await s3.keys()).toEqual(before);
  });
});

describe("the pages' policy with STORAGE=s3", () => {
  it('lets pages show images from a bucket served over plain http (a MinIO on the local network), beside any https host', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/healthz' });
    const imgSrc = String(res.headers['content-security-policy'])
      .split(';')
      .find((d) => d.startsWith('img-src'));
    expect(imgSrc).toBe(`img-src 'self' data: blob: https: ${new URL(s3.endpoint).origin}`);
  });
});

describe('GET /uploads/* with STORAGE=s3', () => {
  it('redirects a URL recorded on local disk to the same key in the bucket', async () => {
    const key = `images/2026/05/${randomUUID()}.jpg`;
    const res = await server.app.inject({ method: 'GET', url: `/uploads/${key}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${s3.endpoint}/${s3.bucket}/${key}`);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect((await server.app.inject({ method: 'HEAD', url: `/uploads/${key}` })).statusCode).toBe(302);
  });

  it.each(['/uploads/', '/uploads/images/', '/uploads/../session-secret', '/uploads/%2e%2e/x.jpg', '/uploads/images/x.jpg.part', '/uploads/.env'])(
    'answers 404 for anything that is not a key the server issues: %s',
    async (url) => {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.headers.location).toBeUndefined();
    },
  );
});
