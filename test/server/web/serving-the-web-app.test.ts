import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../src/server/web/precompress.js';
import { escapeAttr, negotiateEncoding } from '../../../src/server/web/preload.js';
import { startTestServer, type TestServer } from '../../support/server.js';

// A built web app in miniature: an entry chunk big enough to be worth compressing, a small one that
// is not, a stylesheet and index.html; and a secret beside the folder that must never be served.
let parent = '';
let webDir = '';
let server: TestServer;
const SECRET = 'no-debe-salir-del-servidor';
const entry = `export const catalogo = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `Subasta número ${i}: reloj, bicicleta o cuadro`))};\n`;
const tiny = 'export const x = 1;\n';
const css = `.tarjeta{color:#1a1b1e}\n`.repeat(200);
// Vite's manifest in miniature: the entry (with a chunk of its own), the auction page's lazy chunk with
// a chunk it shares with the entry, one of its own and a stylesheet; the pay page's chunk.
const manifestJson = {
  'index.html': { file: 'assets/index-Ab12Cd34.js', src: 'index.html', isEntry: true, imports: ['_shared-Aa11Bb22.js'], css: ['assets/index-Ef56Gh78.css'] },
  '_shared-Aa11Bb22.js': { file: 'assets/shared-Aa11Bb22.js' },
  '_gallery-Cc33Dd44.js': { file: 'assets/gallery-Cc33Dd44.js', imports: ['_shared-Aa11Bb22.js', 'index.html'], css: ['assets/gallery-Ee55Ff66.css'] },
  'src/web/public/auction-page.tsx': {
    file: 'assets/auction-page-Gg77Hh88.js',
    src: 'src/web/public/auction-page.tsx',
    isDynamicEntry: true,
    imports: ['index.html', '_gallery-Cc33Dd44.js', '_shared-Aa11Bb22.js'],
  },
  'src/web/admin/admin-panel.tsx': {
    file: 'assets/admin-panel-Kk11Ll22.js',
    src: 'src/web/admin/admin-panel.tsx',
    isDynamicEntry: true,
    imports: ['index.html'],
  },
  'src/web/public/pay-page.tsx': { file: 'assets/pay-page-Ii99Jj00.js', src: 'src/web/public/pay-page.tsx', isDynamicEntry: true, imports: ['index.html'] },
};
const html = `<!doctype html><html lang="es-MX"><head><title>Martillo</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div>${'<!-- relleno -->'.repeat(80)}</body></html>`;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'martillo-static-'));
  webDir = path.join(parent, 'web');
  await mkdir(path.join(webDir, 'assets'), { recursive: true });
  await writeFile(path.join(parent, 'secret.txt'), SECRET);
  await writeFile(path.join(webDir, 'index.html'), html);
  await mkdir(path.join(webDir, '.vite'));
  await writeFile(path.join(webDir, '.vite/manifest.json'), JSON.stringify(manifestJson));
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
      expect(res.headers.vary, url).toMatch(/accept-encoding/i);
      expect(withoutPreloads(brotliDecompressSync(res.rawPayload).toString()), url).toBe(withoutPreloads(html));
    }
    const plain = await get('/auctions/123');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(withoutPreloads(plain.payload)).toBe(withoutPreloads(html));
    const gzip = await get('/pay/xyz', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(withoutPreloads(gunzipSync(gzip.rawPayload).toString())).toBe(withoutPreloads(html));
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await server.app.inject({ method: 'HEAD', url: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.payload).toBe('');
  });
});

/**
 * The page less what each request adds (its preloads, its own title and link preview, its first
 * data: share's tests and first-screen-data-in-the-html.test.ts check those), to compare with index.html.
 */
const withoutPreloads = (page: string) =>
  page
    .replace(/<link rel="(modulepreload|preload|canonical)"[^>]*>/g, '')
    .replace(/<title>[^<]*<\/title>|<meta (name|property)="[^"]*" content="[^"]*">/g, '')
    .replace(/<script type="application\/json" data-initial-url="[^"]*">[^<]*<\/script>/g, '');
/** The preload tags of the page served at a path, in order. */
async function preloadsAt(url: string): Promise<string[]> {
  const res = await get(url);
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['cache-control'], url).toBe('no-cache');
  const head = res.payload.slice(0, res.payload.indexOf('</head>'));
  return head.match(/<link rel="(modulepreload|preload)"[^>]*>/g) ?? [];
}

