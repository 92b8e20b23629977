import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { livePath } from '../../src/domain/live-public.js';
import { formatMoney } from '../../src/domain/money.js';
import { companyBlocks } from '../../src/server/db/schema.js';
import { messages } from '../../src/server/messages.js';
import { AA_TEXT } from '../../src/web/theme-contrast.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { type A11yFinding, auditPage, formatFindings } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { lowestContrast } from '../support/contrast.js';
import { closeSheet, oneTapButton, openSheet, tapToBid } from '../support/live-phone.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * The live page on a 390x844 phone is the show: the lot and one button that bids exactly the next
 * minimum, over the video, without scrolling. The first bid asks once that bids are binding; a tap
 * at a price that moved is refused with the new amount, never raised; outbid and won are told over
 * the video, above the chat's lines and never on them, and the sold lot's card says she won (not
 * that she is winning); signed out, the button signs in and comes back; a blocked buyer has no
 * button, is told why, and a bid sent anyway is refused.
 */
const ctx = setupAppAndBrowser();
const p = t.live.phone;
const SELLER = { email: 'vendedora.telefono@ejemplo.mx', name: 'Teresa Teléfono' };
const ANA = { email: 'ana.telefono@ejemplo.mx', name: 'Ana Teléfono' };
const BRUNO = { email: 'bruno.telefono@ejemplo.mx', name: 'Bruno Teléfono' };
const CARLA = { email: 'carla.telefono@ejemplo.mx', name: 'Carla Teléfono' };
const DORA = { email: 'dora.telefono@ejemplo.mx', name: 'Dora Teléfono' };
const COMPANY = 'tienda-telefono';

let seller: Page;
let bruno: Page;
let dora: Page;
let ana: E2eUser;
let carla: E2eUser;
let categoryId = '';
const found: A11yFinding[] = [];

beforeAll(async () => {
  await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: COMPANY, companyName: 'Tienda Teléfono' });
  ana = await prepareUser(ctx.app, { ...ANA, roles: ['buyer'] });
  await prepareUser(ctx.app, { ...BRUNO, roles: ['buyer'] });
  await prepareUser(ctx.app, { ...DORA, roles: ['buyer'] });
  carla = await prepareUser(ctx.app, { ...CARLA, roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Relojes');
  seller = await newPage(ctx.browser);
  await signInPage(seller, ctx.app, SELLER);
  bruno = await newPage(ctx.browser);
  await signInPage(bruno, ctx.app, BRUNO);
  dora = await newPage(ctx.browser);
  await signInPage(dora, ctx.app, DORA);
});

afterAll(() => {
  if (found.length > 0) console.log(`accessibility findings:\n${formatFindings(found)}`);
});

