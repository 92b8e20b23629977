import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, type UploadResult } from '../../../../src/domain/uploads.js';
import { uploads } from '../../../../src/server/db/schema.js';
import { saveUploadedImage } from '../../../../src/server/features/media/service.js';
import { messages } from '../../../../src/server/messages.js';
import { signInAs } from '../../../support/actors.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

let server: TestServer;
let dataDir: string;
let admin: string;
let seller: string;
let buyer: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'martillo-uploads-'));
  // What a traversal would be after: the development session secret beside the uploads folder.
  await writeFile(path.join(dataDir, 'session-secret'), 'top-secret-value');
  server = await startTestServer({ env: { DATA_DIR: dataDir } });
  admin = (await signInAs(server, { email: 'admin@ejemplo.mx', name: 'Ana', roles: ['admin', 'buyer'] })).cookie;
  seller = (await signInAs(server, { email: 'vendedor@ejemplo.mx', name: 'Beto', roles: ['seller'], companyId: 'subastas-beto' })).cookie;
  buyer = (await signInAs(server, { email: 'comprador@ejemplo.mx', name: 'Caro', roles: ['buyer'] })).cookie;
});
afterAll(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

type Part = { name: string; value: string } | { name: string; filename: string; contentType: string; data: Buffer };

/** A multipart/form-data body built by hand, as a browser would send it. */
function form(...parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----martillo${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = 'data' in p ? `; filename="${p.filename}"\r\nContent-Type: ${p.contentType}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}\r\n\r\n`));
    chunks.push('data' in p ? p.data : Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const filePart = (data: Buffer, filename = 'foto.jpg', contentType = 'image/jpeg'): Part => ({ name: 'file', filename, contentType, data });

function upload(cookie: string | null, body: { payload: Buffer; headers: Record<string, string> }) {
  return server.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...(cookie ? { cookie } : {}) } });
}

/** The file behind a URL the API returned. */
const storedFile = (url: string) => readFile(path.join(dataDir, decodeURIComponent(url)));

