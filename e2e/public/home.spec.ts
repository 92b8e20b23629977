import { beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../src/server/db/schema.js';
import { buildActor, buildCategory } from '../../test/support/actors.js';
import { injectAs } from '../../test/support/server.js';
import { setupAppAndBrowser } from '../support/app.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

const ctx = setupAppAndBrowser();

interface Detail {
  session: { id: string; sellerSlug: string };
  lots: { id: string; auctionId: string }[];
}

let seiko = '';
let liveShow = '';
let tenisId = '';
let relojesId = '';
let buyer = { id: '', email: 'comprador.portada@ejemplo.mx', name: 'Beto Portada' };

/** A live show selling a watch (on the block now) and, tomorrow, a sneakers show: made through the API as a seller would. */
beforeAll(async () => {
  const seller = await buildActor(ctx.app, {
    email: 'vendedora.portada@ejemplo.mx',
    name: 'Paola Portada',
    roles: ['seller'],
    companyId: 'tienda-portada',
    completeProfile: true,
  });
  relojesId = await buildCategory(ctx.app, 'Relojes');
  tenisId = await buildCategory(ctx.app, 'Tenis');
  const call = async <T>(method: 'POST' | 'PUT', url: string, payload: unknown): Promise<T> => {
    const res = await injectAs(ctx.app, seller, method, url, payload);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };
  const lot = (name: string, categoryId: string, startingPrice: number) =>
    call<{ id: string }>('POST', '/api/auctions', {
      name,
      description: `${name}, en buen estado.`,
      categoryId,
      startingPrice,
      status: 'pending',
      endTime: Date.now() + 3_600_000,
    });
  const show = (title: string, scheduledAt: number) =>
    call<Detail>('POST', '/api/live-sessions', {
      title,
      scheduledAt,
      sellerSlug: 'Tienda Portada',
      biddingConfig: { minIncrement: 50, antiSnipeSeconds: 5, timerSecondsDefault: 60 },
    });

  const watch = await lot('Relój Seiko 5 automático', relojesId, 1_800);
  seiko = watch.id;
  const live = await show('Relojes del domingo', Date.now() + 60_000);
  liveShow = live.session.id;
  const withLot = await call<Detail>('POST', `/api/live-sessions/${liveShow}/lots`, { auctionId: watch.id });
  await call('PUT', `/api/live-sessions/${liveShow}`, { status: 'live' });
  await call('POST', `/api/live-sessions/${liveShow}/current`, { lotId: withLot.lots[0]?.id });

  const sneakers = await lot('Tenis Jordan 1 talla 27', tenisId, 2_500);
  const later = await show('Tenis de colección', Date.now() + 26 * 3_600_000);
  await call('POST', `/api/live-sessions/${later.session.id}/lots`, { auctionId: sneakers.id });

  const account = await buildActor(ctx.app, { email: buyer.email, name: buyer.name, roles: ['buyer'], completeProfile: true });
  buyer = { ...buyer, id: account.id };
});

describe('the buyers’ home on a phone', () => {
  it('shows the live show with its lot on the block and the upcoming one with Avísame and the calendar; axe finds nothing serious', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    await page.goto(`${ctx.app.url}/`);
    const live = page.getByTestId('live-show');
    await live.getByText('Relojes del domingo').waitFor();
    await live.getByText(t.home.liveBadge).waitFor();
    await live.getByTestId('live-current-lot').getByText('Relój Seiko 5 automático', { exact: false }).waitFor();
    expect(await live.getByTestId('live-show-link').getAttribute('href')).toContain(liveShow);
    const upcoming = page.getByTestId('upcoming-show');
    await upcoming.getByText('Tenis de colección').waitFor();
    await upcoming.getByText('Tenis Jordan 1 talla 27').waitFor();
    await upcoming.getByText(fill(t.home.startingPrice, { price: '$2,500' })).waitFor();
    expect(await upcoming.getByTestId('remind-button').count()).toBe(1);
    expect(await upcoming.getByTestId('calendar-button').count()).toBe(1);
    // Signed out: the header offers to sign in, and no bell.
    await page.getByTestId('header-sign-in').waitFor();
    expect(await page.getByTestId('bell').count()).toBe(0);
    const findings = await auditPage(page, 'home');
    expect(findings, formatFindings(findings)).toEqual([]);
    await page.context().close();
  });

  it('paints the first screen from the data that came with the HTML, without asking the API for it', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    const asked: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/api/')) asked.push(url.pathname);
    });
    await page.goto(`${ctx.app.url}/`);
    await page.getByTestId('live-show').getByText('Relojes del domingo').waitFor();
    await page.waitForLoadState('networkidle');
    expect(asked).not.toContain('/api/home');
    await page.context().close();
  });

  it('paints a shared search link, its results and its category chips, from the HTML without asking the API', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    const asked: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/api/')) asked.push(url.pathname);
    });
    await page.goto(`${ctx.app.url}/buscar?q=${encodeURIComponent(' Reloj ')}&categoria=${relojesId}`);
    await page.getByTestId('search-result').filter({ hasText: 'Relój Seiko 5 automático' }).waitFor();
    expect(await page.getByTestId('category-chip').filter({ hasText: 'Relojes' }).getAttribute('aria-pressed')).toBe('true');
    await page.waitForLoadState('networkidle');
    expect(asked).not.toContain('/api/search');
    expect(asked).not.toContain('/api/home');
    await page.context().close();
  });

  it('filters both lists by a category chip, kept in the address', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    await page.goto(`${ctx.app.url}/`);
    await page.getByTestId('live-show').waitFor();
    await page.getByTestId('category-chip').filter({ hasText: 'Tenis' }).click();
    await page.getByTestId('home-no-live').getByText(t.home.noLive).waitFor();
    await page.getByTestId('upcoming-show').getByText('Tenis de colección').waitFor();
    expect(new URL(page.url()).searchParams.get('categoria')).toBe(tenisId);
    // The chip survives a reload: the address carries it.
    await page.reload();
    await page.getByTestId('home-no-live').waitFor();
    expect(await page.getByTestId('category-chip').filter({ hasText: 'Tenis' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('category-chip').filter({ hasText: t.home.allCategories }).click();
    await page.getByTestId('live-show').waitFor();
    expect(new URL(page.url()).searchParams.get('categoria')).toBeNull();
    await page.context().close();
  });

  it('searches "reloj" from the home, finds "Relój Seiko" and opens the show at that lot', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    await page.goto(`${ctx.app.url}/`);
    const box = page.getByRole('searchbox', { name: t.header.searchLabel });
    await box.fill('reloj');
    await box.press('Enter');
    await page.waitForURL(/\/buscar\?q=reloj/);
    const result = page.getByTestId('search-result').filter({ hasText: 'Relój Seiko 5 automático' });
    await result.waitFor();
    await result.getByText(t.search.liveNow).waitFor();
    await result.getByText('$1,800').waitFor();
    const findings = await auditPage(page, 'search');
    expect(findings, formatFindings(findings)).toEqual([]);
    await result.click();
    await page.waitForURL((url) => url.pathname.includes(liveShow) && url.searchParams.get('lote') === seiko);
    await page.context().close();
  });

  it('updates the address as the buyer types, hints at a short query and says when nothing matches', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    await page.goto(`${ctx.app.url}/buscar`);
    const box = page.getByRole('searchbox', { name: t.search.label });
    await box.fill('z');
    await page.getByTestId('search-too-short').waitFor();
    await box.fill('zapatos de charol');
    await page
      .getByTestId('search-empty')
      .getByText(fill(t.search.empty, { q: 'zapatos de charol' }))
      .waitFor();
    await eventually(() => new URL(page.url()).searchParams.get('q')).toBe('zapatos de charol');
    await box.fill('tenis');
    await page.getByTestId('search-result').filter({ hasText: 'Tenis Jordan 1 talla 27' }).waitFor();
    await eventually(() => new URL(page.url()).searchParams.get('q')).toBe('tenis');

    // A category chip narrows the results and joins the address; 'Todas' widens them again.
    await page.getByTestId('category-chip').filter({ hasText: 'Relojes' }).click();
    await page
      .getByTestId('search-empty')
      .getByText(fill(t.search.emptyInCategory, { q: 'tenis' }))
      .waitFor();
    await eventually(() => new URL(page.url()).searchParams.get('categoria')).not.toBeNull();
    await page.getByTestId('category-chip').filter({ hasText: t.search.allCategories }).click();
    await page.getByTestId('search-result').filter({ hasText: 'Tenis Jordan 1 talla 27' }).waitFor();
    expect(new URL(page.url()).searchParams.get('categoria')).toBeNull();
    expect(new URL(page.url()).searchParams.get('q')).toBe('tenis');
    await page.context().close();
  });

  it('shows a signed-in buyer the bell: the unread count, and a tap marks the alert read and opens the show', async () => {
    await ctx.app.ctx.db.insert(notifications).values({
      userId: buyer.id,
      kind: 'show_live',
      title: 'Relojes del domingo está en vivo',
      url: `/live/tienda-portada/${liveShow}`,
      sessionId: liveShow,
    });
    const page = await newPage(ctx.browser, { mobile: true });
    await signInPage(page, ctx.app, buyer);
    await page.goto(`${ctx.app.url}/`);
    const bell = page.getByTestId('bell');
    await bell.getByTestId('bell-count').getByText('1').waitFor();
    expect(await page.getByTestId('header-sign-in').count()).toBe(0);
    await bell.click();
    const item = page.getByTestId('bell-item').filter({ hasText: 'Relojes del domingo está en vivo' });
    expect(await item.getAttribute('data-unread')).toBe('true');
    const findings = await auditPage(page, 'bell');
    expect(findings, formatFindings(findings)).toEqual([]);
    await item.click();
    await page.waitForURL((url) => url.pathname.includes(liveShow));
    const answer = await page.request.get(`${ctx.app.url}/api/notifications`);
    const body = (await answer.json()) as { items: { title: string; readAt: number | null }[] };
    expect(body.items.find((n) => n.title === 'Relojes del domingo está en vivo')?.readAt).not.toBeNull();
    await page.context().close();
  });

  it("counts a followed seller's new show on the bell while the page is open, from the socket, without a reload", async () => {
    const seller = await buildActor(ctx.app, {
      email: 'vendedor.campana@ejemplo.mx',
      name: 'Vicente Campana',
      roles: ['seller'],
      companyId: 'tienda-campana',
      completeProfile: true,
    });
    const call = async <T>(method: 'POST' | 'PUT', url: string, payload: unknown): Promise<T> => {
      const res = await injectAs(ctx.app, seller, method, url, payload);
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json() as T;
    };
    const camera = await call<{ id: string }>('POST', '/api/auctions', {
      name: 'Cámara Canon AE-1',
      description: 'Cámara de rollo, funcionando.',
      categoryId: relojesId,
      startingPrice: 2_000,
      status: 'pending',
      endTime: Date.now() + 3_600_000,
    });
    const show = await call<Detail>('POST', '/api/live-sessions', {
      title: 'Cámaras de la tarde',
      scheduledAt: Date.now() + 60_000,
      sellerSlug: 'Tienda Campana',
      biddingConfig: { minIncrement: 50, antiSnipeSeconds: 5, timerSecondsDefault: 60 },
    });
    await call('POST', `/api/live-sessions/${show.session.id}/lots`, { auctionId: camera.id });

    const page = await newPage(ctx.browser, { mobile: true });
    await signInPage(page, ctx.app, buyer);
    await page.goto(`${ctx.app.url}/`);
    const bell = page.getByTestId('bell');
    await bell.waitFor();
    // The buyer follows the seller from the page itself (its own session and origin).
    const followed = await page.evaluate(async () => {
      const seller = (await (await fetch('/api/sellers/tienda-campana')).json()) as { seller: { id: string } };
      return (await fetch(`/api/sellers/${seller.seller.id}/follow`, { method: 'POST' })).status;
    });
    expect([200, 201, 204]).toContain(followed);
    const before = (await (await page.request.get(`${ctx.app.url}/api/notifications`)).json()) as { unread: number };
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });

    await call('PUT', `/api/live-sessions/${show.session.id}`, { status: 'live' });
    await bell
      .getByTestId('bell-count')
      .getByText(String(before.unread + 1))
      .waitFor();
    // The same page, not a reload: the socket's event moved the badge.
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await bell.click();
    await page.getByTestId('bell-item').filter({ hasText: 'Cámaras de la tarde' }).waitFor();
    await page.context().close();
  });

  it('gives a signed-in buyer Mis alertas, Mis compras and Quiero vender in the phone menu, and no Panel', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    await signInPage(page, ctx.app, buyer);
    await page.goto(`${ctx.app.url}/`);
    await page.getByTestId('header-menu').click();
    for (const [key, href] of [
      ['alerts', '/alertas'],
      ['purchases', '/compras'],
      ['sell', '/vender'],
    ] as const) {
      expect(await page.getByTestId(`menu-${key}`).getAttribute('href')).toBe(href);
    }
    expect(await page.getByTestId('menu-panel').count()).toBe(0);
    await page.context().close();
  });
});
