/**
 * bench:weight: what a buyer's phone downloads on a first visit, against the budgets in TARGETS.
 *
 * Builds the web app (as `npm start` would), starts the real server on PGlite with it, and makes
 * one of each public page through the API: the home (`/`), a search (`/buscar?q=reloj`), an active auction (`/auctions/{id}`), a live session
 * with a current lot (`/live/{slug}/{id}`) and a payment link (`/pay/{id}`); plus the admin panel
 * (`/admin`) signed in as a seller. Each page is loaded in Chromium on a fresh context (empty
 * cache, a 390 px phone) and the JavaScript and CSS it transfers are summed: as sent (the
 * compressed body, whatever encoding the server chose) and as gzip would send them (each decoded
 * file gzipped here, level 9, so the figure does not depend on what the server does).
 *
 * Lighthouse (mobile, its default simulated throttling) then scores each public page, in Debian's
 * Chromium started by chrome-launcher. Both have their own install in bench/lighthouse (about
 * 145 MB the product does not need): `npm run bench:weight:install`. Without it the bench measures
 * the transfers, says how to install it, and reports the scores as unavailable (`lighthouseUnavailable`).
 * Each page's figures name its LCP element (`lcpElement`, its HTML cut short) and where the LCP's
 * time went (`lcpPhases`: until the first byte, until its resource started, its load, its render).
 *
 * Knobs: LIGHTHOUSE (1; 0 skips it, as the smoke run does), CHROMIUM_PATH (/usr/bin/chromium).
 * `consistency`: every page rendered what it was made with, and every script and stylesheet
 * answered 200. `apiFetches` counts each API path a page requested, so a double fetch shows.
 */

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { type Browser, chromium } from 'playwright-core';
import { FLAGS, PLAYWRIGHT_FLAGS } from '../e2e/support/browser.js';
import { livePath } from '../src/domain/live-public.js';
import { auctions, paymentItems } from '../src/server/db/schema.js';
import { buildActor, buildCategory } from '../test/support/actors.js';
import { buildPayment } from '../test/support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../test/support/server.js';
import { round } from './support.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB_DIR = path.join(ROOT, 'dist/web');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const LIGHTHOUSE = process.env.LIGHTHOUSE !== '0';
/** Lighthouse's own install, apart from the product's (see the header). */
const LIGHTHOUSE_DIR = path.join(ROOT, 'bench/lighthouse');
const LIGHTHOUSE_INSTALL = 'npm run bench:weight:install';

const TARGETS = { publicJsGzipKb: 150, adminJsGzipKb: 300, lighthousePublicMin: 90 };
const log = (msg: string) => console.error(`[weight] ${msg}`);
const kb = (bytes: number) => round(bytes / 1024, 1);

interface PageToLoad {
  name: 'home' | 'search' | 'auction' | 'live' | 'pay' | 'admin' | 'store';
  path: string;
  /** Text the page shows once it has loaded its data. */
  expect: string;
  cookie?: string;
}

