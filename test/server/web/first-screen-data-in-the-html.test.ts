import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userProfiles } from '../../../src/server/db/schema.js';
import { dataBlock, initialDataUrls } from '../../../src/server/web/preload.js';
import { buildActor } from '../../support/actors.js';
import { buildSession } from '../../support/factories.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/** The answers carry the server's clock (`serverNow`), which moves between the page and the second read. */
function withoutClock(answer: unknown): unknown {
  if (!answer || typeof answer !== 'object') return answer;
  const { serverNow: _clock, ...rest } = answer as Record<string, unknown>;
  return rest;
}

/**
 * The home's, a seller page's and a shared search's first API answers come inside the HTML as a JSON data block, so a
 * cold load paints without a spinner. The answer is the API's own, asked with the visitor's cookie.
 * The inlined block must equal what the route answers the same visitor.
 */

const HOSTILE_TITLE = '</script><script>alert(1)</script> <!-- \u2028 \u2029';

let parent = '';
let server: TestServer;

const html = `<!doctype html><html lang="es-MX"><head><title>Martillo</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>`;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'martillo-initial-'));
  await mkdir(path.join(parent, 'assets'), { recursive: true });
  await writeFile(path.join(parent, 'index.html'), html);
  await writeFile(path.join(parent, 'assets/index-Ab12Cd34.js'), 'export {};\n');
  // Vite's manifest in miniature: the entry and the home's and the seller page's lazy chunks.
  await mkdir(path.join(parent, '.vite'));
  await writeFile(
    path.join(parent, '.vite/manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-Ab12Cd34.js', src: 'index.html', isEntry: true },
      'src/web/public/home/home-page.tsx': { file: 'assets/home-page-Aa11Bb22.js', isDynamicEntry: true, imports: ['index.html'] },
      'src/web/public/store/store-page.tsx': { file: 'assets/store-page-Cc33Dd44.js', isDynamicEntry: true, imports: ['index.html'] },
    }),
  );
  server = await startTestServer({ webDir: parent, listen: false });
  // A seller whose page is /tienda/la-tienda.
  const seller = await buildActor(server, { email: 'la-tienda@ejemplo.mx', name: 'La Tienda', roles: ['seller'], companyId: 'la-tienda' });
  await server.ctx.db.update(userProfiles).set({ storeSlug: 'la-tienda' }).where(eq(userProfiles.userId, seller.id));
});
afterAll(async () => {
  await server?.close();
  await rm(parent, { recursive: true, force: true });
});

/** The text of the data block for `url`, up to the first `</script>` (where a browser would end it). */
function blockText(body: string, url: string): string | null {
  const start = body.indexOf(`<script type="application/json" data-initial-url="${url}">`);
  if (start < 0) return null;
  const from = body.indexOf('>', start) + 1;
  return body.slice(from, body.indexOf('</script>', from));
}

