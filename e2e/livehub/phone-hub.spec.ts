import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { livePath } from '../../src/domain/live-public.js';
import { formatMoney } from '../../src/domain/money.js';
import { buildCategory } from '../../test/support/actors.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { tapToBid } from '../support/live-phone.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { embeddedProvider, launchVideoBrowser } from '../support/video.js';
import { eventually, eventuallyMedia } from '../support/wait.js';
import { hubApi } from './hub-show.js';

/**
 * The whole show from one phone (390x844, touch), with Chromium's fake camera: the Hub is the
 * camera with its controls in the bottom third; the seller starts the broadcast, flips the camera
 * while live, opens three lots one after the other with 'Siguiente lote', and a buyer on another
 * phone bids on the first, which sells: the Hub says 'Vendido' and the price. The lots' sheet opens
 * and closes, nothing scrolls sideways, and axe finds nothing serious. Closing the tab while on the
 * air asks first, and the buyer then reads that the video stopped.
 */
const h = t.livehub;
const p = t.livehub.phone;
const HEIGHT = 844;

const SELLER = { email: 'telma.telefono@ejemplo.mx', name: 'Telma Teléfono' };
const BUYER = { email: 'beto.comprador@ejemplo.mx', name: 'Beto Comprador' };
const LOTS = ['Sombrero charro bordado', 'Jarra de Talavera', 'Rebozo de seda'] as const;

let app: E2eApp;
let browser: Browser;
let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  app = await startE2eApp(await embeddedProvider.env());
  browser = await launchVideoBrowser();
  seller = await prepareUser(app, { ...SELLER, roles: ['seller'], companyId: 'artesanias-telma', companyName: 'Artesanías Telma' });
  await prepareUser(app, { ...BUYER, roles: ['buyer'] });
  categoryId = await buildCategory(app, 'Artesanías');
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function signedInPhone(user: Pick<E2eUser, 'email' | 'name'>): Promise<Page> {
  const page = await newPage(browser, { mobile: true });
  await signInPage(page, app, user);
  return page;
}

/** Fails with axe's own words when the screen has a serious or critical finding. */
async function expectAccessible(page: Page, screen: string) {
  const findings = await auditPage(page, screen);
  expect(findings, formatFindings(findings)).toEqual([]);
}

