import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sourceMapsDir } from '../../src/server/web/source-maps.js';
import { buildCategory, signInAs } from '../../test/support/actors.js';
import { injectAs } from '../../test/support/server.js';
import { setupAppAndBrowser, webDir } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';

const ctx = setupAppAndBrowser();

interface ManifestChunk {
  file: string;
  src?: string;
  imports?: string[];
  dynamicImports?: string[];
}

/** Vite's manifest of the bundle under test: which file each source module was built into. */
function manifest(): Record<string, ManifestChunk> {
  return JSON.parse(readFileSync(path.join(webDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
}

/** A message only React Router's code carries (kept in the production build). */
const ROUTER_MARK = 'may be used only in the context of a <Router>';
const hasRouter = (scriptPath: string) => readFileSync(path.join(webDir, scriptPath), 'utf8').includes(ROUTER_MARK);

/** The source files a built script was made from, from its source map (Rolldown's runtime has none). */
function sourcesOf(scriptPath: string): string[] {
  // The maps sit beside the served folder, never in it (src/server/web/source-maps.ts).
  const map = path.join(sourceMapsDir(webDir), `${scriptPath}.map`);
  if (!existsSync(map)) return [];
  return (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
}

/**
 * Libraries the public pages do without (a buyer's first load stays light): Mantine's Modal and its scroll lock
 * (the review is a native <dialog>), NumberInput's react-number-format (the bid form has its own
 * peso field), and socket.io-client (api/realtime-client.ts speaks the protocol).
 */
const NOT_ON_PUBLIC_PAGES = ['@mantine/core/esm/components/Modal/', 'react-remove-scroll', 'react-number-format', 'socket.io-client', 'engine.io-client'];

/** The files built from the admin panel's own sources (its screen and what it loads on demand, with the auction form it shares with the Live Hub). */
function adminFiles(): Set<string> {
  return new Set(
    Object.values(manifest())
      .filter((chunk) => chunk.src?.startsWith('src/web/admin/') || chunk.src?.startsWith('src/web/components/auction-form/'))
      .map((chunk) => `/${chunk.file}`),
  );
}

let auctionPath = '';
let sessionId = '';
beforeAll(async () => {
  const seller = await signInAs(ctx.app, { email: 'vendedora.ligera@ejemplo.mx', roles: ['seller'], companyId: 'tienda-ligera', completeProfile: true });
  const categoryId = await buildCategory(ctx.app, 'Relojes');
  const res = await injectAs(ctx.app, seller, 'POST', '/api/auctions', {
    name: 'Reloj de bolsillo',
    description: 'Reloj de bolsillo de plata, funcionando.',
    categoryId,
    startingPrice: 900,
    status: 'active',
    endTime: Date.now() + 3_600_000,
  });
  expect(res.statusCode, res.body).toBe(201);
  auctionPath = `/auctions/${res.json().id}`;

  // A show on the air, with a lot on the block.
  const show = await injectAs(ctx.app, seller, 'POST', '/api/live-sessions', {
    title: 'Relojes en vivo',
    scheduledAt: Date.now() + 3_600_000,
    sellerSlug: 'Tienda Ligera',
  });
  expect(show.statusCode, show.body).toBe(201);
  sessionId = show.json().session.id;
  const lotAuction = await injectAs(ctx.app, seller, 'POST', '/api/auctions', {
    name: 'Reloj de pared',
    description: 'Reloj de pared de madera, con péndulo.',
    categoryId,
    startingPrice: 500,
    status: 'pending',
  });
  expect(lotAuction.statusCode, lotAuction.body).toBe(201);
  const withLot = await injectAs(ctx.app, seller, 'POST', `/api/live-sessions/${sessionId}/lots`, { auctionId: lotAuction.json().id });
  expect(withLot.statusCode, withLot.body).toBeLessThan(300);
  for (const [method, url, payload] of [
    ['PUT', `/api/live-sessions/${sessionId}`, { status: 'live' }],
    ['POST', `/api/live-sessions/${sessionId}/current`, { lotId: withLot.json().lots[0].id }],
  ] as const) {
    const answer = await injectAs(ctx.app, seller, method, url, payload);
    expect(answer.statusCode, answer.body).toBeLessThan(300);
  }
});

/** A phone's page that counts each API read it asks for, and keeps what Chromium says about preloads. */
async function watchedPhone() {
  const page = await newPage(ctx.browser, { mobile: true });
  const api = new Map<string, number>();
  const warnings: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/')) api.set(`${url.pathname}${url.search}`, (api.get(`${url.pathname}${url.search}`) ?? 0) + 1);
  });
  // Chromium says so when a preload does not match the app's request (and then asks a second time).
  page.on('console', (msg) => {
    if (/preload/i.test(msg.text())) warnings.push(msg.text());
  });
  return { page, api, warnings };
}

describe('a light public page', () => {
  it('opens the auction page on a phone without fetching any of the admin panel, compressed', async () => {
    const admin = adminFiles();
    expect(admin.size, 'the admin panel is built into chunks of its own, not into the entry').toBeGreaterThan(0);

    const page = await newPage(ctx.browser, { mobile: true });
    const scripts: { path: string; encoding: string | null }[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      scripts.push({ path: new URL(res.url()).pathname, encoding: await res.headerValue('content-encoding') });
    });
    await page.goto(`${ctx.app.url}${auctionPath}`);
    await page.getByRole('heading', { name: 'Reloj de bolsillo' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((s) => admin.has(s.path))).toEqual([]);
    // Nor React Router: the shell picks the screen without it (lib/pathname.ts).
    expect(scripts.filter((s) => hasRouter(s.path))).toEqual([]);
    // Nor the notifications' container before a notification shows (components/lazy-notifications.tsx).
    const container = manifest()['src/web/components/notifications-container.tsx']?.file;
    expect(container, 'the container is a chunk of its own').toBeDefined();
    expect(scripts.map((s) => s.path)).not.toContain(`/${container}`);
    // The maps are read: the check below cannot pass on none.
    expect(scripts.some((s) => sourcesOf(s.path).length > 0)).toBe(true);
    const heavy = scripts.flatMap((s) => sourcesOf(s.path).filter((source) => NOT_ON_PUBLIC_PAGES.some((library) => source.includes(library))));
    expect(heavy).toEqual([]);
    // Chromium accepts brotli: every script worth compressing came as brotli.
    expect(scripts.filter((s) => s.encoding === 'br').length).toBeGreaterThan(0);
    await page.context().close();

    // The same check sees the admin panel where it is loaded: the panel's sign-in screen.
    const adminPage = await newPage(ctx.browser);
    const adminScripts: string[] = [];
    adminPage.on('request', (req) => {
      if (req.resourceType() === 'script') adminScripts.push(new URL(req.url()).pathname);
    });
    await adminPage.goto(`${ctx.app.url}/admin`);
    await adminPage.getByRole('button', { name: t.auth.signInWithGoogle }).waitFor();
    expect(adminScripts.some((s) => admin.has(s))).toBe(true);
    expect(adminScripts.some(hasRouter)).toBe(true);
    // …and the source maps name the libraries the public page went without where they are used.
    const chunks = manifest();
    const reached = new Set<string>();
    const reach = (key: string) => {
      const chunk = chunks[key];
      if (!chunk || reached.has(chunk.file)) return;
      reached.add(chunk.file);
      for (const imported of chunk.imports ?? []) reach(imported);
    };
    // The Live Hub's session settings type seconds in Mantine's NumberInput (amounts in pesos use components/amount-input.tsx).
    reach('src/web/livehub/live-hub.tsx');
    const adminSources = [...reached].flatMap((file) => sourcesOf(`/${file}`));
    expect(adminSources.some((source) => source.includes('react-number-format') || source.includes('@mantine/core/esm/components/NumberInput/'))).toBe(true);
    await adminPage.context().close();
  });

  it("starts the auction page's code and API reads from index.html, and each API path is asked once", async () => {
    const { page, api, warnings } = await watchedPhone();
    await page.goto(`${ctx.app.url}${auctionPath}`);
    await page.getByRole('heading', { name: 'Reloj de bolsillo' }).waitFor();
    await page.waitForLoadState('networkidle');

    const auctionPage = `/${manifest()['src/web/public/auction-page.tsx']?.file}`;
    const preloads = await page.$$eval('head link[rel="modulepreload"], head link[rel="preload"]', (links) =>
      links.map((l) => `${l.getAttribute('rel')} ${l.getAttribute('as') ?? ''} ${l.getAttribute('href')}`.replace('  ', ' ')),
    );
    const id = auctionPath.split('/').pop();
    expect(preloads).toContain(`modulepreload ${auctionPage}`);
    expect(preloads).toContain(`preload fetch /api/auctions/${id}`);
    expect(preloads).toContain(`preload fetch /api/auctions/${id}/bids?limit=30`);
    expect(preloads).toContain('preload fetch /api/me');
    expect(Object.fromEntries(api)).toEqual({ [`/api/auctions/${id}`]: 1, [`/api/auctions/${id}/bids?limit=30`]: 1, '/api/me': 1 });
    expect(warnings).toEqual([]);
    await page.context().close();
  });

  it("starts the live page's session from index.html, each read asked once, and reads the chat only once in the show's room", async () => {
    const { page, api, warnings } = await watchedPhone();
    await page.goto(`${ctx.app.url}/live/${sessionId}`);
    await page.getByTestId('chat-overlay').waitFor();
    await page.waitForLoadState('networkidle');
    const preloads = await page.$$eval('head link[rel="preload"][as="fetch"]', (links) => links.map((l) => l.getAttribute('href')));
    expect(preloads).toEqual([`/api/live-sessions/${sessionId}`, '/api/config', '/api/me']);
    for (const path of preloads) expect(api.get(path as string), path as string).toBe(1);
    expect(api.get(`/api/live-sessions/${sessionId}/chat`)).toBe(1);
    expect(warnings).toEqual([]);
    await page.context().close();
  });
});
