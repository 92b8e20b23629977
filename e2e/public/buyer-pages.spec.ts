import { randomUUID } from 'node:crypto';
import type { Page, WebSocketRoute } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/domain/money.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

const ctx = setupAppAndBrowser();
const b = t.bidding;

let seller: E2eUser;
let ana: E2eUser;
let bruno: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, {
    email: 'vendedora.paginas@ejemplo.mx',
    name: 'Paula Vendedora',
    roles: ['seller'],
    companyId: 'tienda-paginas',
    companyName: 'Tienda Páginas',
  });
  ana = await prepareUser(ctx.app, { email: 'ana.paginas@ejemplo.mx', name: 'Ana Paginas', roles: ['buyer'] });
  bruno = await prepareUser(ctx.app, { email: 'bruno.paginas@ejemplo.mx', name: 'Bruno Paginas', roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Cámaras antiguas');
});

/** A 390 px phone, signed in as `user` (or signed out). */
async function phone(user: E2eUser | null): Promise<Page> {
  const page = await newPage(ctx.browser, { mobile: true });
  if (user) await signInPage(page, ctx.app, user);
  return page;
}

async function newAuction(name: string, opts: { endInMs?: number } = {}) {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, seller);
  const auction = await createAuctionAs(page, ctx.app, {
    name,
    categoryId,
    startingPrice: 500,
    ...(opts.endInMs ? { endTime: Date.now() + opts.endInMs } : {}),
  });
  await page.context().close();
  return auction;
}

/** A bid straight through the API, from `page`'s signed-in buyer. */
async function apiBid(page: Page, auctionId: string, amount: number): Promise<void> {
  const res = await page.request.post(`${ctx.app.url}/api/auctions/${auctionId}/bids`, {
    data: { amount },
    headers: { origin: ctx.app.url, 'Idempotency-Key': randomUUID() },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function openAuction(page: Page, auctionId: string): Promise<void> {
  const history = page.waitForResponse((res) => res.url().includes(`/api/auctions/${auctionId}/bids`) && res.ok());
  await page.goto(`${ctx.app.url}/auctions/${auctionId}`);
  await history;
  await page.getByTestId('current-price').waitFor();
}

/**
 * Holds the page's `joinAuction` on its way to the (real) server until `release()`, so a test
 * decides what happens between the first load and the join. Everything else passes through.
 */
async function holdJoin(page: Page) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let onHeld: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    onHeld = resolve;
  });
  let onAck: () => void = () => {};
  const acked = new Promise<void>((resolve) => {
    onAck = resolve;
  });
  let joinId: string | null = null;
  await page.routeWebSocket(/\/socket\.io\//, (ws: WebSocketRoute) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const text = String(message);
      const join = /^42(\d+)\["joinAuction"/.exec(text);
      if (!join) return server.send(message);
      joinId = join[1] ?? null;
      onHeld();
      void released.then(() => server.send(message));
    });
    server.onMessage((message) => {
      const text = String(message);
      if (joinId !== null && text.startsWith(`43${joinId}[`)) onAck();
      ws.send(message);
    });
  });
  return { held, release, acked };
}

/** Requests for the auction and for its bids, as Chromium sends them. */
function countRequests(page: Page, auctionId: string) {
  const counts = { auction: 0, bids: 0 };
  page.on('request', (req) => {
    const path = new URL(req.url()).pathname;
    if (path === `/api/auctions/${auctionId}`) counts.auction++;
    if (path === `/api/auctions/${auctionId}/bids`) counts.bids++;
  });
  return counts;
}

/** A marker request after the page's own: any refetch the join answer started was sent before it. */
async function afterPendingRequests(page: Page): Promise<void> {
  const marker = page.waitForRequest((req) => req.url().endsWith('/api/health?marker'));
  await page.evaluate(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await fetch('/api/health?marker').catch(() => {});
  });
  await marker;
}