const get = (url: string, cookie?: string) => server.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe('the first screen’s data in the HTML', () => {
  it('the home carries GET /api/home’s answer for the visitor, which no data can break out of', async () => {
    await buildSession(server.ctx.db, { title: HOSTILE_TITLE, scheduledAt: new Date(Date.now() + 86_400_000) });
    const buyer = await buildActor(server, { email: `compra-${randomUUID().slice(0, 6)}@ejemplo.mx`, name: 'Ana Compra', roles: ['buyer'] });
    for (const cookie of [undefined, buyer.cookie]) {
      const res = await get('/', cookie);
      expect(res.statusCode).toBe(200);
      const text = blockText(res.body, '/api/home');
      expect(text).not.toBeNull();
      // Nothing in the data can end the element or open a comment: every '<' is escaped.
      expect(text).not.toContain('<');
      const api = await get('/api/home', cookie);
      expect(withoutClock(JSON.parse(text ?? ''))).toEqual(withoutClock(api.json()));
      expect(JSON.stringify(JSON.parse(text ?? ''))).toContain(HOSTILE_TITLE.slice(0, 9));
      // A signed-in visitor's page is theirs alone.
      expect(res.headers['cache-control']).toBe(cookie ? 'private, no-cache' : 'no-cache');
    }
  });

  it("a seller's page carries GET /api/sellers/{slug}; an unknown seller's page carries no block", async () => {
    const res = await get('/tienda/la-tienda');
    const text = blockText(res.body, '/api/sellers/la-tienda');
    expect(text).not.toBeNull();
    expect(withoutClock(JSON.parse(text ?? ''))).toEqual(withoutClock((await get('/api/sellers/la-tienda')).json()));
    const unknown = await get('/tienda/nadie-vende-aqui');
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).not.toContain('data-initial-url');
    // A slug no seller can have is not asked at all: no other API path is reachable through it.
    for (const crafted of ['/tienda/..', '/tienda/..%2Fme', '/tienda/%2e%2e']) {
      const res = await get(crafted);
      expect(res.statusCode, crafted).toBe(200);
      expect(res.body, crafted).not.toContain('data-initial-url="/api/sellers/');
    }
  });

  it("the home's and the seller page's code is preloaded with the HTML", async () => {
    expect((await get('/')).body).toContain('<link rel="modulepreload" crossorigin href="/assets/home-page-Aa11Bb22.js">');
    expect((await get('/tienda/la-tienda')).body).toContain('<link rel="modulepreload" crossorigin href="/assets/store-page-Cc33Dd44.js">');
  });

  it("a shared search carries the home's answer (its category chips) and the search's, under the page's own address", async () => {
    const categoryId = randomUUID();
    const res = await get(`/buscar?q=${encodeURIComponent('  relój seiko ')}&categoria=${categoryId}`);
    expect(res.statusCode).toBe(200);
    expect(blockText(res.body, '/api/home')).not.toBeNull();
    // Trimmed and encoded as the page's client asks (src/web/api/home.ts useSearch).
    const searchAt = `/api/search?q=rel%C3%B3j+seiko&amp;categoryId=${categoryId}`;
    const text = blockText(res.body, searchAt);
    expect(text).not.toBeNull();
    expect(JSON.parse(text ?? '')).toEqual((await get(searchAt.replace('&amp;', '&'))).json());
    // A query the page would not send (too short, too long) and a category the API refuses carry no results.
    for (const url of ['/buscar', '/buscar?q=r', `/buscar?q=${'a'.repeat(101)}`, '/buscar?q=reloj&categoria=..%2Fme']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).not.toContain('data-initial-url="/api/search');
    }
  });

  it('other pages carry none', async () => {
    for (const url of [`/auctions/${randomUUID()}`, '/admin']) {
      expect((await get(url)).body).not.toContain('data-initial-url');
    }
  });
});

describe('initialDataUrls', () => {
  it("asks the seller's page of a slug only, never a path a crafted slug could reach", () => {
    expect(initialDataUrls({ kind: 'store', slug: 'relojeria-la-hora' })).toEqual(['/api/sellers/relojeria-la-hora']);
    for (const slug of ['..', '../me', 'a/b', 'a?b', 'x'.repeat(101), '']) expect(initialDataUrls({ kind: 'store', slug }), slug).toEqual([]);
    expect(initialDataUrls({ kind: 'home' })).toEqual(['/api/home']);
  });

  it("asks the search the page would send, encoded, and only the search API's path", () => {
    expect(initialDataUrls({ kind: 'search' }, '')).toEqual(['/api/home']);
    expect(initialDataUrls({ kind: 'search' }, '?q=%20%20')).toEqual(['/api/home']);
    expect(initialDataUrls({ kind: 'search' }, '?q=reloj')).toEqual(['/api/home', '/api/search?q=reloj']);
    const [, crafted] = initialDataUrls({ kind: 'search' }, '?q=../../me%3Fx%26y&categoria=a%26b%2F..');
    expect(crafted).toBe('/api/search?q=..%2F..%2Fme%3Fx%26y&categoryId=a%26b%2F..');
  });
});

describe('dataBlock', () => {
  it('escapes < and the line separators, keeping the same JSON', () => {
    const data = { title: HOSTILE_TITLE, nested: ['<!--', '</SCRIPT >'] };
    const block = dataBlock('/api/home', JSON.stringify(data));
    const inner = block.slice(block.indexOf('>') + 1, block.lastIndexOf('</script>'));
    expect(inner).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(inner)).toEqual(data);
    expect(block.match(/<\/script>/g)).toHaveLength(1);
  });
});