/** One of each page, made the way the product makes them (the API where it has one). */
async function seedPages(server: TestServer): Promise<PageToLoad[]> {
  const seller = await buildActor(server, {
    email: 'vendedora.peso@ejemplo.mx',
    name: 'Vera Peso',
    roles: ['seller'],
    companyId: 'tienda-peso',
    completeProfile: true,
  });
  const buyer = await buildActor(server, { email: 'ana.peso@ejemplo.mx', name: 'Ana Peso', roles: ['buyer'], completeProfile: true });
  const categoryId = await buildCategory(server, 'Relojes');
  const call = async <T>(method: 'POST' | 'GET', url: string, payload?: unknown): Promise<T> => {
    const res = await injectAs(server, seller, method, url, payload);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };
  const put = async (url: string, payload: unknown) => {
    const res = await server.app.inject({
      method: 'PUT',
      url,
      payload: payload as Record<string, unknown>,
      headers: { cookie: seller.cookie, origin: server.url },
    });
    if (res.statusCode >= 300) throw new Error(`PUT ${url}: ${res.statusCode} ${res.body}`);
  };
  const auctionInput = (name: string, status: string) => ({
    name,
    description: 'Reloj de pulso automático, caja de acero, en buen estado.',
    categoryId,
    startingPrice: 1_800,
    status,
    endTime: Date.now() + 3_600_000,
  });

  const auction = await call<{ id: string }>('POST', '/api/auctions', auctionInput('Reloj Omega Seamaster', 'active'));

  const lotAuction = await call<{ id: string }>('POST', '/api/auctions', auctionInput('Reloj Seiko 5', 'pending'));
  type Detail = { session: { id: string; sellerSlug: string; store: { slug: string } | null }; lots: { id: string }[] };
  const created = await call<Detail>('POST', '/api/live-sessions', {
    title: 'Relojes del sábado',
    scheduledAt: Date.now() + 60_000,
    sellerSlug: 'Tienda Peso',
    biddingConfig: { minIncrement: 50, antiSnipeSeconds: 5, timerSecondsDefault: 60 },
  });
  const sessionId = created.session.id;
  const withLot = await call<Detail>('POST', `/api/live-sessions/${sessionId}/lots`, { auctionId: lotAuction.id });
  await put(`/api/live-sessions/${sessionId}`, { status: 'live' });
  await call('POST', `/api/live-sessions/${sessionId}/current`, { lotId: withLot.lots[0]?.id });
  await call('POST', `/api/live-sessions/${sessionId}/timer`, { seconds: 600 });

  // A won auction in a payment link (as 'Enviar enlace de pago' leaves it).
  const won = await call<{ id: string }>('POST', '/api/auctions', auctionInput('Reloj Citizen Eco-Drive', 'active'));
  await server.ctx.db
    .update(auctions)
    .set({ status: 'ended', currentWinnerId: buyer.id, currentWinnerName: 'Ana Peso', currentPrice: 2_400, closedAt: new Date() })
    .where(eq(auctions.id, won.id));
  const payment = await buildPayment(server.ctx.db, {
    winnerId: buyer.id,
    winnerName: 'Ana Peso',
    sellerId: seller.id,
    companyId: 'tienda-peso',
    companyName: 'Tienda Peso',
    totalAmount: 2_400,
    shippingCarrier: 'Estafeta',
    shippingCost: 150,
    paymentStatus: 'pending',
    linkExpiresAt: new Date(Date.now() + 7 * 86_400_000),
  });
  await server.ctx.db
    .insert(paymentItems)
    .values({ paymentId: payment.id, paymentStatus: 'pending', auctionId: won.id, auctionName: 'Reloj Citizen Eco-Drive', amount: 2_400 });

  return [
    // The buyers' home (the live show above, with its data in the HTML) and a search that finds the open auction.
    { name: 'home', path: '/', expect: 'Relojes del sábado' },
    { name: 'search', path: '/buscar?q=reloj', expect: 'Reloj Omega Seamaster' },
    { name: 'auction', path: `/auctions/${auction.id}`, expect: 'Reloj Omega Seamaster' },
    { name: 'live', path: livePath(created.session), expect: 'Relojes del sábado' },
    { name: 'pay', path: `/pay/${payment.id}`, expect: 'Reloj Citizen Eco-Drive' },
    { name: 'admin', path: '/admin', expect: 'Vera', cookie: seller.cookie },
    // The seller's page, whose page address the show's first save gave the seller.
    { name: 'store', path: `/tienda/${created.session.store?.slug ?? 'tienda-peso'}`, expect: 'Vera Peso' },
  ];
}

interface Transfer {
  js: { files: number; sentBytes: number; gzipBytes: number; rawBytes: number };
  css: { files: number; sentBytes: number; gzipBytes: number; rawBytes: number };
  encodings: Record<string, number>;
  apiFetches: Record<string, number>;
  rendered: boolean;
  allAssetsOk: boolean;
  files: string[];
}

