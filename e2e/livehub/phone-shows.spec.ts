import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/domain/money.js';
import { liveLotRuns } from '../../src/server/db/schema.js';
import { buildActor, buildCategory } from '../../test/support/actors.js';
import { buildCompany, buildLot, buildSession, buildWonAuction } from '../../test/support/factories.js';
import { statValue } from '../support/after-show.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { createAuctionAs, uploadPhotoAs } from '../support/auctions.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';
import { hubApi } from './hub-show.js';

/**
 * The Live Hub on a 390x844 phone without a show loaded: the seller's shows under 'Hoy', 'Próximos'
 * and 'Pasados', told apart when two share a title, each loaded with one tap, and 'Crear sesión';
 * an ended show opens its 'Resumen del show' and 'Cobrar el show', never the live controls or the
 * camera, with the way back to the list and, after the usual question, to open it again.
 */
const h = t.livehub;
const ps = t.livehub.phoneShows;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const COMPANY = 'vinilos-vera';
const SELLER = { email: 'vera.vinilos@ejemplo.mx', name: 'Vera Vinilos' };
const NEW_SELLER = { email: 'nora.nueva@ejemplo.mx', name: 'Nora Nueva' };
const BUYER = { email: 'iker.compra@ejemplo.mx', name: 'Iker Compra', whatsapp: '+523311119999' };

let app: E2eApp;
let browser: Browser;
let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  app = await startE2eApp();
  browser = await launchBrowser({ camera: true });
  await buildCompany(app.ctx.db, { id: COMPANY, name: 'Vinilos Vera' });
  seller = await prepareUser(app, { ...SELLER, roles: ['seller'], companyId: COMPANY, companyName: 'Vinilos Vera' });
  categoryId = await buildCategory(app, 'Discos');
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function phoneAs(user: Pick<E2eUser, 'email' | 'name'>): Promise<Page> {
  const page = await newPage(browser, { mobile: true });
  // Every camera request the page makes is counted (an ended show must not ask for one).
  await page.addInitScript(() => {
    const media = navigator.mediaDevices;
    if (!media) return;
    const ask = media.getUserMedia.bind(media);
    (window as unknown as { cameraRequests: number }).cameraRequests = 0;
    media.getUserMedia = (constraints) => {
      (window as unknown as { cameraRequests: number }).cameraRequests++;
      return ask(constraints);
    };
  });
  await signInPage(page, app, user);
  return page;
}

const cameraRequests = (page: Page) => page.evaluate(() => (window as unknown as { cameraRequests: number }).cameraRequests);

async function expectAccessible(page: Page, screen: string) {
  const findings = await auditPage(page, screen);
  expect(findings, formatFindings(findings)).toEqual([]);
}

/** Nothing on the page is wider than the screen. */
const sideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The window covers the whole 390x844 screen (once its opening transition is over). */
async function wholeScreen(window: Locator): Promise<boolean> {
  const box = await window.boundingBox();
  return box !== null && [box.x, box.y, box.width, box.height].map(Math.round).join() === '0,0,390,844';
}

/** The list's group headed `name` ('Hoy', 'Próximos', 'Pasados'). */
const group = (page: Page, name: string) => page.getByTestId('phone-shows').getByRole('region', { name, exact: true });

/** The card (its main action, a button) of the show with `id`. */
const card = (page: Page, id: string): Locator => page.locator(`li[data-session-id="${id}"]`).getByTestId('show-card');

