import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { type Actor, buildCategory, signInAs } from '../../test/support/actors.js';
import { placeBid } from '../../test/support/server.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { embeddedProvider, launchVideoBrowser } from '../support/video.js';
import { eventually } from '../support/wait.js';
import { hubApi } from './hub-show.js';

/**
 * Everything the desktop Hub does during a show, from one phone (390x844, touch, Chromium's fake
 * camera): the show's title whole; the lots sheet's reorder, per-lot format, removal (after the
 * SPEC's question) and 'Volver a subastar'; the auto-advance countdown on the camera and pinned in
 * an open sheet or window, with 'Pausar' and 'Reanudar'; 'Más' with the custom seconds (and the shorten
 * question, which a bid closes), asking viewers for sound (its toast keeps off the top bar and the
 * lot card), the picker, the quick auction and 'Editar Sesión'; leaving while live asks first and
 * stops the broadcast; 'Terminar el show' asks and ends it. A rehearsal carries its banner.
 */
const h = t.livehub;
const p = t.livehub.phone;

const SELLER = { email: 'mara.movil@ejemplo.mx', name: 'Mara Móvil' };
const BUYER = { email: 'pablo.puja@ejemplo.mx', name: 'Pablo Puja' };
const TITLE = 'Remate de artesanías de Oaxaca y Michoacán: barro negro, textiles y alebrijes';
const [A, B, C, D] = ['Molcajete de piedra', 'Huipil bordado', 'Alebrije de copal', 'Canasta de palma'] as const;
const EXTRA = 'Máscara de Tocotín';

let app: E2eApp;
let browser: Browser;
let seller: E2eUser;
let buyer: Actor;
let categoryId = '';