/** Loads one page on a fresh phone context (empty cache) and sums its scripts and stylesheets. */
async function measure(browser: Browser, baseUrl: string, page: PageToLoad): Promise<Transfer> {
  const context = await browser.newContext({
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  if (page.cookie) {
    const [name, value] = page.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: baseUrl }]);
  }
  const tab = await context.newPage();
  const out: Transfer = {
    js: { files: 0, sentBytes: 0, gzipBytes: 0, rawBytes: 0 },
    css: { files: 0, sentBytes: 0, gzipBytes: 0, rawBytes: 0 },
    encodings: {},
    apiFetches: {},
    rendered: false,
    allAssetsOk: true,
    files: [],
  };
  const pending: Promise<void>[] = [];
  tab.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/')) {
      const key = `${req.method()} ${url.pathname.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ':id')}`;
      out.apiFetches[key] = (out.apiFetches[key] ?? 0) + 1;
    }
  });
  tab.on('response', (res) => {
    const kind = res.request().resourceType();
    if (kind !== 'script' && kind !== 'stylesheet') return;
    pending.push(
      (async () => {
        const sizes = await res.request().sizes();
        const body = await res.body();
        const bucket = kind === 'script' ? out.js : out.css;
        bucket.files += 1;
        bucket.sentBytes += sizes.responseBodySize;
        bucket.rawBytes += body.length;
        bucket.gzipBytes += gzipSync(body, { level: 9 }).length;
        const encoding = (await res.headerValue('content-encoding')) ?? 'identity';
        out.encodings[encoding] = (out.encodings[encoding] ?? 0) + 1;
        if (res.status() !== 200) out.allAssetsOk = false;
        out.files.push(new URL(res.url()).pathname);
      })(),
    );
  });
  await tab.goto(`${baseUrl}${page.path}`, { waitUntil: 'load' });
  out.rendered = await tab
    .getByText(page.expect)
    .first()
    .waitFor({ timeout: 30_000 })
    .then(() => true)
    .catch(() => false);
  // What loads after the first render (lazy chunks, the room's refetch) counts too.
  await tab.waitForLoadState('networkidle').catch(() => {});
  await Promise.all(pending);
  out.files.sort();
  await context.close();
  return out;
}

interface LighthouseFigures {
  performance: number | null;
  fcpMs: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  speedIndexMs: number | null;
  /** The element Lighthouse took as the largest paint (its HTML, cut short), to know what to make earlier. */
  lcpElement: string | null;
  /** Where the LCP's time went (ms): until the first byte, until its resource started, its load, and its render after that. */
  lcpPhases: Record<string, number> | null;
}

/** The parts of Lighthouse's and chrome-launcher's APIs the bench uses. */
type RunLighthouse = (
  url: string,
  flags: Record<string, unknown>,
) => Promise<
  { lhr: { audits: Record<string, { numericValue?: number; details?: LcpDetails }>; categories: Record<string, { score: number | null }> } } | undefined
>;

/** The 'largest-contentful-paint-element' audit's details (Lighthouse 12): a table with the element, then one with its phases. */
interface LcpDetails {
  items?: { items?: { node?: { snippet?: string }; phase?: string; timing?: number }[] }[];
}

/** The LCP element's snippet and its phases, from Lighthouse's audit (null where this version words them otherwise). */
function lcpBreakdown(details: LcpDetails | undefined): { lcpElement: string | null; lcpPhases: Record<string, number> | null } {
  const tables = details?.items ?? [];
  const snippet = tables[0]?.items?.[0]?.node?.snippet;
  const phases = tables[1]?.items?.filter((row) => typeof row.phase === 'string' && typeof row.timing === 'number') ?? [];
  return {
    lcpElement: typeof snippet === 'string' ? snippet.slice(0, 160) : null,
    lcpPhases: phases.length > 0 ? Object.fromEntries(phases.map((row) => [row.phase as string, Math.round(row.timing as number)])) : null,
  };
}
type LaunchChrome = (opts: { chromePath: string; chromeFlags: string[] }) => Promise<{ port: number; kill(): void }>;

/** Lighthouse and chrome-launcher from bench/lighthouse, or why they cannot be loaded. */
async function loadLighthouse(): Promise<{ lighthouse: RunLighthouse; launch: LaunchChrome } | { unavailable: string }> {
  const resolveFrom = createRequire(path.join(LIGHTHOUSE_DIR, 'package.json'));
  let lighthousePath: string;
  let launcherPath: string;
  try {
    lighthousePath = resolveFrom.resolve('lighthouse');
    launcherPath = resolveFrom.resolve('chrome-launcher');
  } catch {
    return { unavailable: `Lighthouse is not installed (bench/lighthouse): run \`${LIGHTHOUSE_INSTALL}\`` };
  }
  const { default: lighthouse } = (await import(pathToFileURL(lighthousePath).href)) as { default: RunLighthouse };
  const { launch } = (await import(pathToFileURL(launcherPath).href)) as { launch: LaunchChrome };
  return { lighthouse, launch };
}