/** Mexico City's clock time of an instant ('18:05'), as Intl gives it: independent of the app's own formatting. */
const clock = (at: number) =>
  new Intl.DateTimeFormat('es-MX', { timeZone: 'America/Mexico_City', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
const dayOfMonth = (at: number) => new Intl.DateTimeFormat('es-MX', { timeZone: 'America/Mexico_City', day: 'numeric' }).format(at);

/** A show of the seller's, with `lots` lots, built in the database as if it had been run from the Hub. */
async function show(opts: { title: string; at: number; status?: 'scheduled' | 'live' | 'ended'; lots?: number; rehearsal?: boolean; cover?: string }) {
  const db = app.ctx.db;
  const session = await buildSession(db, {
    companyId: COMPANY,
    sellerId: seller.id,
    title: opts.title,
    scheduledAt: new Date(opts.at),
    status: opts.status ?? 'scheduled',
    rehearsal: opts.rehearsal ?? false,
    coverImageUrl: opts.cover ?? null,
  });
  for (let i = 0; i < (opts.lots ?? 0); i++) await buildLot(db, { sessionId: session.id });
  return session;
}

describe('the Live Hub on a phone, with no show loaded', () => {
  it("lists the seller's shows under Hoy, Próximos and Pasados, tells apart those of one title, and loads one with a tap", async () => {
    const now = Date.now();
    const page = await phoneAs(seller);
    const cover = await uploadPhotoAs(page, app, { name: 'portada-vinilos.jpg', color: { r: 200, g: 60, b: 40 }, width: 90, height: 160 });
    const onAir = await show({ title: 'Remate de vinilos', at: now - 26 * HOUR, status: 'live' });
    const tonight = await show({ title: 'Discos de hoy', at: now, lots: 2 });
    const next = await show({ title: 'Remate de vinilos', at: now + 3 * DAY, lots: 3, cover });
    const practice = await show({ title: 'Ensayo de vinilos', at: now + 5 * DAY, rehearsal: true, lots: 1 });
    const last = await show({ title: 'Remate de vinilos', at: now - 7 * DAY, status: 'ended', lots: 1 });
    const older = await show({ title: 'Rock en español', at: now - 30 * DAY, status: 'ended', lots: 4 });
    // Another shop's show is not in this seller's list.
    await buildSession(app.ctx.db, { companyId: 'otra-tienda', title: 'Show de otra tienda', scheduledAt: new Date(now) });

    await page.goto(`${app.url}/admin/livehub`);
    await page.getByRole('heading', { name: ps.title, level: 2 }).waitFor();
    await card(page, older.id).waitFor();
    // The desktop's selector and its camera are not on the phone.
    expect(await page.getByRole('combobox', { name: h.bar.label }).count()).toBe(0);
    expect(await page.getByTestId('transmission-panel').count()).toBe(0);
    expect(await page.getByText('Show de otra tienda').count()).toBe(0);

    // Hoy: the show on the air first (it began yesterday), then today's; Próximos: soonest first; Pasados: latest first.
    const ids = (region: Locator) => region.locator('li[data-session-id]').evaluateAll((items) => items.map((li) => li.getAttribute('data-session-id')));
    expect(await ids(group(page, ps.groups.today))).toEqual([onAir.id, tonight.id]);
    expect(await ids(group(page, ps.groups.upcoming))).toEqual([next.id, practice.id]);
    expect(await ids(group(page, ps.groups.past))).toEqual([last.id, older.id]);

    // The three 'Remate de vinilos' read apart: date and time, lots, status; the cover when there is one.
    const names = await Promise.all([onAir, next, last].map(async (s) => (await card(page, s.id).textContent()) ?? ''));
    expect(new Set(names).size).toBe(3);
    const expectCard = async (id: string, at: number, lots: string, status: string) => {
      const text = (await card(page, id).textContent()) ?? '';
      expect(text).toContain('Remate de vinilos');
      expect(text).toContain(clock(at));
      expect(text).toMatch(new RegExp(`\\b${dayOfMonth(at)}\\b`));
      expect(text).toContain(lots);
      expect(text).toContain(status);
    };
    await expectCard(onAir.id, now - 26 * HOUR, ps.noLots, h.status.live);
    await expectCard(next.id, now + 3 * DAY, fill(ps.lots_other, { count: '3' }), h.status.scheduled);
    await expectCard(last.id, now - 7 * DAY, fill(ps.lots_one, { count: '1' }), h.status.ended);
    await eventually(() =>
      card(page, next.id)
        .locator('img')
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);
    expect(await card(page, last.id).locator('img').count()).toBe(0);
    await card(page, practice.id).getByText(ps.rehearsal, { exact: true }).waitFor();

    // Each card is a thumb's size, nothing scrolls sideways, and axe finds nothing serious.
    for (const s of [onAir, tonight, next, practice, last, older]) expect((await card(page, s.id).boundingBox())?.height).toBeGreaterThanOrEqual(44);
    expect(await sideScroll(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page, 'phone list of shows');

    // One tap loads the upcoming one (the phone Hub), and '<' comes back to the list.
    await card(page, next.id).click();
    const stage = page.getByTestId('phone-hub');
    await stage.waitFor();
    expect(await stage.getAttribute('data-session-id')).toBe(next.id);
    expect(new URL(page.url()).searchParams.get('session')).toBe(next.id);
    await page.getByRole('button', { name: h.phone.back }).click();
    await card(page, next.id).waitFor();
    expect(new URL(page.url()).searchParams.get('session')).toBeNull();
    await page.context().close();
  });

  it("opens an ended show's summary and 'Cobrar el show', with no live controls and no camera", async () => {
    const db = app.ctx.db;
    const buyer = await buildActor(app, { email: BUYER.email, name: BUYER.name, roles: ['buyer'], completeProfile: true, whatsapp: BUYER.whatsapp });
    const endedAt = Date.now() - 2 * DAY;
    const ended = await show({ title: 'Vinilos de colección', at: endedAt, status: 'ended' });
    for (const [i, lot] of [
      { name: 'Vinilo de Chavela Vargas', price: 850 },
      { name: 'Vinilo de Juan Gabriel', price: 600 },
    ].entries()) {
      const closedAt = new Date(endedAt + (i + 1) * 30_000);
      const auction = await buildWonAuction(db, {
        name: lot.name,
        companyId: COMPANY,
        sellerId: seller.id,
        price: lot.price,
        winnerId: buyer.id,
        currentWinnerName: BUYER.name,
        winnerWhatsapp: BUYER.whatsapp,
        endTime: closedAt,
        closedAt,
      });
      const row = await buildLot(db, { sessionId: ended.id, auctionId: auction.id, status: 'finished' });
      await db.insert(liveLotRuns).values({ sessionId: ended.id, lotId: row.id, auctionId: auction.id, openedAt: new Date(endedAt + i * 30_000), closedAt });
    }

    const page = await phoneAs(seller);
    await page.goto(`${app.url}/admin/livehub?session=${ended.id}`);
    const screen = page.getByTestId('phone-after-show');
    await screen.getByRole('heading', { name: 'Vinilos de colección', level: 1 }).waitFor();
    const summary = page.getByRole('tabpanel', { name: h.afterShow.summaryTab });
    await eventually(() => statValue(summary, t.showSummary.stats.lotsSold).textContent()).toBe('2');
    expect(await statValue(summary, t.showSummary.stats.grossSold).textContent()).toBe(formatMoney(1450));

    // Never the live controls, and the camera was not asked for.
    expect(await page.getByTestId('phone-hub').count()).toBe(0);
    expect(await page.getByTestId('phone-controls').count()).toBe(0);
    expect(await page.getByTestId('hub-video').count()).toBe(0);
    expect(await page.getByTestId('player-badge').count()).toBe(0);
    expect(await page.getByRole('button', { name: h.broadcast.start, exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: h.phone.next }).count()).toBe(0);
    expect(await sideScroll(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page, 'ended show on a phone, summary');

    // 'Cobrar el show': the shipping rules and the buyer to bill, thumb-sized.
    await page.getByRole('tab', { name: h.afterShow.billTab }).click();
    const bill = page.getByRole('tabpanel', { name: h.afterShow.billTab });
    await bill.getByRole('form', { name: t.showBilling.shipping.title }).waitFor();
    await bill.getByRole('list', { name: t.showBilling.preview.title }).getByText(BUYER.name).waitFor();
    const save = bill.getByRole('button', { name: t.showBilling.shipping.save });
    expect((await save.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    expect((await bill.getByRole('textbox', { name: t.showBilling.shipping.flatFee }).boundingBox())?.height).toBeGreaterThanOrEqual(44);
    expect(await sideScroll(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page, "ended show on a phone, 'Cobrar el show'");
    expect(await cameraRequests(page)).toBe(0);

    // '<' back to the list, where the ended show is under 'Pasados'; a tap opens its summary again.
    await page.getByRole('button', { name: ps.back }).click();
    await group(page, ps.groups.past).locator(`li[data-session-id="${ended.id}"]`).waitFor();
    await card(page, ended.id).click();
    await screen.waitFor();

    // Opening it again asks first; 'Cancelar' leaves it ended, 'Abrir de nuevo' brings the live controls back.
    const reopen = page.getByRole('dialog', { name: h.reopen.title });
    await screen.getByRole('button', { name: ps.reopen }).click();
    await reopen.getByRole('button', { name: h.reopen.cancel }).click();
    await reopen.waitFor({ state: 'detached' });
    expect((await hubApi(page, app).session(ended.id)).session.status).toBe('ended');
    expect(await cameraRequests(page)).toBe(0);
    // (The count is real: a request made now is counted.)
    await page.evaluate(async () => {
      const stream = await navigator.mediaDevices.getUserMedia({ video: true });
      for (const track of stream.getTracks()) track.stop();
    });
    expect(await cameraRequests(page)).toBe(1);
    await screen.getByRole('button', { name: ps.reopen }).click();
    await reopen.getByRole('button', { name: h.reopen.confirm }).click();
    await page.getByTestId('phone-hub').waitFor();
    expect((await hubApi(page, app).session(ended.id)).session.status).toBe('scheduled');
    await page.context().close();
  });

  it("shows a new seller the empty list, and 'Crear sesión' opens the whole-screen form that loads the new show", async () => {
    await prepareUser(app, { ...NEW_SELLER, roles: ['seller'], companyId: 'nora-nueva', companyName: 'Nora Nueva' });
    const page = await phoneAs(NEW_SELLER);
    // The list fails first: its error says so, with 'Reintentar'.
    let fail = true;
    await page.route('**/api/live-sessions', (route) =>
      fail ? route.fulfill({ status: 500, json: { error: { code: 'INTERNAL', message: 'Error' } } }) : route.fallback(),
    );
    await page.goto(`${app.url}/admin/livehub`);
    const list = page.getByTestId('phone-shows');
    await list.getByRole('alert').getByRole('button', { name: t.common.retry }).waitFor();
    fail = false;
    await list.getByRole('alert').getByRole('button', { name: t.common.retry }).click();
    const empty = page.getByTestId('phone-shows-empty');
    await empty.getByText(h.noSessions).waitFor();
    await expectAccessible(page, 'phone list of shows, empty');

    await empty.getByRole('button', { name: h.header.createSession }).click();
    const create = page.getByRole('dialog', { name: h.create.title });
    await create.waitFor();
    await eventually(() => wholeScreen(create)).toBe(true);
    const title = create.getByRole('textbox', { name: h.create.name });
    expect((await title.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    expect(await title.evaluate((input) => getComputedStyle(input).fontSize)).toBe('16px');
    await title.fill('Mi primer show');
    await create.getByRole('button', { name: h.create.presetNow }).click();
    const submit = create.getByRole('button', { name: h.create.submit, exact: true });
    expect((await submit.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await expectAccessible(page, "phone 'Crear sesión'");
    await submit.click();
    await create.waitFor({ state: 'detached' });
    await page.getByTestId('phone-hub').getByRole('heading', { name: 'Mi primer show' }).waitFor();
    await page.context().close();
  });

  it("edits a show from its card's menu in a whole-screen window, and deletes one after the sessions table's question", async () => {
    const page = await phoneAs(seller);
    const api = hubApi(page, app);
    const kept = await show({ title: 'Casetes del sábado', at: Date.now() + 2 * DAY });
    const gone = await show({ title: 'Casetes repetidos', at: Date.now() + 4 * DAY });
    const auction = await createAuctionAs(page, app, { name: 'Casete de Rigo Tovar', categoryId, status: 'pending' });
    await api.post(`/api/live-sessions/${kept.id}/lots`, { auctionId: auction.id });
    await page.goto(`${app.url}/admin/livehub`);

    // The card's '⋯', named after the show and its date ('Opciones de … (sáb. 22 de nov, 18:05)').
    const actions = (id: string, title: string) =>
      page.locator(`li[data-session-id="${id}"]`).getByRole('button', { name: fill(ps.actions.split('{{date}}')[0] ?? '', { title }) });
    await actions(kept.id, 'Casetes del sábado').click();
    await page.getByRole('menuitem', { name: h.manage.edit }).click();
    const edit = page.getByRole('dialog', { name: h.edit.title });
    await edit.getByRole('textbox', { name: h.create.name }).waitFor();
    await eventually(() => wholeScreen(edit)).toBe(true);
    const save = edit.getByRole('button', { name: h.edit.save });
    expect((await save.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await edit.getByRole('listitem', { name: 'Casete de Rigo Tovar' }).waitFor();
    await edit.getByRole('textbox', { name: h.create.name }).fill('Casetes del sábado en la noche');
    await save.click();
    await eventually(async () => (await api.session(kept.id)).session.title).toBe('Casetes del sábado en la noche');
    await edit.getByRole('button', { name: h.edit.cancel }).first().click();
    await edit.waitFor({ state: 'detached' });
    await card(page, kept.id).getByText('Casetes del sábado en la noche').waitFor();

    await actions(gone.id, 'Casetes repetidos').click();
    await page.getByRole('menuitem', { name: h.manage.deleteYes }).click();
    const question = page.getByRole('dialog', { name: h.manage.deleteTitle });
    await question.getByText(h.manage.deleteConfirm).waitFor();
    await question.getByRole('button', { name: h.manage.deleteYes }).click();
    await page.getByText(h.manage.deleted).waitFor();
    await page.locator(`li[data-session-id="${gone.id}"]`).waitFor({ state: 'detached' });
    expect((await page.request.get(`${app.url}/api/live-sessions/${gone.id}`)).status()).toBe(404);
    await page.context().close();
  });
});