/** Nothing on the page is wider than the screen. */
const sideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('the Live Hub on a phone', () => {
  it('runs a show from one phone: broadcast, flip, three lots in turn, one sold', { timeout: 150_000 }, async () => {
    const hub = await signedInPhone(seller);
    const api = hubApi(hub, app);
    // Short lots: 5 s each by default and no extension, so a lot nobody bids on closes at once.
    const created = await api.post<LiveSessionDetail>('/api/live-sessions', {
      title: 'Artesanías desde el teléfono',
      scheduledAt: Date.now() + 3_600_000,
      biddingConfig: { minIncrement: 20, antiSnipeSeconds: 0, timerSecondsDefault: 5 },
    });
    const sessionId = created.session.id;
    for (const name of LOTS) {
      const auction = await createAuctionAs(hub, app, { name, categoryId, startingPrice: 300, status: 'pending' });
      await api.post(`/api/live-sessions/${sessionId}/lots`, { auctionId: auction.id });
    }

    // The Hub is the camera: the preview fills the screen, the controls are in the bottom third.
    await hub.goto(`${app.url}/admin/livehub?session=${sessionId}`);
    const stage = hub.getByTestId('phone-hub');
    await stage.waitFor();
    await hub.getByTestId('player-badge').getByText(h.broadcast.previewBadge).waitFor();
    await eventuallyMedia(() => hub.getByTestId('hub-video').evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
    const video = await hub.getByTestId('hub-video').boundingBox();
    expect(video).toMatchObject({ x: 0, y: 0, width: 390, height: HEIGHT });
    // No header, no footer: the Hub's own top bar is all there is above the camera.
    expect(await hub.getByRole('banner').count()).toBe(0);
    expect(await hub.getByRole('contentinfo').count()).toBe(0);

    const controls = [
      ...[15, 30, 60].map((seconds) => hub.getByRole('button', { name: fill(h.timer.set, { seconds: String(seconds) }) })),
      hub.getByRole('button', { name: p.next }),
      hub.getByRole('button', { name: p.lots, exact: true }),
      hub.getByRole('button', { name: p.chat, exact: true }),
      hub.getByRole('button', { name: p.more, exact: true }),
      hub.getByRole('button', { name: h.broadcast.start, exact: true }),
      hub.getByRole('button', { name: p.mute }),
      hub.getByRole('button', { name: h.broadcast.flip }),
    ];
    for (const control of controls) {
      const box = await control.boundingBox();
      expect(box, await control.innerHTML()).not.toBeNull();
      if (!box) continue;
      expect(box.y).toBeGreaterThanOrEqual((HEIGHT * 2) / 3);
      expect(box.y + box.height).toBeLessThanOrEqual(HEIGHT);
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThanOrEqual(44);
    }
    expect(await sideScroll(hub)).toBeLessThanOrEqual(0);
    await expectAccessible(hub, 'phone hub');

    // The chat is the Hub's own panel, in a sheet over the show.
    await hub.getByRole('button', { name: p.chat, exact: true }).click();
    const chat = hub.getByRole('dialog', { name: p.chatTitle });
    await chat.getByText(t.live.chat.empty).waitFor();
    expect(await sideScroll(hub)).toBeLessThanOrEqual(0);
    await expectAccessible(hub, 'phone hub, chat sheet');
    await chat.getByRole('button', { name: t.common.close }).first().click();
    await chat.waitFor({ state: 'detached' });

    // 'Iniciar': on the air; the other camera replaces the one sent, and the show goes on.
    await hub.getByRole('button', { name: h.broadcast.start, exact: true }).click();
    await hub.getByTestId('player-badge').getByText(h.broadcast.liveBadge).waitFor({ timeout: 20_000 });
    await eventually(async () => (await api.session(sessionId)).session.broadcasting).toBe(true);
    expect(await stage.getAttribute('data-facing')).toBe('user');
    await hub.getByRole('button', { name: h.broadcast.flip }).click();
    await eventually(() => stage.getAttribute('data-facing')).toBe('environment');
    expect(await stage.getAttribute('data-phase')).toBe('publishing');
    await eventuallyMedia(() => hub.getByTestId('hub-video').evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
    await hub.getByRole('button', { name: p.mute }).click();
    expect(await hub.getByRole('button', { name: p.mute }).getAttribute('aria-pressed')).toBe('true');
    await hub.getByRole('button', { name: p.mute }).click();

    // The first lot, on the block with 'Siguiente lote'; 15 s left, and a buyer on a phone bids.
    const card = hub.getByTestId('phone-lot-card');
    await hub.getByRole('button', { name: p.next }).click();
    await card.getByText(LOTS[0]).waitFor();
    await hub.getByRole('button', { name: fill(h.timer.set, { seconds: '15' }) }).click();
    await eventually(() => card.getByTestId('current-lot-countdown').innerText()).toMatch(/^Quedan 00:1\d$/);

    const buyer = await signedInPhone(BUYER);
    await buyer.goto(`${app.url}${livePath(created.session)}`);
    await buyer.getByTestId('current-lot-name').getByText(LOTS[0]).waitFor();
    await tapToBid(buyer, 300, { firstInShow: true });
    await eventually(() => card.getByTestId('current-lot-bids').innerText()).toBe(fill(h.lots.bids_one, { count: '1' }));

    // The server closes it: 'Vendido' and the price, on the seller's phone.
    await card.getByTestId('phone-lot-phase').getByText(h.lots.phase.sold).waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('current-lot-price').innerText()).toBe(formatMoney(300));

    // The second and third lots, one after the other (the second closes unsold on its 5 s clock).
    await hub.getByRole('button', { name: p.next }).click();
    await card.getByText(LOTS[1]).waitFor();
    await card.getByTestId('phone-lot-phase').getByText(h.lots.phase.unsold).waitFor({ timeout: 20_000 });
    await hub.getByRole('button', { name: p.next }).click();
    await card.getByText(LOTS[2]).waitFor();
    await buyer.getByTestId('current-lot-name').getByText(LOTS[2]).waitFor();

    // The lots' sheet: the sold lot is past, with its price; it opens over the show and closes again.
    await hub.getByRole('button', { name: p.lots, exact: true }).click();
    const sheet = hub.getByRole('dialog', { name: p.lotsTitle });
    await sheet.waitFor();
    const sold = sheet.getByRole('region', { name: h.lots.past }).getByRole('listitem', { name: LOTS[0] });
    await sold.getByText(h.lots.rowStatus.sold, { exact: true }).waitFor();
    await sold.getByText(formatMoney(300), { exact: true }).waitFor();
    const sheetBox = await sheet.boundingBox();
    expect((sheetBox?.y ?? 0) + (sheetBox?.height ?? 0)).toBeCloseTo(HEIGHT, 0);
    expect(await sideScroll(hub)).toBeLessThanOrEqual(0);
    await expectAccessible(hub, 'phone hub, lots sheet');
    await sheet.getByRole('button', { name: t.common.close }).click();
    await sheet.waitFor({ state: 'detached' });

    // Still on the air through all of it.
    expect(await stage.getAttribute('data-phase')).toBe('publishing');
    expect(await sideScroll(hub)).toBeLessThanOrEqual(0);

    // Closing the tab while on the air: the browser asks first; leaving anyway stops the broadcast,
    // and the buyer reads that the video stopped instead of waiting for the seller.
    const asked = new Promise<string>((resolve) =>
      hub.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.accept();
      }),
    );
    await hub.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    const publicSession = async () => ((await app.app.inject({ method: 'GET', url: `/api/live-sessions/${sessionId}` })).json() as LiveSessionDetail).session;
    await eventually(async () => (await publicSession()).broadcasting).toBe(false);
    await eventually(() => buyer.getByTestId('live-session').getAttribute('data-state')).toBe('stopped');
  });
});