/** Lighthouse's mobile performance audit of each URL, in one Chromium started for it. */
async function lighthouseScores(
  tools: { lighthouse: RunLighthouse; launch: LaunchChrome },
  urls: { name: string; url: string; cookie?: string }[],
): Promise<Record<string, LighthouseFigures>> {
  const { lighthouse, launch } = tools;
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', ...FLAGS] });
  const scores: Record<string, LighthouseFigures> = {};
  try {
    for (const { name, url, cookie } of urls) {
      log(`Lighthouse: ${name}`);
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
      });
      const lhr = result?.lhr;
      const audit = (id: string) => {
        const value = lhr?.audits[id]?.numericValue;
        return typeof value === 'number' ? Math.round(value) : null;
      };
      const score = lhr?.categories.performance?.score;
      scores[name] = {
        performance: typeof score === 'number' ? Math.round(score * 100) : null,
        fcpMs: audit('first-contentful-paint'),
        lcpMs: audit('largest-contentful-paint'),
        tbtMs: audit('total-blocking-time'),
        speedIndexMs: audit('speed-index'),
        ...lcpBreakdown(lhr?.audits['largest-contentful-paint-element']?.details),
      };
    }
  } finally {
    chrome.kill();
  }
  return scores;
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (CHROMIUM_PATH)`);
  const { ensureWebBundle } = await import('../src/server/web/bundle.js');
  await ensureWebBundle(ROOT, log);
  const server = await startTestServer({ webDir: WEB_DIR });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: PLAYWRIGHT_FLAGS });
  try {
    const pages = await seedPages(server);
    const results = [];
    for (const page of pages) {
      log(`Loading ${page.path}`);
      const t = await measure(browser, server.url, page);
      results.push({
        page: page.name,
        path: page.path,
        jsKb: { sent: kb(t.js.sentBytes), gzip: kb(t.js.gzipBytes), raw: kb(t.js.rawBytes), files: t.js.files },
        cssKb: { sent: kb(t.css.sentBytes), gzip: kb(t.css.gzipBytes), raw: kb(t.css.rawBytes), files: t.css.files },
        encodings: t.encodings,
        apiFetches: t.apiFetches,
        rendered: t.rendered,
        allAssetsOk: t.allAssetsOk,
        files: t.files,
      });
    }
    const tools = LIGHTHOUSE ? await loadLighthouse() : { unavailable: 'LIGHTHOUSE=0' };
    if ('unavailable' in tools) log(`Lighthouse skipped: ${tools.unavailable}`);
    const lighthouse =
      'unavailable' in tools
        ? null
        : await lighthouseScores(
            tools,
            pages.map((p) => ({ name: p.name, url: `${server.url}${p.path}`, ...(p.cookie ? { cookie: p.cookie } : {}) })),
          );
    const lighthouseUnavailable = 'unavailable' in tools ? tools.unavailable : null;
    const publicPages = results.filter((r) => r.page !== 'admin');
    const admin = results.find((r) => r.page === 'admin');
    const targets = {
      ...TARGETS,
      publicJsMet: publicPages.every((r) => r.jsKb.gzip < TARGETS.publicJsGzipKb),
      adminJsMet: (admin?.jsKb.gzip ?? Number.POSITIVE_INFINITY) < TARGETS.adminJsGzipKb,
      lighthouseMet: lighthouse ? publicPages.every((r) => (lighthouse[r.page]?.performance ?? 0) >= TARGETS.lighthousePublicMin) : null,
    };
    const consistency = {
      ok: results.every((r) => r.rendered && r.allAssetsOk && r.jsKb.files > 0),
      rendered: Object.fromEntries(results.map((r) => [r.page, r.rendered])),
      allAssetsOk: Object.fromEntries(results.map((r) => [r.page, r.allAssetsOk])),
    };
    const run = { engine: 'pglite', pages: results, lighthouse, lighthouseUnavailable, targets, consistency };
    console.log(
      JSON.stringify(
        {
          bench: 'weight',
          at: new Date().toISOString(),
          node: process.version,
          cpus: cpus().length,
          meetsTargets: targets.publicJsMet && targets.adminJsMet && targets.lighthouseMet !== false,
          runs: [run],
        },
        null,
        2,
      ),
    );
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