async function storedFiles(): Promise<string[]> {
  const root = path.join(dataDir, 'uploads');
  return (await readdir(root, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
}
async function uploadRows(): Promise<number> {
  const [row] = await server.ctx.db.select({ n: count() }).from(uploads);
  return row?.n ?? 0;
}

const solid = (width: number, height: number, background = '#c0392b') => sharp({ create: { width, height, channels: 3, background } });

/** A phone photo: 300×200 pixels stored sideways (EXIF orientation 6), with GPS and camera tags. */
async function phonePhoto(): Promise<Buffer> {
  return solid(300, 200)
    .jpeg()
    .withExif({
      IFD0: { Make: 'Martillo Cam', Copyright: 'Ana en Guadalajara' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '20/1 40/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '103/1 21/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** True when an EXIF block holds a GPS IFD pointer (tag 0x8825), in either byte order. */
const hasGpsPointer = (exif: Buffer) => exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));

describe('POST /api/uploads: who may upload', () => {
  it('refuses a signed-out request', async () => {
    const res = await upload(null, form(filePart(await solid(10, 10).jpeg().toBuffer())));
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe(messages.errors.unauthenticated);
  });

  it('refuses a buyer', async () => {
    const res = await upload(buyer, form(filePart(await solid(10, 10).jpeg().toBuffer())));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(messages.errors.forbidden);
  });

  it('accepts a seller and records the upload under their company', async () => {
    const res = await upload(
      seller,
      form({ name: 'kind', value: 'session_cover' }, filePart(await solid(2400, 900).png().toBuffer(), 'portada.png', 'image/png')),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json<UploadResult>();
    expect(body).toMatchObject({ width: 1920, height: 720 });
    const [row] = await server.ctx.db.select().from(uploads).where(eq(uploads.url, body.url));
    expect(row).toMatchObject({ kind: 'session_cover', companyId: 'subastas-beto', contentType: 'image/jpeg' });
  });
});

describe('POST /api/uploads: re-encoding', () => {
  it('orients a phone photo, strips EXIF and GPS, and records the upload', async () => {
    const input = await phonePhoto();
    const before = await sharp(input).metadata();
    expect(before.exif).toBeDefined();
    expect(hasGpsPointer(before.exif as Buffer)).toBe(true);
    expect(before.orientation).toBe(6);

    const res = await upload(admin, form(filePart(input, 'IMG_0001.JPG')));
    expect(res.statusCode).toBe(201);
    const body = res.json<UploadResult>();
    expect(body.url).toMatch(/^\/uploads\/images\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.jpg$/);
    expect(body.thumbnailUrl).toBe(body.url.replace(/\.jpg$/, '-thumb.jpg'));
    // Orientation 6 means "rotate 90°": the stored picture stands upright.
    expect(body).toMatchObject({ width: 200, height: 300 });

    const stored = await storedFile(body.url);
    const after = await sharp(stored).metadata();
    expect(after).toMatchObject({ format: 'jpeg', width: 200, height: 300 });
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(stored.includes('Exif\0\0')).toBe(false);
    expect(stored.includes('Guadalajara')).toBe(false);
    expect((await sharp(await storedFile(body.thumbnailUrl)).metadata()).exif).toBeUndefined();

    const [row] = await server.ctx.db.select().from(uploads).where(eq(uploads.url, body.url));
    expect(row).toMatchObject({
      kind: 'auction_image',
      contentType: 'image/jpeg',
      bytes: stored.length,
      width: 200,
      height: 300,
      thumbnailUrl: body.thumbnailUrl,
    });
    expect(row?.storageKey).toBe(body.url.replace('/uploads/', ''));
    expect(row?.thumbnailKey).toBe(body.thumbnailUrl.replace('/uploads/', ''));
    expect(row?.ownerId).toBeTruthy();
  });

  it('flattens a transparent PNG onto white', async () => {
    const transparent = await sharp({ create: { width: 40, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: await solid(20, 20, '#0000ff').png().toBuffer(), left: 10, top: 10 }])
      .png()
      .toBuffer();
    const res = await upload(admin, form(filePart(transparent, 'logo.png', 'image/png')));
    expect(res.statusCode).toBe(201);
    const { data, info } = await sharp(await storedFile(res.json().url))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    for (const channel of pixel(1, 1)) expect(channel).toBeGreaterThan(245);
    const [r, g, b] = pixel(20, 20) as [number, number, number];
    expect(b).toBeGreaterThan(200);
    expect(r + g).toBeLessThan(40);
  });

  it('caps a large photo at 1600 px and makes a thumbnail of at most 320 px', async () => {
    const res = await upload(admin, form(filePart(await solid(4000, 3000).jpeg({ quality: 60 }).toBuffer())));
    expect(res.statusCode).toBe(201);
    const body = res.json<UploadResult>();
    expect(body).toMatchObject({ width: 1600, height: 1200 });
    expect(await sharp(await storedFile(body.url)).metadata()).toMatchObject({ width: 1600, height: 1200 });
    expect(await sharp(await storedFile(body.thumbnailUrl)).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
  });

  it('never enlarges a small image', async () => {
    const res = await upload(admin, form(filePart(await solid(120, 80).webp().toBuffer(), 'mini.webp', 'image/webp')));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ width: 120, height: 80 });
    expect(await sharp(await storedFile(res.json().thumbnailUrl)).metadata()).toMatchObject({ width: 120, height: 80 });
  });

  it('keeps the first frame of an animated GIF', async () => {
    const frame = (colour: string) => solid(30, 30, colour).png().toBuffer();
    const gif = await sharp([await frame('#00ff00'), await frame('#ff0000')], { join: { animated: true } })
      .gif({ loop: 0 })
      .toBuffer();
    expect(await sharp(gif).metadata()).toMatchObject({ format: 'gif', pages: 2 });
    const res = await upload(admin, form(filePart(gif, 'anim.gif', 'image/gif')));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ width: 30, height: 30 });
    const { dominant } = await sharp(await storedFile(res.json().url)).stats();
    expect(dominant.g).toBeGreaterThan(200);
    expect(dominant.r).toBeLessThan(60);
  });
});

describe('POST /api/uploads: refusals', () => {
  async function expectRefused(res: Awaited<ReturnType<typeof upload>>, status: number, message: string) {
    expect(res.statusCode).toBe(status);
    expect(res.json().error.message).toBe(message);
  }

  it('refuses a text file named photo.jpg that claims to be a JPEG, storing nothing', async () => {
    const [rows, files] = [await uploadRows(), await storedFiles()];
    const res = await upload(admin, form(filePart(Buffer.from('Hola, esto no es una foto.\n'.repeat(50)), 'photo.jpg', 'image/jpeg')));
    await expectRefused(res, 400, messages.uploads.notAnImage);
    expect(await uploadRows()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('refuses an empty file and an SVG', async () => {
    await expectRefused(await upload(admin, form(filePart(Buffer.alloc(0)))), 400, messages.uploads.notAnImage);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    await expectRefused(await upload(admin, form(filePart(svg, 'x.svg', 'image/svg+xml'))), 400, messages.uploads.notAnImage);
  });

  it('refuses JPEG bytes that do not decode', async () => {
    const good = await solid(200, 200).jpeg().toBuffer();
    const corrupt = Buffer.concat([good.subarray(0, 400), Buffer.alloc(3000, 0x55)]);
    await expectRefused(await upload(admin, form(filePart(corrupt))), 400, messages.uploads.unreadable);
  });

  it('refuses an image with too many pixels before decoding it', async () => {
    // ~180 KB on the wire, 50.4 megapixels once decoded.
    const bomb = await solid(7100, 7100, '#ffffff').png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(MAX_UPLOAD_BYTES);
    await expectRefused(await upload(admin, form(filePart(bomb, 'bomba.png', 'image/png'))), 400, messages.uploads.tooManyPixels);
  });

  it('refuses a HEIC photo it cannot decode, with a hint', async () => {
    const ftyp = Buffer.alloc(24);
    ftyp.writeUInt32BE(24, 0);
    ftyp.write('ftypheic', 4);
    ftyp.write('mif1heic', 16);
    const heic = Buffer.concat([ftyp, Buffer.alloc(600, 1)]);
    await expectRefused(await upload(admin, form(filePart(heic, 'IMG_0002.HEIC', 'image/heic'))), 400, messages.uploads.heicUnsupported);
  });

  it('answers 413 for a file over 10 MB and stores nothing', async () => {
    const [rows, files] = [await uploadRows(), await storedFiles()];
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0);
    (await solid(10, 10).jpeg().toBuffer()).copy(big);
    const res = await upload(admin, form(filePart(big), { name: 'kind', value: 'auction_image' }));
    await expectRefused(res, 413, messages.uploads.tooLarge);
    expect(await uploadRows()).toBe(rows);
    expect(await storedFiles()).toEqual(files);
  });

  it('asks for the file when the form has none', async () => {
    await expectRefused(await upload(admin, form({ name: 'kind', value: 'auction_image' })), 400, messages.uploads.missingFile);
    const wrongField = form({ name: 'image', filename: 'a.jpg', contentType: 'image/jpeg', data: await solid(10, 10).jpeg().toBuffer() });
    await expectRefused(await upload(admin, wrongField), 400, messages.uploads.missingFile);
    await expectRefused(await upload(admin, form({ name: 'file', value: 'not a file' })), 400, messages.uploads.missingFile);
  });

  it('refuses an unknown kind', async () => {
    const res = await upload(admin, form({ name: 'kind', value: 'avatar' }, filePart(await solid(10, 10).jpeg().toBuffer())));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.kind).toBe(messages.fields.invalid);
  });

  it('takes one file per request', async () => {
    const jpeg = await solid(10, 10).jpeg().toBuffer();
    await expectRefused(await upload(admin, form(filePart(jpeg), filePart(jpeg))), 400, messages.uploads.tooManyParts);
  });

  it('refuses a body that is not multipart, in Spanish', async () => {
    const json = await server.app.inject({ method: 'POST', url: '/api/uploads', headers: { cookie: admin }, payload: { file: 'x' } });
    await expectRefused(json, 415, messages.uploads.notMultipart);
    const octets = await server.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { cookie: admin, 'content-type': 'application/octet-stream' },
      payload: await solid(10, 10).jpeg().toBuffer(),
    });
    expect(octets.statusCode).toBe(415);
    expect(octets.json().error.message).toBe(messages.errors.unsupportedMedia);
    const noBoundary = await server.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { cookie: admin, 'content-type': 'multipart/form-data' },
      payload: 'x',
    });
    await expectRefused(noBoundary, 400, messages.uploads.notMultipart);
  });

  it('takes back the stored files when the database refuses the row', async () => {
    const files = await storedFiles();
    // An owner that does not exist breaks the foreign key, after both files were written.
    const attempt = saveUploadedImage(server.ctx.db, server.ctx.storage, {
      owner: { id: randomUUID(), companyId: 'fantasma' },
      kind: 'auction_image',
      bytes: await solid(50, 50).jpeg().toBuffer(),
    });
    await expect(attempt).rejects.toThrow();
    expect(await storedFiles()).toEqual(files);
  });
});

