import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mexicoCityLocal } from '../../src/domain/calendar.js';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { livePath } from '../../src/domain/live-public.js';
import { MEXICO_CITY_TZ } from '../../src/domain/time-zone.js';
import { buildCategory } from '../../test/support/actors.js';
import { makeSubscription, type PushService, startPushService } from '../../test/support/push-service.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { prepareUser, signInPage } from '../support/session.js';

/**
 * The seller's page on a 390x844 phone: who they are, their shows and auctions; *Seguir* and its
 * undo; *Avísame* then *Agregar al calendario* (the .ics file's content); and the whole alert: follow,
 * allow notifications, the seller goes live, the service worker shows the alert, a tap opens the show.
 *
 * Chromium here cannot reach a real push service, so the page's `pushManager.subscribe` hands back a
 * subscription of the local push service (test/support/push-service.ts), which receives and decrypts
 * what the server sends; the test then delivers that message to the service worker through CDP.
 */
let app: E2eApp;
let browser: Browser;
let push: PushService;

const SELLER = { email: 'vera.tienda@ejemplo.mx', name: 'Vera Peso' };
const COMPANY = 'Relojería Vera';
const BUYER = { email: 'beto.tienda@ejemplo.mx', name: 'Beto Compra' };
const FAN = { email: 'fany.tienda@ejemplo.mx', name: 'Fany Avisos' };

let sellerPage: Page;
let slug = '';
/** A show two days away (Avísame, the calendar) and one that goes live during the push test. */
let later: LiveSessionDetail['session'];
let tonight: LiveSessionDetail['session'];
let tonightLotId = '';
let openAuctionId = '';

async function call<T>(p: Page, method: 'post' | 'put', path: string, data?: unknown): Promise<T> {
  const res = await p.request[method](`${app.url}${path}`, { data, headers: { origin: app.url } });
  if (res.status() >= 300) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

async function phoneAs(user: { email: string; name: string } | null, opts: { notifications?: boolean } = {}): Promise<Page> {
  const page = await newPage(browser, { mobile: true });
  if (user) await signInPage(page, app, user);
  if (opts.notifications) await page.context().grantPermissions(['notifications'], { origin: app.url });
  return page;
}

const storeUrl = () => `${app.url}/tienda/${slug}`;

beforeAll(async () => {
  push = await startPushService();
  app = await startE2eApp({ PUSH_ALLOWED_ORIGINS: push.origin });
  browser = await launchBrowser();
  await prepareUser(app, { ...SELLER, roles: ['seller'], companyId: 'relojeria-vera', companyName: COMPANY });
  await prepareUser(app, { ...BUYER, roles: ['buyer'] });
  await prepareUser(app, { ...FAN, roles: ['buyer'] });
  const categoryId = await buildCategory(app, 'Relojes');
  sellerPage = await newPage(browser);
  await signInPage(sellerPage, app, SELLER);
  openAuctionId = (await createAuctionAs(sellerPage, app, { name: 'Reloj de bolsillo', categoryId, startingPrice: 700 })).id;
  const lotA = await createAuctionAs(sellerPage, app, { name: 'Relój Seiko', categoryId, startingPrice: 1200, status: 'pending' });
  const lotB = await createAuctionAs(sellerPage, app, { name: 'Cronógrafo', categoryId, startingPrice: 900, status: 'pending' });
  const a = await call<LiveSessionDetail>(sellerPage, 'post', '/api/live-sessions', {
    title: 'Relojes de colección',
    scheduledAt: Date.now() + 2 * 86_400_000,
    sellerSlug: 'vera-peso',
  });
  await call(sellerPage, 'post', `/api/live-sessions/${a.session.id}/lots`, { auctionId: lotA.id });
  later = a.session;
  const b = await call<LiveSessionDetail>(sellerPage, 'post', '/api/live-sessions', {
    title: 'Subasta de la tarde',
    scheduledAt: Date.now() + 3 * 3_600_000,
    sellerSlug: 'vera-peso',
  });
  const withLot = await call<LiveSessionDetail>(sellerPage, 'post', `/api/live-sessions/${b.session.id}/lots`, { auctionId: lotB.id });
  tonight = b.session;
  tonightLotId = withLot.lots[0]?.id ?? '';
  // The seller's page address, as the home lists it.
  const home = (await (await sellerPage.request.get(`${app.url}/api/home`)).json()) as { upcoming: { id: string; sellerSlug: string }[] };
  slug = home.upcoming.find((show) => show.id === later.id)?.sellerSlug ?? '';
  expect(slug).not.toBe('');
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await push?.close();
});

describe("the seller's page", () => {
  it('shows the seller, their followers, upcoming shows with their lots, and open auctions; axe finds nothing serious', async () => {
    const page = await phoneAs(null);
    await page.goto(storeUrl());
    await page.getByRole('heading', { name: SELLER.name, level: 1 }).waitFor();
    expect(await page.getByTestId('store-company').textContent()).toContain(COMPANY);
    expect(await page.getByTestId('followers').getAttribute('data-count')).toBe('0');
    await page.getByRole('button', { name: t.follow.follow }).waitFor();
    const upcoming = page.getByTestId('store-upcoming-show');
    await upcoming.filter({ hasText: 'Relojes de colección' }).getByText('Relój Seiko').waitFor();
    await upcoming.filter({ hasText: 'Subasta de la tarde' }).waitFor();
    await page.getByTestId('store-auction').filter({ hasText: 'Reloj de bolsillo' }).waitFor();
    await page.getByText(t.store.pastEmpty).waitFor();
    // A page built for 390 px: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const findings = await auditPage(page, 'store');
    expect(findings, formatFindings(findings)).toEqual([]);
    await page.context().close();
  });

  it("is linked from an auction's page and a show's page, by the seller's name", async () => {
    const page = await phoneAs(null);
    await page.goto(`${app.url}/auctions/${openAuctionId}`);
    expect(await page.getByTestId('seller-store-link').getAttribute('href')).toBe(`/tienda/${slug}`);
    await page.goto(`${app.url}${livePath(later)}`);
    const link = page.getByTestId('seller-store-link');
    expect(await link.getAttribute('href')).toBe(`/tienda/${slug}`);
    await link.click();
    await page.getByRole('heading', { name: SELLER.name, level: 1 }).waitFor();
    await page.context().close();
  });

  it('answers an unknown seller with a friendly page that leads home', async () => {
    const page = await phoneAs(null);
    await page.goto(`${app.url}/tienda/nadie-con-este-nombre`);
    await page.getByRole('heading', { name: t.store.notFoundTitle }).waitFor();
    expect(await page.getByRole('link', { name: t.store.goHome }).getAttribute('href')).toBe('/');
    await page.context().close();
  });

  it('sends a signed-out visitor who taps Seguir to sign in, and back to this page', async () => {
    const page = await phoneAs(null);
    await page.goto(storeUrl());
    const signIn = page.waitForRequest((req) => req.url().includes(`/auth/google?returnTo=${encodeURIComponent(`/tienda/${slug}`)}`));
    await page.getByRole('button', { name: t.follow.follow }).click();
    await signIn;
    await page.context().close();
  });
});

describe('Seguir', () => {
  it('follows in one tap, counts the follower, offers alerts, and one tap undoes it', async () => {
    const page = await phoneAs(BUYER);
    await page.goto(storeUrl());
    const button = page.getByTestId('follow-button');
    await button.click();
    await page.getByRole('button', { name: t.follow.following }).waitFor();
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('followers').getAttribute('data-count')).toBe('1');
    // Asked after the tap, never on load; "Ahora no" closes it.
    const prompt = page.getByRole('dialog', { name: t.pushPrompt.title });
    await prompt.getByText(t.pushPrompt.intro).waitFor();
    await prompt.getByRole('button', { name: t.pushPrompt.later }).click();
    await prompt.waitFor({ state: 'detached' });

    await page.reload();
    await page.getByRole('button', { name: t.follow.following }).waitFor();
    expect(await page.getByTestId('followers').getAttribute('data-count')).toBe('1');
    // No question on a page load.
    expect(await page.getByRole('dialog').count()).toBe(0);

    await page.getByRole('button', { name: t.follow.following }).click();
    await page.getByRole('button', { name: t.follow.follow }).waitFor();
    expect(await page.getByTestId('followers').getAttribute('data-count')).toBe('0');
    await page.reload();
    await page.getByRole('button', { name: t.follow.follow }).waitFor();
    expect(await page.getByTestId('followers').getAttribute('data-count')).toBe('0');
    await page.context().close();
  });
});

