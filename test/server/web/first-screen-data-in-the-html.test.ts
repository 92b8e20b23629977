import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSessions } from '../../../src/server/db/schema.js';
import { dataBlock, initialDataUrl } from '../../../src/server/web/preload.js';
import { buildActor } from '../../support/actors.js';
import { buildSession } from '../../support/factories.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * The home's and a seller page's first API answer come inside the HTML as a JSON data block, so a
 * cold load paints without a spinner. The answer is the API's own, asked with the visitor's cookie.
 *
 * Until GET /api/home and GET /api/sellers/{slug} exist on this branch (they are built beside it),
 * the test registers stand-ins that answer from the database and the session the same way; once
 * the real routes are in, the same assertions run against them (the inlined block must equal what
 * the route answers the same visitor).
 */

const HOSTILE_TITLE = '</script><script>alert(1)</script> <!-- \u2028 \u2029';

let parent = '';
let server: TestServer;
let standIns = false;

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
  if (!server.app.hasRoute({ method: 'GET', url: '/api/home' })) {
    standIns = true;
    server.app.get('/api/home', async (req) => {
      const rows = await server.ctx.db.select({ id: liveSessions.id, title: liveSessions.title }).from(liveSessions);
      return { live: [], upcoming: rows.map((r) => ({ id: r.id, title: r.title, reminded: Boolean(req.user) })), categories: [] };
    });
    server.app.get<{ Params: { slug: string } }>('/api/sellers/:slug', async (req, reply) => {
      if (req.params.slug !== 'la-tienda') return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No encontramos lo que buscas.' } });
      return { seller: { slug: req.params.slug, following: Boolean(req.user) }, live: [], upcoming: [], past: [], auctions: [] };
    });
  }
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
      expect(JSON.parse(text ?? '')).toEqual(api.json());
      if (standIns) expect(JSON.stringify(JSON.parse(text ?? ''))).toContain(HOSTILE_TITLE.slice(0, 9));
      // A signed-in visitor's page is theirs alone.
      expect(res.headers['cache-control']).toBe(cookie ? 'private, no-cache' : 'no-cache');
    }
  });

  it("a seller's page carries GET /api/sellers/{slug}; an unknown seller's page carries no block", async () => {
    if (standIns) {
      const res = await get('/tienda/la-tienda');
      const text = blockText(res.body, '/api/sellers/la-tienda');
      expect(JSON.parse(text ?? '')).toEqual((await get('/api/sellers/la-tienda')).json());
    }
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

  it('other pages carry none', async () => {
    for (const url of ['/buscar', `/auctions/${randomUUID()}`, '/admin']) {
      expect((await get(url)).body).not.toContain('data-initial-url');
    }
  });
});

describe('initialDataUrl', () => {
  it("asks the seller's page of a slug only, never a path a crafted slug could reach", () => {
    expect(initialDataUrl({ kind: 'store', slug: 'relojeria-la-hora' })).toBe('/api/sellers/relojeria-la-hora');
    for (const slug of ['..', '../me', 'a/b', 'a?b', 'x'.repeat(101), '']) expect(initialDataUrl({ kind: 'store', slug }), slug).toBeNull();
    expect(initialDataUrl({ kind: 'home' })).toBe('/api/home');
    expect(initialDataUrl({ kind: 'search' })).toBeNull();
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