/** A GET with the path sent exactly as written (fetch and inject would normalise `..`). */
function rawGet(url: string, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/`, { path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /uploads/*', () => {
  let uploaded: UploadResult;
  beforeAll(async () => {
    uploaded = (await upload(admin, form(filePart(await solid(800, 600).jpeg().toBuffer())))).json();
  });

  it('serves the image and its thumbnail with a year of caching', async () => {
    for (const url of [uploaded.url, uploaded.thumbnailUrl]) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.rawPayload.equals(await storedFile(url))).toBe(true);
    }
    const head = await server.app.inject({ method: 'HEAD', url: uploaded.url });
    expect(head.statusCode).toBe(200);
  });

  it('answers a JSON 404 for a missing file, without the long cache header', async () => {
    const res = await server.app.inject({ method: 'GET', url: `/uploads/images/2020/01/${randomUUID()}.jpg` });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('lists no folders', async () => {
    for (const url of ['/uploads/', '/uploads/images/', '/uploads/images', `/uploads/${uploaded.url.split('/').slice(2, 5).join('/')}/`]) {
      expect((await server.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it.each([
    '/uploads/../session-secret',
    '/uploads/%2e%2e/session-secret',
    '/uploads/..%2fsession-secret',
    '/uploads/%2e%2e%2fsession-secret',
    '/uploads/images/..%2f..%2fsession-secret',
    '/uploads/images/%2e%2e/%2e%2e/session-secret',
    '/uploads/..\\session-secret',
    '/uploads/.%2e/session-secret.jpg',
  ])('does not escape the folder: %s', async (rawPath) => {
    const viaInject = await server.app.inject({ method: 'GET', url: rawPath });
    expect(viaInject.statusCode).toBe(404);
    const viaHttp = await rawGet(server.url, rawPath);
    expect(viaHttp.status).toBe(404);
    expect(viaHttp.body).not.toContain('top-secret-value');
  });

  it('does not serve a half-written temporary file', async () => {
    const temp = `${uploaded.url.replace('/uploads/', '')}.${randomUUID()}.part`;
    await writeFile(path.join(dataDir, 'uploads', temp), 'partial');
    expect((await server.app.inject({ method: 'GET', url: `/uploads/${temp}` })).statusCode).toBe(404);
  });
});

describe('GET /uploads/* beside the web app', () => {
  it('answers 404 for a missing upload instead of the web app', async () => {
    const webDir = await mkdtemp(path.join(tmpdir(), 'martillo-web-'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Martillo</title>');
    const withWeb = await startTestServer({ env: { DATA_DIR: dataDir }, webDir, listen: false });
    try {
      expect((await withWeb.app.inject({ method: 'GET', url: '/subastas/algo' })).headers['content-type']).toMatch(/^text\/html/);
      for (const url of [`/uploads/images/2020/01/${randomUUID()}.jpg`, '/uploads/images/2020/01/sin-extension']) {
        const res = await withWeb.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json().error.code).toBe('NOT_FOUND');
      }
    } finally {
      await withWeb.close();
      await rm(webDir, { recursive: true, force: true });
    }
  });
});

describe('rate limit', () => {
  it('counts uploads per user, not per address', async () => {
    const hasty = (await signInAs(server, { email: 'prisa@ejemplo.mx', name: 'Dani', roles: ['buyer'] })).cookie;
    const notMultipart = (cookie: string) =>
      server.app.inject({ method: 'POST', url: '/api/uploads', headers: { cookie }, payload: { file: 'x' } }).then((r) => r.statusCode);
    for (let i = 0; i < 60; i++) expect(await notMultipart(hasty)).not.toBe(429);
    expect(await notMultipart(hasty)).toBe(429);
    // Same address (inject), another user: still allowed.
    expect(await notMultipart(admin)).toBe(415);
  });
});