describe('Avísame and Agregar al calendario', () => {
  it('bookmarks a show, lists it in Mis alertas, and downloads an .ics of it', async () => {
    const page = await phoneAs(BUYER);
    await page.goto(storeUrl());
    const card = page.getByTestId('store-upcoming-show').filter({ hasText: 'Relojes de colección' });
    await card.getByRole('button', { name: fill(t.follow.remindLabel, { title: 'Relojes de colección' }) }).click();
    await card.getByRole('button', { name: fill(t.follow.remindedLabel, { title: 'Relojes de colección' }) }).waitFor();
    const prompt = page.getByRole('dialog', { name: t.pushPrompt.title });
    await prompt.getByRole('button', { name: t.pushPrompt.later }).click();
    await prompt.waitFor({ state: 'detached' });

    await card.getByRole('button', { name: fill(t.follow.calendarLabel, { title: 'Relojes de colección' }) }).click();
    const menu = page.getByRole('dialog', { name: t.follow.calendar });
    const google = new URL((await menu.getByRole('link', { name: t.follow.calendarGoogle }).getAttribute('href')) ?? '');
    expect(google.origin + google.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(google.searchParams.get('text')).toBe(`Relojes de colección · ${COMPANY}`);
    const [download] = await Promise.all([page.waitForEvent('download'), menu.getByRole('link', { name: t.follow.calendarIcs }).click()]);
    // The server's file, the same the live page offers: the hour as Mexico City says it.
    expect(download.suggestedFilename()).toBe(`martillo-${later.id}.ics`);
    const ics = (await readFile((await download.path()) ?? '', 'utf8')).replace(/\r\n /g, '');
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain(`UID:live-session-${later.id}@`);
    expect(ics).toContain(`DTSTART;TZID=${MEXICO_CITY_TZ}:${mexicoCityLocal(later.scheduledAt)}`);
    expect(ics).toContain(`SUMMARY:Relojes de colección · ${COMPANY}`);
    expect(ics).toContain(`URL:${app.url}${livePath(later)}`);

    await page.goto(`${app.url}/alertas`);
    const row = page.getByTestId('reminded-show').filter({ hasText: 'Relojes de colección' });
    await row.waitFor();
    // One tap undoes it; the list then says what to do.
    await row.getByRole('button', { name: fill(t.follow.remindedLabel, { title: 'Relojes de colección' }) }).click();
    await page.getByText(t.alerts.showsEmpty).waitFor();
    await page.getByText(t.alerts.sellersEmpty).waitFor();
    await page.context().close();
  });
});

describe('the alert when a followed seller goes live', () => {
  it('reaches the service worker, shows the notification, and a tap on it opens the show', async () => {
    const subscription = makeSubscription(push);
    const page = await phoneAs(FAN, { notifications: true });
    const context = page.context();
    // Only in this test: the browser's push service is the local one (no internet here).
    await context.addInitScript((sub: { endpoint: string; keys: { p256dh: string; auth: string } }) => {
      const fake = {
        endpoint: sub.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
        unsubscribe: async () => true,
      };
      let subscribed = false;
      PushManager.prototype.subscribe = async () => {
        subscribed = true;
        (window as unknown as { __subscribed: boolean }).__subscribed = true;
        return fake as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => (subscribed ? fake : null) as unknown as PushSubscription;
    }, subscription.toJSON());

    await page.goto(storeUrl());
    await page.getByTestId('follow-button').click();
    const prompt = page.getByRole('dialog', { name: t.pushPrompt.title });
    await prompt.getByRole('button', { name: t.pushPrompt.enable }).click();
    await page.getByText(t.pushPrompt.enabled).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __subscribed?: boolean }).__subscribed)).toBe(true);
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    expect(new URL(worker.url()).pathname).toBe('/sw.js');

    // The seller starts the show: the server tells its followers, in the background.
    await call(sellerPage, 'put', `/api/live-sessions/${tonight.id}`, { status: 'live' });
    await call(sellerPage, 'post', `/api/live-sessions/${tonight.id}/current`, { lotId: tonightLotId });
    const [received] = (await push.waitForReceived(1, 30_000)).filter((r) => r.subscriptionId === subscription.id);
    const payload = received?.payload as { title: string; url: string; body?: string };
    // The show, its shop and its link: nothing about the buyer.
    expect(payload.title).toContain(COMPANY);
    expect(payload.title).toContain('Subasta de la tarde');
    expect(new URL(payload.url, app.url).pathname).toBe(livePath(tonight));
    expect(received?.ttl).toBeLessThanOrEqual(900);

    // What the push service would hand the browser, delivered to the service worker.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const found = registrations.find((r) => r.scopeURL === `${app.url}/` && !r.isDeleted);
        if (found) resolve(found.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    // A push without data first: it must show nothing (only the real one below is listed).
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: app.url, registrationId: await registrationId, data: '' });
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: app.url, registrationId: await registrationId, data: JSON.stringify(payload) });

    const listNotifications = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        const list = await registration.getNotifications();
        return list.map((n) => ({ title: n.title, body: n.body, url: (n.data as { url: string }).url }));
      });
    await expect.poll(listNotifications).toHaveLength(1);
    const notifications = await listNotifications();
    expect(notifications).toHaveLength(1);
    expect(notifications[0]?.title).toBe(payload.title);
    expect(notifications[0]?.url).toBe(`${app.url}${livePath(tonight)}`);

    // A tap on it: the notification's click, dispatched in the service worker. A script-made event
    // may neither extend its own lifetime nor open a window (no user gesture), so the handler's promise
    // is awaited here and the open tab of the site, this one, is the one sent to the show.
    const clicked = await worker.evaluate(`(async () => {
      const [notification] = await self.registration.getNotifications();
      const event = new NotificationEvent('notificationclick', { notification });
      let pending = Promise.resolve();
      Object.defineProperty(event, 'waitUntil', { value: function (promise) { pending = promise; } });
      self.dispatchEvent(event);
      await pending;
      return (await self.registration.getNotifications()).length;
    })()`);
    expect(clicked).toBe(0);
    await page.waitForURL(`${app.url}${livePath(tonight)}`);
    await page.getByRole('heading', { name: 'Subasta de la tarde', level: 1 }).waitFor();

    // Mis alertas: the seller followed, live now, with the way into the show.
    await page.goto(`${app.url}/alertas`);
    const seller = page.getByTestId('followed-seller').filter({ hasText: SELLER.name });
    expect(await seller.getByTestId('followed-seller-live').getAttribute('href')).toBe(livePath(tonight));
    // The seller's page: the live banner leads into the show.
    await page.goto(storeUrl());
    expect(await page.getByTestId('store-live-banner').getAttribute('href')).toBe(livePath(tonight));
    await context.close();
  });
});