describe('buyer pages on a 390 px phone', () => {
  it('an auction that ended without bids says so, with its end in Mexico City time', async () => {
    const auction = await newAuction('Cámara Zenit sin pujas', { endInMs: 2500 });
    const page = await phone(null);
    await openAuction(page, auction.id);
    expect(await page.getByTestId('end-time').innerText()).toContain('(hora de la Ciudad de México)');
    await eventually(() => page.getByTestId('ended-notice').count()).toBe(1);
    expect(await page.getByTestId('ended-notice').innerText()).toContain(b.ended.noWinner);
    expect(await page.getByTestId('history-empty').innerText()).toBe(b.history.emptyEnded);
    expect(await page.getByText(b.history.empty).count()).toBe(0);
    expect(await page.getByTestId('bid-count').innerText()).toBe(b.price.noBidsEnded);
    expect(await page.getByTestId('end-time').innerText()).toMatch(/^Terminó el .*\(hora de la Ciudad de México\)$/);
    await page.context().close();
  });

  it('the countdown keeps to one line, and nothing covers the title', async () => {
    // Days, hours, minutes and seconds: the longest the countdown gets.
    const auction = await newAuction('Cámara Kodak Retina IIIc con estuche de piel original y correa', { endInMs: 3 * 86_400_000 });
    const page = await phone(null);
    await openAuction(page, auction.id);
    const countdown = page.getByTestId('countdown');
    const { height, lineHeight } = await countdown.evaluate((el) => ({
      height: el.getBoundingClientRect().height,
      lineHeight: Number.parseFloat(getComputedStyle(el).lineHeight),
    }));
    expect(height).toBeLessThan(lineHeight * 1.5);
    expect(await page.getByTestId('end-time').innerText()).toMatch(/^Termina el .*\(hora de la Ciudad de México\)$/);

    const title = page.getByRole('heading', { level: 1, name: auction.name });
    const onTop = await title.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && (hit === el || el.contains(hit));
    });
    expect(onTop).toBe(true);
    await page.context().close();
  });

  it('being outbid shows one notice, in the bid panel, not a toast as well', async () => {
    const auction = await newAuction('Cámara Polaroid SX-70');
    const page = await phone(ana);
    const other = await newPage(ctx.browser);
    await signInPage(other, ctx.app, bruno);
    await openAuction(page, auction.id);
    await apiBid(page, auction.id, 500);
    await page.getByText(b.leader.leading).waitFor();
    await apiBid(other, auction.id, 520);
    await page.getByTestId('outbid-notice').waitFor();
    expect(await page.getByTestId('current-price').innerText()).toBe(formatMoney(520));
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    expect(await page.getByText(b.outbid.title, { exact: true }).count()).toBe(1);
    for (const p of [page, other]) await p.context().close();
  });

  it('the checkout a Mercado Pago return lands on does not repeat its heading as its text', async () => {
    const page = await phone(null);
    await page.goto(`${ctx.app.url}/pay/${randomUUID()}?result=success`);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    const title = (await heading.innerText()).trim();
    const texts = await page.locator('main p').evaluateAll((els) => els.map((el) => el.textContent?.trim() ?? ''));
    expect(texts.length).toBeGreaterThan(0);
    expect(texts).not.toContain(title);
    await page.context().close();
  });

  it('a payment link cut short says the payment does not exist and what to do, never that it could not load', async () => {
    const page = await phone(null);
    await page.goto(`${ctx.app.url}/pay/${randomUUID().slice(0, 23)}`);
    await page.getByRole('heading', { name: t.checkout.notFoundTitle, level: 1 }).waitFor();
    await page.getByText(t.checkout.notFoundText).waitFor();
    await page.getByRole('link', { name: t.purchases.nav.seeAll }).waitFor();
    expect(await page.getByText(t.checkout.loadFailed).count()).toBe(0);
    await page.context().close();
  });
});

describe('the auction page’s first load and the room join', () => {
  it('a first visit fetches the auction and its bids once each', async () => {
    const auction = await newAuction('Cámara Leica M3');
    const page = await phone(null);
    const counts = countRequests(page, auction.id);
    // The join waits until both loads are in, so the join's answer comes after them.
    const join = await holdJoin(page);
    await openAuction(page, auction.id);
    await join.held;
    await page.waitForLoadState('load');
    join.release();
    await join.acked;
    await afterPendingRequests(page);
    expect(counts).toEqual({ auction: 1, bids: 1 });
    await page.context().close();
  });

  it('a bid placed between the first load and the join still shows', async () => {
    const auction = await newAuction('Cámara Rolleiflex 2.8F');
    const page = await phone(null);
    const bidder = await newPage(ctx.browser);
    await signInPage(bidder, ctx.app, bruno);
    const join = await holdJoin(page);
    await openAuction(page, auction.id);
    await join.held;
    expect(await page.getByTestId('current-price').innerText()).toBe(formatMoney(500));
    expect(await page.getByTestId('bid-count').innerText()).toBe(b.price.noBids);
    // Its event goes to the room before this page is in it: only the join's answer can tell.
    await apiBid(bidder, auction.id, 640);
    join.release();
    await eventually(() => page.getByTestId('bid-count').innerText()).toBe(b.price.bids_one.replace('{{count}}', '1'));
    expect(await page.getByTestId('current-price').innerText()).toBe(formatMoney(640));
    for (const p of [page, bidder]) await p.context().close();
  });
});