async function api<T>(method: 'post' | 'put', path: string, data: unknown = {}): Promise<T> {
  const res = await seller.request[method](`${ctx.app.url}${path}`, { data, headers: { origin: ctx.app.url } });
  if (res.status() >= 300) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Another buyer bids through the API, as another phone would. */
async function bidAs(buyer: Page, auctionId: string, amount: number): Promise<void> {
  const res = await buyer.request.post(`${ctx.app.url}/api/auctions/${auctionId}/bids`, {
    data: { amount },
    headers: { origin: ctx.app.url, 'Idempotency-Key': randomUUID() },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** The auction's bids, oldest first, as amounts by masked bidder. */
async function bidLines(auctionId: string): Promise<{ name: string; amount: number }[]> {
  const res = await seller.request.get(`${ctx.app.url}/api/auctions/${auctionId}/bids?limit=100`);
  const body = (await res.json()) as { items: { bidderName: string; amount: number }[] };
  return body.items.map((b) => ({ name: b.bidderName, amount: b.amount })).reverse();
}

/** A line in the show's chat from `buyer`, as their phone would send it (again after their 2-second pace, if asked to wait). */
async function chatAs(buyer: Page, sessionId: string, text: string): Promise<void> {
  const send = () => buyer.request.post(`${ctx.app.url}/api/live-sessions/${sessionId}/chat`, { data: { text }, headers: { origin: ctx.app.url } });
  await eventually(async () => (await send()).status()).toBe(201);
}

/**
 * The chat lines over the video that a notice covers: for each line, the part of it left visible
 * by its clipping containers (the chat gives way from the top), intersected with the notice.
 */
function linesUnderNotice(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const notice = document.querySelector('[data-testid="phone-notice"]')?.getBoundingClientRect();
    if (!notice) return ['no notice'];
    const covered: string[] = [];
    for (const line of document.querySelectorAll<HTMLElement>('[data-testid="chat-overlay"] [data-testid="chat-line"]')) {
      let { top, bottom, left, right } = line.getBoundingClientRect();
      for (let el = line.parentElement; el; el = el.parentElement) {
        if (getComputedStyle(el).overflow === 'visible') continue;
        const clip = el.getBoundingClientRect();
        top = Math.max(top, clip.top);
        bottom = Math.min(bottom, clip.bottom);
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
      }
      const overlaps = Math.min(bottom, notice.bottom) - Math.max(top, notice.top) > 0.5 && Math.min(right, notice.right) - Math.max(left, notice.left) > 0.5;
      if (bottom - top > 0.5 && overlaps) covered.push(line.innerText);
    }
    return covered;
  });
}

/** A show with `names` as lots, its first lot on the block; answers the session and the lots' auction ids. */
async function newShow(title: string, names: string[], opts: { timerSeconds?: number; scheduledIn?: number } = {}) {
  const auctions = [];
  for (const name of names) auctions.push(await createAuctionAs(seller, ctx.app, { name, categoryId, startingPrice: 500, status: 'pending' }));
  let d = await api<LiveSessionDetail>('post', '/api/live-sessions', {
    title,
    scheduledAt: Date.now() + (opts.scheduledIn ?? 0),
    sellerSlug: 'telefono',
    whatsappLink: 'https://chat.whatsapp.com/telefono',
    biddingConfig: { minIncrement: 50, antiSnipeSeconds: 0, timerSecondsDefault: 60 },
  });
  const id = d.session.id;
  for (const auction of auctions) d = await api('post', `/api/live-sessions/${id}/lots`, { auctionId: auction.id });
  return { id, url: `${ctx.app.url}${livePath(d.session)}`, lots: d.lots };
}

async function onTheBlock(id: string, lotId: string | undefined, seconds: number): Promise<void> {
  await api('post', `/api/live-sessions/${id}/current`, { lotId });
  await api('post', `/api/live-sessions/${id}/timer`, { seconds });
}

async function phoneAs(user: E2eUser | null, url: string): Promise<Page> {
  const page = await newPage(ctx.browser, { mobile: true });
  if (user) await signInPage(page, ctx.app, user);
  await page.goto(url);
  return page;
}

/** Nothing scrolls on the phone, and the bid control sits whole inside the screen, under the lot card and clear of the top bar. */
async function expectShowFits(page: Page): Promise<void> {
  const size = page.viewportSize();
  if (!size) throw new Error('no viewport');
  expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(0);
  const box = async (testId: string) => {
    const b = await page.getByTestId(testId).first().boundingBox();
    if (!b) throw new Error(`${testId} not shown`);
    return b;
  };
  const lot = await box('current-lot');
  const status = await box('live-status');
  expect(status.y + status.height).toBeLessThanOrEqual(lot.y);
  for (const button of [await box('one-tap-bid'), await box('open-sheet')]) {
    expect(button.y + button.height).toBeLessThanOrEqual(size.height);
    expect(button.x + button.width).toBeLessThanOrEqual(size.width);
    expect(button.height).toBeGreaterThanOrEqual(44);
    expect(button.width).toBeGreaterThanOrEqual(44);
    // Sideways the lot and the buttons share the bottom row; upright the buttons sit under the lot.
    const beside = button.x >= lot.x + lot.width;
    expect(beside || button.y >= lot.y + lot.height).toBe(true);
  }
}

describe('the live show on a phone', () => {
  it('bids with one tap, asks once that bids bind, refuses a stale tap with the new amount, tells outbid and won', { timeout: 180_000 }, async () => {
    const show = await newShow('Relojes por teléfono', ['Reloj Omega', 'Reloj Seiko']);
    const [first] = show.lots;
    const auctionId = first?.auctionId as string;
    const phone = await phoneAs(ana, show.url);
    await phone.getByRole('heading', { name: 'Relojes por teléfono', level: 1 }).waitFor();
    found.push(...(await auditPage(phone, 'phone, before the show')));

    await onTheBlock(show.id, first?.id, 45);
    await phone.getByTestId('current-lot-name').getByText('Reloj Omega').waitFor();
    await eventually(() => phone.getByTestId('live-status').textContent()).toBe(t.live.status.live);
    await eventually(() => phone.getByTestId('lot-countdown').innerText()).toMatch(/^00:[0-4]\d$/);
    await oneTapButton(phone, 500).waitFor();
    await expectShowFits(phone);
    found.push(...(await auditPage(phone, 'phone, live with a lot')));
    // A busy chat over the video: the notices below must not sit on its lines.
    for (const [i, line] of ['¿De qué año es?', '¿Funciona bien?', 'Qué bonito', '¿Tiene caja?', 'Yo también quiero'].entries())
      await chatAs(i % 2 === 0 ? bruno : dora, show.id, line);
    await phone.getByTestId('chat-overlay').getByText('Yo también quiero').waitFor();

    // The first tap asks once; 'Entendido' bids exactly the amount shown.
    await tapToBid(phone, 500, { firstInShow: true });
    await phone
      .getByTestId('phone-notice')
      .getByText(fill(p.notice.winning, { amount: formatMoney(500) }))
      .waitFor();
    expect(await linesUnderNotice(phone)).toEqual([]);
    await phone.getByTestId('bid-state').getByText(t.bidding.leader.leading).waitFor();
    await eventually(() => phone.getByTestId('lot-leader').innerText()).toBe(`${t.bidding.price.current} · ${p.leaderYou}`);

    // Bruno outbids her from another phone: the notice, then the button shows the new minimum.
    await bidAs(bruno, auctionId, 550);
    await phone
      .getByTestId('phone-notice')
      .getByText(fill(p.notice.outbid, { price: formatMoney(550) }))
      .waitFor();
    await oneTapButton(phone, 600).waitFor();
    expect(await phone.getByTestId('phone-notice').getAttribute('data-kind')).toBe('outbid');
    expect(await linesUnderNotice(phone)).toEqual([]);
    expect((await lowestContrast(phone, '[data-testid="phone-notice"]')).ratio).toBeGreaterThanOrEqual(AA_TEXT);
    expect(await phone.getByTestId('lot-leader').innerText()).toBe(`${t.bidding.price.current} · ${fill(p.leader, { name: 'Br***' })}`);
    // The notice leaves by itself.
    await phone.getByTestId('phone-notice').waitFor({ state: 'detached' });

    // The second tap bids at once: no question this time. A double tap sends one bid.
    const posts: string[] = [];
    const countPosts = (req: { method(): string; url(): string }) => {
      if (req.method() === 'POST' && req.url().includes('/bids')) posts.push(req.url());
    };
    phone.on('request', countPosts);
    await oneTapButton(phone, 600).dblclick();
    await phone.getByTestId('bid-state').getByText(t.bidding.leader.leading).waitFor();
    expect(await phone.getByRole('dialog').count()).toBe(0);
    phone.off('request', countPosts);
    expect(posts).toHaveLength(1);

    // A stale tap: Dora's bid lands while hers is on its way. The server refuses hers; the page shows the new amount and sends nothing more.
    await bidAs(bruno, auctionId, 650);
    await oneTapButton(phone, 700).waitFor();
    const sent: number[] = [];
    await phone.route('**/api/auctions/*/bids', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      sent.push((route.request().postDataJSON() as { amount: number }).amount);
      if (sent.length === 1) await bidAs(dora, auctionId, 700);
      return route.continue();
    });
    await oneTapButton(phone, 700).click();
    const refusal = phone.getByTestId('bid-refusal');
    await refusal.getByText(fill(p.refusalTooLow, { amount: formatMoney(750) })).waitFor();
    await oneTapButton(phone, 750).waitFor();
    expect((await lowestContrast(phone, '[data-testid="bid-refusal"]')).ratio).toBeGreaterThanOrEqual(AA_TEXT);
    expect(sent).toEqual([700]);
    expect((await bidLines(auctionId)).map((l) => l.amount)).toEqual([500, 550, 600, 650, 700]);

    // The sheet: another amount or a maximum (the existing form), and the lots to come.
    await phone.getByRole('button', { name: p.more }).click();
    const sheet = phone.getByRole('dialog', { name: p.sheetTitle });
    await sheet.getByTestId('bid-form').waitFor();
    await sheet.getByTestId('upcoming-lot').filter({ hasText: 'Reloj Seiko' }).waitFor();
    found.push(...(await auditPage(phone, 'phone, the sheet open')));
    // The sheet's own close (the bid panel inside it has a close on its refusal too).
    await sheet.getByRole('button', { name: t.common.close }).first().click();
    await sheet.waitFor({ state: 'detached' });

    // She bids the new amount with one more tap, and wins when the lot closes.
    await phone.unroute('**/api/auctions/*/bids');
    await tapToBid(phone, 750);
    await phone.getByTestId('bid-state').getByText(t.bidding.leader.leading).waitFor();
    await phone
      .getByTestId('phone-notice')
      .getByText(fill(p.notice.won, { price: formatMoney(750) }))
      .waitFor({ timeout: 60_000 });
    expect(await linesUnderNotice(phone)).toEqual([]);
    await phone.getByTestId('bid-state').getByText(p.won).waitFor();
    await phone.getByTestId('current-lot-outcome').getByText(t.live.results.sold).waitFor();
    // The sold lot's card says she won it, never that she is winning.
    await eventually(() => phone.getByTestId('lot-leader').innerText()).toBe(`${t.bidding.price.final} · ${t.bidding.ended.youWon}`);
    expect(await phone.getByTestId('current-lot').innerText()).not.toContain(p.leaderYou);
    expect((await bidLines(auctionId)).map((l) => l.amount)).toEqual([500, 550, 600, 650, 700, 750]);

    await api('put', `/api/live-sessions/${show.id}`, { status: 'ended' });
    await eventually(() => phone.getByTestId('live-session').getAttribute('data-state')).toBe('ended');
    found.push(...(await auditPage(phone, 'phone, ended')));
    await phone.context().close();
    expect(found, formatFindings(found)).toEqual([]);
  });

  it('fits 360x740 and a phone turned sideways without overlapping controls', async () => {
    const show = await newShow('Relojes en pantalla chica', ['Reloj Casio']);
    await onTheBlock(show.id, show.lots[0]?.id, 120);
    const phone = await phoneAs(ana, show.url);
    for (const size of [
      { width: 360, height: 740 },
      { width: 844, height: 390 },
      { width: 390, height: 844 },
    ]) {
      await phone.setViewportSize(size);
      await phone.getByTestId('current-lot-name').getByText('Reloj Casio').waitFor();
      await expect.poll(() => phone.getByTestId('live-session').getAttribute('data-layout')).toBe('phone');
      await expectShowFits(phone);
    }
    // Wider, the two columns come back.
    await phone.setViewportSize({ width: 1280, height: 800 });
    await eventually(() => phone.getByTestId('live-session').getAttribute('data-layout')).toBe('wide');
    await phone.getByTestId('bid-panel').waitFor();
    await phone.context().close();
  });

  it('tells winning and outbid above the chat’s lines, never on them, sideways and on a small phone', async () => {
    const show = await newShow('Relojes con mucho chat', ['Reloj Citizen']);
    const lot = show.lots[0];
    await onTheBlock(show.id, lot?.id, 120);
    const eva = await prepareUser(ctx.app, { email: 'eva.telefono@ejemplo.mx', name: 'Eva Teléfono', roles: ['buyer'] });
    const phone = await newPage(ctx.browser, { mobile: true });
    await signInPage(phone, ctx.app, eva);
    // Sideways the video is short: the chat fills what the top bar and the lot leave.
    await phone.setViewportSize({ width: 844, height: 390 });
    await phone.goto(show.url);
    await phone.getByTestId('current-lot-name').getByText('Reloj Citizen').waitFor();
    const lines = [
      '¿Es automático o de cuerda? Se ve muy bien cuidado',
      '¿Cuánto mide la caja, en milímetros, sin la corona?',
      'Precioso, mi papá tenía uno igualito en los ochenta',
      '¿Tiene garantía o algún papel que diga que es original?',
      'Lo quiero para regalo, ¿lo envuelves por favor?',
      '¿Envías a Monterrey? ¿Cuánto cuesta el envío?',
    ];
    for (const [i, line] of lines.entries()) await chatAs(i % 2 === 0 ? bruno : dora, show.id, line);
    await phone.getByTestId('chat-overlay').getByText('¿Envías a Monterrey? ¿Cuánto cuesta el envío?').waitFor();

    await tapToBid(phone, 500, { firstInShow: true });
    await phone
      .getByTestId('phone-notice')
      .getByText(fill(p.notice.winning, { amount: formatMoney(500) }))
      .waitFor();
    expect(await linesUnderNotice(phone)).toEqual([]);
    // The newest line and the box to write in stay in view.
    await phone.getByTestId('chat-overlay').getByText('¿Envías a Monterrey? ¿Cuánto cuesta el envío?').waitFor({ state: 'visible' });
    await phone.getByTestId('phone-notice').waitFor({ state: 'detached' });

    await phone.setViewportSize({ width: 360, height: 640 });
    await bidAs(bruno, lot?.auctionId as string, 550);
    await phone
      .getByTestId('phone-notice')
      .getByText(fill(p.notice.outbid, { price: formatMoney(550) }))
      .waitFor();
    expect(await linesUnderNotice(phone)).toEqual([]);
    await expectShowFits(phone);
    await phone.context().close();
  });

  it('signed out, Pujar leads to sign-in and back to the show', async () => {
    const show = await newShow('Relojes sin sesión', ['Reloj Orient']);
    await onTheBlock(show.id, show.lots[0]?.id, 120);
    const visitor = await phoneAs(null, show.url);
    await visitor.getByTestId('current-lot-name').getByText('Reloj Orient').waitFor();
    await oneTapButton(visitor, 500).click();
    await visitor.waitForURL(/\/auth\/dev\?returnTo=/);
    expect(new URL(visitor.url()).searchParams.get('returnTo')).toBe(new URL(show.url).pathname);
    await visitor.getByLabel(messages.signIn.devEmail).fill(ana.email);
    await visitor.getByLabel(messages.signIn.devName).fill(ana.name);
    await visitor.getByRole('button', { name: messages.signIn.devSubmit }).click();
    await visitor.waitForURL(show.url);
    await visitor.getByTestId('current-lot-name').getByText('Reloj Orient').waitFor();
    await oneTapButton(visitor, 500).waitFor();
    await visitor.context().close();
  });

  it('a buyer the company blocked finds no Pujar and is told why; a bid sent anyway is refused, and none is placed', async () => {
    const show = await newShow('Relojes con bloqueo', ['Reloj Tissot']);
    const lot = show.lots[0];
    await onTheBlock(show.id, lot?.id, 120);
    await ctx.app.ctx.db.insert(companyBlocks).values({ companyId: COMPANY, userId: carla.id });
    const phone = await phoneAs(carla, show.url);
    await phone.getByTestId('current-lot-name').getByText('Reloj Tissot').waitFor();
    await phone.getByTestId('bid-state').getByText(t.unpaid.buyer.blockedTitle).waitFor();
    expect(await oneTapButton(phone).count()).toBe(0);
    const sheet = await openSheet(phone);
    await sheet.getByTestId('unpaid-blocked').getByText(t.unpaid.buyer.blockedByModerator).waitFor();
    await closeSheet(phone);
    const refused = await phone.request.post(`${ctx.app.url}/api/auctions/${lot?.auctionId}/bids`, { data: { amount: 500 }, headers: { origin: ctx.app.url } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.message).toBe(messages.bidding.blocked);
    expect(await bidLines(lot?.auctionId as string)).toEqual([]);
    // No box to write in the chat either, and the page says why.
    await phone.getByTestId('chat-blocked').getByText(t.live.chat.blocked).waitFor();
    expect(await phone.getByTestId('chat-overlay').getByRole('textbox').count()).toBe(0);
    await phone.context().close();
  });
});