beforeAll(async () => {
  app = await startE2eApp(await embeddedProvider.env());
  browser = await launchVideoBrowser();
  seller = await prepareUser(app, { ...SELLER, roles: ['seller'], companyId: 'artesanias-mara', companyName: 'Artesanías Mara' });
  buyer = await signInAs(app, { ...BUYER, roles: ['buyer'], completeProfile: true });
  categoryId = await buildCategory(app, 'Artesanías');
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function expectAccessible(page: Page, screen: string) {
  const findings = await auditPage(page, screen);
  expect(findings, formatFindings(findings)).toEqual([]);
}

const sideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** A catalogue message with its one number placeholder, as a pattern. */
const withNumber = (message: string, placeholder: string) => new RegExp(message.replace(`{{${placeholder}}}`, '\\d+').replace(/[?().]/g, '\\$&'));

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
}
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the phone Hub’s controls', () => {
  it('does from the phone what the desktop Hub does during a show', { timeout: 240_000 }, async () => {
    const hub = await newPage(browser, { mobile: true });
    await signInPage(hub, app, seller);
    const api = hubApi(hub, app);
    const created = await api.post<LiveSessionDetail>('/api/live-sessions', {
      title: TITLE,
      scheduledAt: Date.now() + 3_600_000,
      biddingConfig: { minIncrement: 20, antiSnipeSeconds: 0, timerSecondsDefault: 5, autoAdvanceSeconds: 120 },
    });
    const sessionId = created.session.id;
    const auctionIds = new Map<string, string>();
    for (const name of [A, B, C, D]) {
      const auction = await createAuctionAs(hub, app, { name, categoryId, startingPrice: 300, status: 'pending' });
      auctionIds.set(name, auction.id);
      await api.post(`/api/live-sessions/${sessionId}/lots`, { auctionId: auction.id });
    }
    await createAuctionAs(hub, app, { name: EXTRA, categoryId, startingPrice: 250, status: 'pending' });
    const queue = async () => (await api.session(sessionId)).lots.sort((x, y) => x.order - y.order).map((l) => l.auction.name);
    const hubUrl = `${app.url}/admin/livehub?session=${sessionId}`;

    await hub.goto(hubUrl);
    const stage = hub.getByTestId('phone-hub');
    await stage.waitFor();
    const card = hub.getByTestId('phone-lot-card');
    const topBar = stage.locator('header');

    // The show's title, whole: it wraps instead of being cut, within the screen.
    const title = hub.getByTestId('phone-title');
    expect(await title.innerText()).toBe(TITLE);
    const fit = await title.evaluate((el) => {
      const style = getComputedStyle(el);
      return {
        sw: el.scrollWidth,
        cw: el.clientWidth,
        sh: el.scrollHeight,
        ch: el.clientHeight,
        lh: Number.parseFloat(style.lineHeight),
        ws: style.whiteSpace,
      };
    });
    expect(fit.sw).toBeLessThanOrEqual(fit.cw);
    expect(fit.sh).toBeLessThanOrEqual(fit.ch);
    expect(fit.ch).toBeGreaterThan(1.5 * fit.lh);
    expect(fit.ws).not.toBe('nowrap');
    const titleBox = await boxOf(title);
    expect(titleBox.x + titleBox.width).toBeLessThanOrEqual(390);

    // The lots sheet: A one down, C on sudden death, D out of the show after the SPEC's question.
    await hub.getByRole('button', { name: p.lots, exact: true }).click();
    const sheet = hub.getByRole('dialog', { name: p.lotsTitle });
    const upcoming = sheet.getByRole('region', { name: h.lots.upcoming });
    await upcoming.getByRole('button', { name: fill(h.lots.moveDown, { name: A }) }).click();
    await sheet.getByText(fill(h.lots.moved, { name: A, position: '2' })).waitFor();
    await eventually(queue).toEqual([B, A, C, D]);

    await upcoming.getByRole('button', { name: fill(h.formats.lotMenu, { name: C }) }).click();
    const formatSheet = hub.getByRole('dialog', { name: fill(h.formats.lotMenu, { name: C }) });
    await formatSheet.getByRole('radio', { name: h.formats.suddenDeath }).check();
    await expectAccessible(hub, 'phone hub, lot format sheet');
    await formatSheet.getByRole('button', { name: h.formats.lotSave }).click();
    await formatSheet.waitFor({ state: 'detached' });
    await sheet.getByText(h.formats.lotSaved).waitFor();
    await upcoming
      .getByRole('button', { name: fill(h.formats.lotMenu, { name: C }) })
      .getByText(h.formats.badgeSuddenDeath)
      .waitFor();

    await upcoming.getByRole('button', { name: fill(h.lots.removeLabel, { name: D }) }).click();
    const removeQuestion = hub.getByRole('dialog', { name: h.lots.removeTitle });
    await removeQuestion.getByText(h.lots.removeConfirm).waitFor();
    await expectAccessible(hub, 'phone hub, remove question');
    await removeQuestion.getByRole('button', { name: h.lots.removeYes }).click();
    await removeQuestion.waitFor({ state: 'detached' });
    await eventually(queue).toEqual([B, A, C]);
    expect(await sideScroll(hub)).toBeLessThanOrEqual(0);
    await expectAccessible(hub, 'phone hub, lots sheet and its controls');
    await sheet.getByRole('button', { name: t.common.close }).click();
    await sheet.waitFor({ state: 'detached' });

    // B on the block closes unsold on its 5 s clock; auto-advance counts down over the camera…
    await hub.getByRole('button', { name: p.next }).click();
    await card.getByText(B).waitFor();
    await card.getByTestId('phone-lot-phase').getByText(h.lots.phase.unsold).waitFor({ timeout: 20_000 });
    const countdown = withNumber(h.flow.autoCountdown, 'seconds');
    await eventually(() => hub.getByTestId('auto-advance-stage').innerText()).toMatch(countdown);

    // …and stays in sight with a sheet open, where 'Pausar' and 'Reanudar' work too.
    await hub.getByRole('button', { name: p.lots, exact: true }).click();
    const pinned = sheet.getByTestId('auto-advance-sheet');
    await eventually(() => pinned.innerText()).toMatch(countdown);
    const pinnedBox = await boxOf(pinned);
    expect(pinnedBox.y).toBeGreaterThanOrEqual(0);
    expect(pinnedBox.y + pinnedBox.height).toBeLessThanOrEqual(844);
    await pinned.getByRole('button', { name: h.flow.pause }).click();
    await pinned.getByText(h.flow.autoPaused).waitFor();
    await eventually(async () => (await api.session(sessionId)).session.autoAdvancePaused).toBe(true);
    await pinned.getByRole('button', { name: h.flow.resume }).click();
    await eventually(() => pinned.innerText()).toMatch(countdown);

    // 'Volver a subastar': the unsold B goes back to the end of the queue.
    await sheet.getByRole('button', { name: fill(h.flow.requeueLabel, { name: B }) }).click();
    await sheet.getByText(fill(h.flow.requeued, { name: B })).waitFor();
    await eventually(async () => (await api.session(sessionId)).lots.find((l) => l.auction.name === B)?.status).toBe('queued');
    // Paused again: the rest of the show waits for the seller.
    await pinned.getByRole('button', { name: h.flow.pause }).click();
    await pinned.getByText(h.flow.autoPaused).waitFor();
    await sheet.getByRole('button', { name: t.common.close }).click();
    await sheet.waitFor({ state: 'detached' });

    // A on the block with 60 s; 45 s typed in 'Más' would cut its time: the question first.
    await hub.getByRole('button', { name: p.next }).click();
    await card.getByText(A).waitFor();
    await hub.getByRole('button', { name: fill(h.timer.set, { seconds: '60' }) }).click();
    const left = card.getByTestId('current-lot-countdown');
    await eventually(() => left.innerText()).toMatch(/^Quedan (01:00|00:5\d)$/);
    const more = hub.getByRole('dialog', { name: p.moreTitle });
    const customSeconds = async (seconds: string) => {
      await hub.getByRole('button', { name: p.more, exact: true }).click();
      await more.getByRole('spinbutton', { name: h.timer.custom }).fill(seconds);
      await more.getByRole('button', { name: h.timer.apply }).click();
      await more.waitFor({ state: 'detached' });
    };
    await hub.getByRole('button', { name: p.more, exact: true }).click();
    await more.waitFor();
    expect(await sideScroll(hub)).toBeLessThanOrEqual(0);
    await expectAccessible(hub, 'phone hub, more sheet');
    await more.getByRole('button', { name: t.common.close }).click();
    await more.waitFor({ state: 'detached' });
    await customSeconds('45');
    const shorten = hub.getByRole('dialog', { name: h.timer.shortenTitle });
    await shorten.getByRole('button', { name: fill(h.timer.shortenConfirm, { seconds: '45' }) }).click();
    await eventually(() => left.innerText()).toMatch(/^Quedan 00:(4[0-5]|3\d)$/);

    // Once more for 20 s: a bid arrives while the question is open; it goes, and the Hub says why.
    await customSeconds('20');
    await shorten.waitFor();
    const bid = await placeBid(app, buyer, auctionIds.get(A) ?? '', { amount: 300 });
    expect(bid.statusCode, bid.body).toBeLessThan(300);
    await shorten.waitFor({ state: 'detached' });
    await hub.getByTestId('phone-refusal').getByText(h.timer.shortenClosed).waitFor();

    // Asking viewers for sound: its toast shows between the top bar and the lot card.
    await hub.getByRole('button', { name: p.more, exact: true }).click();
    await more.getByRole('button', { name: h.broadcast.askUnmute }).click();
    const toast = hub.locator('.mantine-Notification-root').filter({ hasText: h.broadcast.unmuteAsked });
    await toast.waitFor();
    const toastBox = await boxOf(toast);
    expect(overlaps(toastBox, await boxOf(topBar))).toBe(false);
    expect(overlaps(toastBox, await boxOf(card))).toBe(false);
    expect(overlaps(toastBox, await boxOf(hub.getByTestId('phone-controls')))).toBe(false);

    // 'Añadir Lote': the desktop's picker; the lot it adds joins the show.
    await hub.getByRole('button', { name: p.more, exact: true }).click();
    await more.getByRole('button', { name: h.lots.add }).click();
    const picker = hub.getByRole('dialog', { name: h.picker.title });
    // The auto-advance strip stays in sight in the Hub's windows too (paused here), with 'Reanudar'.
    const inWindow = (window: Locator) => window.getByTestId('auto-advance-sheet').getByRole('button', { name: h.flow.resume }).waitFor();
    await inWindow(picker);
    await picker.getByRole('button', { name: fill(h.picker.addLabel, { name: EXTRA }) }).click();
    await eventually(async () => (await queue()).includes(EXTRA)).toBe(true);
    await picker.getByRole('button', { name: t.common.close }).first().click();
    await picker.waitFor({ state: 'detached' });

    // 'Agregar subasta rápida' and 'Editar el show' open the desktop's windows.
    await hub.getByRole('button', { name: p.more, exact: true }).click();
    await more.getByRole('button', { name: h.lots.quick }).click();
    const quick = hub.getByRole('dialog', { name: h.quick.title });
    await inWindow(quick);
    await quick.getByRole('button', { name: t.common.close }).first().click();
    await quick.waitFor({ state: 'detached' });
    await hub.getByRole('button', { name: p.more, exact: true }).click();
    await more.getByRole('button', { name: p.editShow }).click();
    const edit = hub.getByRole('dialog', { name: h.edit.title });
    await inWindow(edit);
    await edit.getByRole('button', { name: t.common.close }).first().click();
    await edit.waitFor({ state: 'detached' });

    // On the air, '<' asks first; 'Seguir transmitiendo' keeps the show going.
    await hub.getByRole('button', { name: h.broadcast.start, exact: true }).click();
    await hub.getByTestId('player-badge').getByText(h.broadcast.liveBadge).waitFor({ timeout: 20_000 });
    await eventually(async () => (await api.session(sessionId)).session.broadcasting).toBe(true);
    await hub.getByRole('button', { name: p.back }).click();
    const leave = hub.getByRole('dialog', { name: p.leaveTitle });
    await leave.getByText(p.leaveText).waitFor();
    await expectAccessible(hub, 'phone hub, leave question');
    await leave.getByRole('button', { name: p.leaveCancel }).click();
    await leave.waitFor({ state: 'detached' });
    expect(await stage.getAttribute('data-phase')).toBe('publishing');

    // 'Cambiar de show' asks too; leaving stops the broadcast for the buyers and goes to the shows.
    await hub.getByRole('button', { name: p.more, exact: true }).click();
    await more.getByRole('button', { name: p.changeShow }).click();
    await leave.getByRole('button', { name: p.leaveConfirm }).click();
    await eventually(() => new URL(hub.url()).searchParams.get('session')).toBeNull();
    await eventually(async () => (await api.session(sessionId)).session.broadcasting).toBe(false);

    // 'Terminar el show': the question says what ending does; the show ends.
    await hub.goto(hubUrl);
    await stage.waitFor();
    await hub.getByRole('button', { name: p.more, exact: true }).click();
    await more.getByRole('button', { name: p.endShow }).click();
    const end = hub.getByRole('dialog', { name: p.endTitle });
    await end.getByText(p.endText).waitFor();
    await expectAccessible(hub, 'phone hub, end question');
    await end.getByRole('button', { name: p.endConfirm }).click();
    await eventually(async () => (await api.session(sessionId)).session.status).toBe('ended');
    await end.waitFor({ state: 'detached' });
  });

  it('shows a rehearsal as one: the banner under the top bar, clear of the controls', { timeout: 60_000 }, async () => {
    const hub = await newPage(browser, { mobile: true });
    await signInPage(hub, app, seller);
    const api = hubApi(hub, app);
    const created = await api.post<LiveSessionDetail>('/api/live-sessions', {
      title: 'Ensayo del martes',
      scheduledAt: Date.now() + 3_600_000,
      rehearsal: true,
    });
    await hub.goto(`${app.url}/admin/livehub?session=${created.session.id}`);
    const banner = hub.getByTestId('rehearsal-banner');
    await banner.getByText(h.rehearsal.phoneBadge).waitFor();
    const bannerBox = await boxOf(banner);
    const barBox = await boxOf(hub.getByTestId('phone-hub').locator('header'));
    expect(bannerBox.y).toBeGreaterThanOrEqual(barBox.y + barBox.height);
    expect(overlaps(bannerBox, await boxOf(hub.getByTestId('phone-controls')))).toBe(false);
    // Still there with a sheet open.
    await hub.getByRole('button', { name: p.lots, exact: true }).click();
    await hub.getByRole('dialog', { name: p.lotsTitle }).waitFor();
    expect(await banner.isVisible()).toBe(true);
  });
});
