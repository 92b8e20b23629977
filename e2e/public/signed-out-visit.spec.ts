import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { livePath } from '../../src/domain/live-public.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { oneTapButton } from '../support/live-phone.js';
import { prepareUser, signInPage } from '../support/session.js';

/**
 * A signed-out visit to the public pages (the auction page, a live show, the live directory) logs no
 * error in the browser's console and no failed request: 'who am I' is answered, not refused, and
 * the icon the browser asks for is there.
 */
const ctx = setupAppAndBrowser();
const SELLER = { email: 'vendedora.visita@ejemplo.mx', name: 'Vera Visita' };
let auctionUrl = '';
let liveUrl = '';

beforeAll(async () => {
  await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'tienda-visita', companyName: 'Tienda Visita' });
  const categoryId = await buildCategory(ctx.app, 'Relojes');
  const sp = await newPage(ctx.browser);
  await signInPage(sp, ctx.app, SELLER);
  const auction = await createAuctionAs(sp, ctx.app, { name: 'Reloj de bolsillo', categoryId, startingPrice: 700 });
  const lot = await createAuctionAs(sp, ctx.app, { name: 'Reloj de pared', categoryId, startingPrice: 300, status: 'pending' });
  const send = async <T>(path: string, data: unknown): Promise<T> => {
    const res = await sp.request.post(`${ctx.app.url}${path}`, { data, headers: { origin: ctx.app.url } });
    if (res.status() >= 300) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const created = await send<LiveSessionDetail>('/api/live-sessions', { title: 'Relojes de la tarde', scheduledAt: Date.now() + 60_000, sellerSlug: 'visita' });
  const withLot = await send<LiveSessionDetail>(`/api/live-sessions/${created.session.id}/lots`, { auctionId: lot.id });
  await send(`/api/live-sessions/${created.session.id}/current`, { lotId: withLot.lots[0]?.id });
  await send(`/api/live-sessions/${created.session.id}/timer`, { seconds: 300 });
  await sp.context().close();
  auctionUrl = `${ctx.app.url}/auctions/${auction.id}`;
  liveUrl = `${ctx.app.url}${livePath(created.session)}`;
});

/** Every console error, uncaught exception, failed request and 4xx/5xx answer the page meets. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  page.on('requestfailed', (req) => problems.push(`failed: ${req.url()} ${req.failure()?.errorText ?? ''}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`${res.status()}: ${res.url()}`);
  });
  return problems;
}

describe('a signed-out visit to the public pages', () => {
  it('logs no error and no failed request: the auction page, a live show and the directory, on a phone', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    const problems = watch(page);

    await page.goto(auctionUrl);
    await page.getByRole('heading', { name: 'Reloj de bolsillo', level: 1 }).waitFor();
    await page.getByTestId('sign-in-to-bid').waitFor();
    await page.waitForLoadState('networkidle');

    await page.goto(liveUrl);
    await page.getByRole('heading', { name: 'Relojes de la tarde', level: 1 }).waitFor();
    await page.getByTestId('current-lot-name').getByText('Reloj de pared').waitFor();
    // Signed out, the phone's show offers the same one-tap button; it signs in first.
    await oneTapButton(page, 300).waitFor();
    await page.waitForLoadState('networkidle');

    await page.goto(`${ctx.app.url}/live`);
    await page.getByRole('link', { name: /Relojes de la tarde/ }).waitFor();
    await page.waitForLoadState('networkidle');

    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("answers 'who am I' with nobody, and serves the site's icon", async () => {
    const page = await newPage(ctx.browser);
    const me = await page.request.get(`${ctx.app.url}/api/me`);
    expect(me.status()).toBe(200);
    expect(await me.json()).toEqual({ user: null });

    await page.goto(auctionUrl);
    await page.getByRole('heading', { name: 'Reloj de bolsillo', level: 1 }).waitFor();
    const icons = await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
    expect(icons.length).toBeGreaterThan(0);
    for (const href of [...icons, `${ctx.app.url}/favicon.ico`]) {
      const res = await page.request.get(href);
      expect(res.status(), href).toBe(200);
      expect(res.headers()['content-type'], href).toMatch(/^image\//);
    }
    await page.context().close();
  });
});
