import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../src/server/web/precompress.js';
import { startTestServer, type TestServer } from '../support/server.js';

// A built web app in miniature: an entry chunk big enough to be worth compressing, a small one that
// is not, a stylesheet and index.html; and a secret beside the folder that must never be served.
let parent = '';
let webDir = '';
let server: TestServer;
const SECRET = 'no-debe-salir-del-servidor';
const entry = `export const catalogo = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `Subasta número ${i}: reloj, bicicleta o cuadro`))};\n`;
const tiny = 'export const x = 1;\n';
const css = `.tarjeta{color:#1a1b1e}\n`.repeat(200);
const html = `<!doctype html><html lang="es-MX"><head><title>Martillo</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div>${'<!-- relleno -->'.repeat(80)}</body></html>`;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'martillo-static-'));
  webDir = path.join(parent, 'web');
  await mkdir(path.join(webDir, 'assets'), { recursive: true });
  await writeFile(path.join(parent, 'secret.txt'), SECRET);
  await writeFile(path.join(webDir, 'index.html'), html);
  await writeFile(path.join(webDir, 'assets/index-Ab12Cd34.js'), entry);
  await writeFile(path.join(webDir, 'assets/tiny-Zz99Yy88.js'), tiny);
  await writeFile(path.join(webDir, 'assets/index-Ef56Gh78.css'), css);
  await precompressDir(webDir);
  server = await startTestServer({ webDir, listen: false });
});
afterAll(async () => {
  await server?.close();
  await rm(parent, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  server.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('the build precompresses the web app', () => {
  it('writes a brotli and a gzip copy of each text file worth compressing, and none of the small ones', async () => {
    const assets = (await readdir(path.join(webDir, 'assets'))).sort();
    expect(assets).toEqual([
      'index-Ab12Cd34.js',
      'index-Ab12Cd34.js.br',
      'index-Ab12Cd34.js.gz',
      'index-Ef56Gh78.css',
      'index-Ef56Gh78.css.br',
      'index-Ef56Gh78.css.gz',
      'tiny-Zz99Yy88.js',
    ]);
  });
});

describe('GET of the web app: the encoding the browser accepts', () => {
  it('sends brotli to a browser that accepts it, with the JavaScript type and long caching', async () => {
    const res = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(entry);
    expect(res.rawPayload.length).toBeLessThan(entry.length / 3);
  });

  it('sends gzip to one that accepts only gzip (or anything, *)', async () => {
    for (const accept of ['gzip', 'gzip, deflate', '*']) {
      const res = await get('/assets/index-Ef56Gh78.css', accept);
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(res.headers['content-type'], accept).toMatch(/^text\/css/);
      expect(res.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(gunzipSync(res.rawPayload).toString(), accept).toBe(css);
    }
  });

  it('prefers what the browser weighs higher', async () => {
    const res = await get('/assets/index-Ab12Cd34.js', 'br;q=0.5, gzip;q=1');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(entry);
  });

  it('sends the original to a client that accepts no compression, still saying it varies', async () => {
    for (const accept of [undefined, 'identity', 'deflate']) {
      const res = await get('/assets/index-Ab12Cd34.js', accept);
      expect(res.statusCode, String(accept)).toBe(200);
      expect(res.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(res.headers.vary, String(accept)).toMatch(/accept-encoding/i);
      expect(res.payload, String(accept)).toBe(entry);
    }
  });

  it('sends a file too small to compress as it is, to everyone', async () => {
    const res = await get('/assets/tiny-Zz99Yy88.js', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.payload).toBe(tiny);
  });

  it('serves index.html for a screen path compressed, revalidated (no-cache), with the security headers', async () => {
    for (const url of ['/auctions/123', '/live/tienda/abc', '/pay/xyz', '/admin']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(html);
    }
    const plain = await get('/auctions/123');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.payload).toBe(html);
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await server.app.inject({ method: 'HEAD', url: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.payload).toBe('');
  });
});

describe('GET of the web app: what it never serves', () => {
  it('answers 404 for a missing asset, not the app', async () => {
    for (const url of ['/assets/index-00000000.js', '/assets/nada.css', '/favicon.ico']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).not.toMatch(/^text\/html/);
    }
  });

  it('answers 404 for the compressed copies by their own names', async () => {
    for (const url of ['/assets/index-Ab12Cd34.js.br', '/assets/index-Ab12Cd34.js.gz', '/index.html.br']) {
      expect((await get(url, 'br, gzip')).statusCode, url).toBe(404);
    }
  });

  it('never serves a file outside the web folder', async () => {
    for (const url of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    ]) {
      for (const accept of [undefined, 'br, gzip']) {
        const res = await get(url, accept);
        expect(res.rawPayload.toString(), url).not.toContain(SECRET);
        expect(res.statusCode === 404 || res.headers['content-type']?.toString().startsWith('text/html'), `${url} ${res.statusCode}`).toBe(true);
      }
    }
  });
});