describe('GET of a screen path: its code and first API reads are preloaded', () => {
  const auctionId = '0b7a3c52-9d1e-4f6a-8b2c-3d4e5f607182';
  const paymentId = 'a1b2c3d4-e5f6-4789-8abc-def012345678';
  const sessionId = 'f0e1d2c3-b4a5-4968-8776-655443322110';

  it("announces the auction page's chunk, the chunks it adds to the entry's and their CSS, then its API reads", async () => {
    expect(await preloadsAt(`/auctions/${auctionId}`)).toEqual([
      `<link rel="preload" as="fetch" crossorigin href="/api/auctions/${auctionId}">`,
      `<link rel="preload" as="fetch" crossorigin href="/api/auctions/${auctionId}/bids?limit=30">`,
      '<link rel="preload" as="fetch" crossorigin href="/api/me">',
      '<link rel="modulepreload" crossorigin href="/assets/auction-page-Gg77Hh88.js">',
      '<link rel="modulepreload" crossorigin href="/assets/gallery-Cc33Dd44.js">',
      '<link rel="preload" as="style" crossorigin href="/assets/gallery-Ee55Ff66.css">',
    ]);
  });

  it('announces the pay page and its checkout, the live page its session', async () => {
    expect(await preloadsAt(`/pay/${paymentId}`)).toEqual([
      `<link rel="preload" as="fetch" crossorigin href="/api/pay/${paymentId}">`,
      '<link rel="preload" as="fetch" crossorigin href="/api/config">',
      '<link rel="modulepreload" crossorigin href="/assets/pay-page-Ii99Jj00.js">',
    ]);
    // The live page's chunk is not in this manifest: its session is still announced, nothing else (not the
    // chat, which is read once the page is in the show's room).
    expect(await preloadsAt(`/live/tienda/${sessionId}`)).toEqual([
      `<link rel="preload" as="fetch" crossorigin href="/api/live-sessions/${sessionId}">`,
      '<link rel="preload" as="fetch" crossorigin href="/api/config">',
      '<link rel="preload" as="fetch" crossorigin href="/api/me">',
    ]);
    expect(await preloadsAt('/live/tienda')).toEqual([]);
  });

  it('announces no API read for an id that is not a UUID, and never writes the path into the page', async () => {
    for (const id of ['123', 'abc"><script>alert(1)</script>', '%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E', `${auctionId}x`, `${auctionId.toUpperCase()}'`]) {
      const url = `/auctions/${id.includes('<') || id.includes('"') ? encodeURIComponent(id) : id}`;
      const preloads = await preloadsAt(url);
      expect(
        preloads.filter((tag) => tag.includes('as="fetch"')),
        url,
      ).toEqual([]);
      // The chunk preloads stay: they do not depend on the id.
      expect(
        preloads.some((tag) => tag.includes('auction-page-Gg77Hh88.js')),
        url,
      ).toBe(true);
      const page = (await get(url)).payload;
      expect(page, url).not.toContain('<script>alert');
      expect(page, url).not.toContain('alert(1)');
    }
    for (const url of [`/pay/${paymentId}/extra`, '/pay/%3Cb%3E']) {
      expect(
        (await preloadsAt(url)).filter((tag) => tag.includes('as="fetch"')),
        url,
      ).toEqual([]);
    }
  });

  it('preloads nothing for the admin panel (its chunk loads as before), and leaves the rest of the page as it is', async () => {
    for (const url of ['/admin', '/admin/livehub', '/', '/otra/cosa']) {
      expect(await preloadsAt(url), url).toEqual([]);
      expect(withoutPreloads((await get(url)).payload), url).toBe(withoutPreloads(html));
    }
  });
});

describe('the preload tags are written safely', () => {
  it('escapes every character that could end an attribute or open a tag', () => {
    expect(escapeAttr(`/a"b'c<d>e&f`)).toBe('/a&quot;b&#39;c&lt;d&gt;e&amp;f');
  });

  it('negotiates the HTML encoding by the weights the browser gives', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('br;q=0.5, gzip;q=1')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('br;q=0, *;q=0.1')).toBe('gzip');
    expect(negotiateEncoding('deflate')).toBe('identity');
    expect(negotiateEncoding(undefined)).toBe('identity');
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
