import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/domain/chat.js';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { formatMoney } from '../../src/domain/money.js';
import { auctions, chatMessages, companyMutedWords } from '../../src/server/db/schema.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * The Live Hub's chat panel beside the lots: the seller scrolls up through an hour of chat (earlier
 * pages load at the top), appoints a moderator by e-mail (owners are
 * marked and cannot be removed), sees a buyer's reported line and deletes it from the reports,
 * mutes a buyer from a line's menu and lifts it from 'Silenciados'. On a 390 px phone the same
 * chat is a bottom sheet showing every line the buyers see, live (the show's own lines, the pinned
 * line, announcements) and the lines a muted word holds back, each moderated with a thumb.
 */
const ctx = setupAppAndBrowser();
const p = t.livehub.chatPanel;
const c = t.live.chat;

const SELLER = { email: 'rosa.chat@ejemplo.mx', name: 'Rosa Chat' };
const MODERATOR = { email: 'mateo.mod@ejemplo.mx', name: 'Mateo Moderador' };
const BUYER = { email: 'berta.chat@ejemplo.mx', name: 'Berta Compradora' };
const REPORTER = { email: 'ramon.chat@ejemplo.mx', name: 'Ramón Reporta' };
/** The phone test's buyer: Berta's lines in the panel test count against her per-user limit (10 in 10 s) for a while after it ends. */
const PHONE_BUYER = { email: 'bruno.chat@ejemplo.mx', name: 'Bruno Comprador' };

let seller: E2eUser;

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'tienda-rosa', companyName: 'Tienda Rosa' });
  for (const user of [MODERATOR, BUYER, REPORTER, PHONE_BUYER]) await prepareUser(ctx.app, { ...user, roles: ['buyer'] });
});

async function signedIn(user: Pick<E2eUser, 'email' | 'name'>, opts: { mobile?: boolean } = {}): Promise<Page> {
  const page = await newPage(ctx.browser, opts);
  await signInPage(page, ctx.app, user);
  return page;
}

const lineText = (scope: Locator, text: string) => scope.getByTestId('chat-text').getByText(text, { exact: true });

async function call<T>(page: Page, method: 'post' | 'put' | 'get', path: string, data?: unknown): Promise<T> {
  const res = await page.request[method](`${ctx.app.url}${path}`, { data, headers: { origin: ctx.app.url } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as T;
}

describe("the Live Hub's chat panel", () => {
  it('pages back through the chat, appoints a moderator by e-mail, acts on a reported line, and mutes and unmutes a buyer', async () => {
    const hub = await signedIn(seller);
    const created = await call<LiveSessionDetail>(hub, 'post', '/api/live-sessions', { title: 'Chat del martes', scheduledAt: Date.now() + 3_600_000 });
    const id = created.session.id;
    await call(hub, 'put', `/api/live-sessions/${id}`, { status: 'live' });

    // An hour of chat already: 60 lines, more than one page.
    const buyerId = (await prepareUser(ctx.app, { ...BUYER, roles: ['buyer'] })).id;
    const history = Array.from({ length: 60 }, (_, i) => ({ sessionId: id, authorId: buyerId, authorName: 'Berta P.', text: `Historia ${i + 1}.` }));
    for (const row of history) await ctx.app.ctx.db.insert(chatMessages).values(row);

    await hub.goto(`${ctx.app.url}/admin/livehub?session=${id}`);
    const panel = hub.getByTestId('hub-chat-panel');
    await panel.getByRole('heading', { name: p.title }).waitFor();

    // The latest 50 first; scrolling to the top loads the earlier ones, down to the start of the chat.
    const list = panel.getByTestId('chat-list');
    await lineText(panel, 'Historia 60.').waitFor();
    await lineText(panel, 'Historia 11.').waitFor();
    expect(await lineText(panel, 'Historia 10.').count()).toBe(0);
    await list.evaluate((el) => {
      el.scrollTop = 0;
    });
    await lineText(panel, 'Historia 1.').waitFor();
    await panel.getByText(c.start).waitFor();
    expect(await panel.getByTestId('chat-line').count()).toBe(60);

    // The moderators: the seller is listed as owner, with no way to remove her.
    await panel.getByRole('tab', { name: p.tabs.moderators }).click();
    const owner = panel.getByTestId('hub-moderator').filter({ hasText: SELLER.email });
    await owner.getByText(p.moderators.owner).waitFor();
    expect(await owner.getByRole('button').count()).toBe(0);
    // A wrong e-mail is said in Spanish and nothing is sent.
    await panel.getByLabel(p.moderators.email).fill('mateo.mod@');
    await panel.getByRole('button', { name: p.moderators.add }).click();
    await panel.getByText(p.moderators.emailInvalid).waitFor();
    await panel.getByLabel(p.moderators.email).fill(MODERATOR.email);
    await panel.getByRole('button', { name: p.moderators.add }).click();
    const appointed = panel.getByTestId('hub-moderator').filter({ hasText: MODERATOR.email });
    await appointed.waitFor();
    await appointed.getByRole('button', { name: fill(p.moderators.removeLabel, { name: MODERATOR.name }) }).waitFor();
    expect(await panel.getByLabel(p.moderators.email).inputValue()).toBe('');
    // The appointed moderator now reads the reports (he could not before).
    const mod = await signedIn(MODERATOR);
    await call(mod, 'get', `/api/live-sessions/${id}/chat/reports`);

    // A buyer writes; the seller sees the line in the panel at once.
    const buyer = await signedIn(BUYER);
    const line = await call<ChatMessage>(buyer, 'post', `/api/live-sessions/${id}/chat`, { text: 'Este vendedor es un fraude' });
    await panel.getByRole('tab', { name: p.tabs.chat }).click();
    await panel.getByTestId('chat-text').filter({ hasText: 'Este vendedor es un fraude' }).waitFor();

    // Another buyer reports it: the reports tab lists it with its count, and 'Eliminar' removes it everywhere.
    const reporter = await signedIn(REPORTER);
    await call(reporter, 'post', `/api/live-sessions/${id}/chat/${line.id}/report`);
    await eventually(() => panel.getByTestId('hub-chat-tab-reports').innerText(), 20_000).toContain('1');
    await panel.getByRole('tab', { name: p.tabs.reports }).click();
    const report = panel.getByTestId('hub-chat-report').filter({ hasText: 'Este vendedor es un fraude' });
    await report.getByText(fill(p.reports.count_one, { count: '1' })).waitFor();
    expect(await auditPage(hub, 'Live Hub chat: reports')).toEqual([]);
    await report.getByRole('button', { name: c.actions.delete }).click();
    await eventually(() => report.count()).toBe(0);
    await panel.getByText(p.reports.empty).waitFor();
    const page = await call<{ items: ChatMessage[] }>(reporter, 'get', `/api/live-sessions/${id}/chat`);
    expect(page.items.map((l) => l.id)).not.toContain(line.id);

    // The buyer writes again; the seller mutes her for 5 minutes from the line's menu.
    const sorry = await call<ChatMessage>(buyer, 'post', `/api/live-sessions/${id}/chat`, { text: 'Perdón, era broma' });
    const name = sorry.authorName ?? '';
    expect(name).toMatch(/^Berta [A-Z]\.$/);
    await panel.getByRole('tab', { name: p.tabs.chat }).click();
    const again = panel.getByTestId('chat-line').filter({ hasText: 'Perdón, era broma' });
    await again.getByRole('button', { name: fill(c.actions.open, { name }) }).click();
    const menu = hub.getByRole('dialog', { name: fill(c.actions.title, { name }) });
    expect(await auditPage(hub, 'Live Hub chat: line menu')).toEqual([]);
    await menu.getByRole('button', { name: c.actions.mute5 }).click();
    await eventually(() => menu.count()).toBe(0);
    const refused = await buyer.request.post(`${ctx.app.url}/api/live-sessions/${id}/chat`, {
      data: { text: '¿Sigo aquí?' },
      headers: { origin: ctx.app.url },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.code).toBe('CHAT_MUTED');

    // 'Silenciados' lists her; 'Quitar silencio' lets her write again.
    await panel.getByRole('tab', { name: p.tabs.mutes }).click();
    const muted = panel.getByTestId('hub-chat-mute').filter({ hasText: name });
    await muted.waitFor();
    await muted.getByRole('button', { name: fill(p.mutes.unmuteLabel, { name }) }).click();
    await panel.getByText(p.mutes.empty).waitFor();
    // (Her refused try counts for the 2-second pace, so she may have to wait a moment.)
    const write = () =>
      buyer.request.post(`${ctx.app.url}/api/live-sessions/${id}/chat`, { data: { text: 'Gracias, ya me porto bien' }, headers: { origin: ctx.app.url } });
    await eventually(async () => (await write()).status()).toBe(201);
    expect(await auditPage(hub, 'Live Hub chat: mutes')).toEqual([]);

    for (const each of [hub, mod, buyer, reporter]) await each.context().close();
  });
});

describe("the Live Hub's chat on the seller's phone", () => {
  it('shows every line the buyers see, live, and the held-back ones, each moderated from the sheet with a thumb', { timeout: 120_000 }, async () => {
    const hub = await signedIn(seller, { mobile: true });
    const created = await call<LiveSessionDetail>(hub, 'post', '/api/live-sessions', { title: 'Chat desde el teléfono', scheduledAt: Date.now() + 3_600_000 });
    const id = created.session.id;
    const categoryId = await buildCategory(ctx.app, 'Relojes');
    const auction = await createAuctionAs(hub, ctx.app, { name: 'Reloj de bolsillo', categoryId, startingPrice: 300, status: 'pending' });
    const withLot = await call<LiveSessionDetail>(hub, 'post', `/api/live-sessions/${id}/lots`, { auctionId: auction.id });
    await ctx.app.ctx.db
      .insert(companyMutedWords)
      .values({ companyId: 'tienda-rosa', words: ['estafa'] })
      .onConflictDoNothing();
    await call(hub, 'put', `/api/live-sessions/${id}`, { status: 'live' });
    await call(hub, 'post', `/api/live-sessions/${id}/current`, { lotId: withLot.lots[0]?.id });
    await call(hub, 'post', `/api/live-sessions/${id}/timer`, { seconds: 600 });

    // Before the sheet opens: a buyer's line (pinned), an announcement, a line a muted word holds back.
    const buyer = await signedIn(PHONE_BUYER);
    const question = await call<ChatMessage>(buyer, 'post', `/api/live-sessions/${id}/chat`, { text: '¿Trae su cadena?' });
    const name = question.authorName ?? '';
    await call(hub, 'post', `/api/live-sessions/${id}/chat`, { text: 'Envío gratis hoy', announcement: true });
    await call(hub, 'post', `/api/live-sessions/${id}/chat/pin`, { messageId: question.id });
    /**
     * A line as the page's user. The buyer's pace is one line every 2 seconds: a line refused for
     * speed is sent again after the wait the server names (retryAfterSeconds), as the composer does,
     * rather than polled (each refused try counts against the user's 10 requests in 10 seconds).
     */
    const writeAs = async (page: Page, text: string) => {
      for (let attempt = 0; ; attempt++) {
        const res = await page.request.post(`${ctx.app.url}/api/live-sessions/${id}/chat`, { data: { text }, headers: { origin: ctx.app.url } });
        if (res.status() !== 429 || attempt === 5) return res;
        const { error } = (await res.json()) as { error: { retryAfterSeconds?: number } };
        await page.waitForTimeout(1000 * (error.retryAfterSeconds ?? 1));
      }
    };
    expect((await writeAs(buyer, 'Esto es una estafa')).status()).toBe(201);

    await hub.goto(`${ctx.app.url}/admin/livehub?session=${id}`);
    await hub.getByTestId('phone-hub').waitFor();
    await hub.getByRole('button', { name: t.livehub.phone.chat, exact: true }).click();
    const sheet = hub.getByRole('dialog', { name: t.livehub.phone.chatTitle });
    await sheet.waitFor();
    const lines = sheet.getByTestId('chat-list');
    await lines.getByText(fill(c.system.lotOpened, { name: 'Reloj de bolsillo', price: formatMoney(300) })).waitFor();
    await sheet.getByTestId('chat-pinned').getByText('¿Trae su cadena?').waitFor();
    await lines.getByTestId('chat-line').filter({ hasText: 'Envío gratis hoy' }).getByText(c.announcement).waitFor();
    const heldBack = lines.getByTestId('chat-line').filter({ hasText: 'Esto es una estafa' });
    await heldBack.getByText(c.heldBack).waitFor();
    // All four tabs in one row, and nothing wider than the phone.
    const tabs = await sheet.getByRole('tab').evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(new Set(tabs).size).toBe(1);
    expect(await hub.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    // The composer is in the sheet, on screen, below the lines.
    const composer = await sheet.getByRole('textbox', { name: c.inputLabel }).boundingBox();
    expect((composer?.y ?? 0) + (composer?.height ?? 0)).toBeLessThanOrEqual(844);
    const findings = await auditPage(hub, 'phone hub: chat sheet with lines');
    expect(findings, formatFindings(findings)).toEqual([]);

    // Live: a new line, and the lot sold (a system line), arrive while the sheet is open.
    expect((await writeAs(buyer, 'Ofrezco lo que pidan')).status()).toBe(201);
    await lines.getByText('Ofrezco lo que pidan').waitFor();
    const bid = await buyer.request.post(`${ctx.app.url}/api/auctions/${auction.id}/bids`, { data: { amount: 300 }, headers: { origin: ctx.app.url } });
    expect(bid.status(), await bid.text()).toBeLessThan(300);
    // Its time runs out now, as if the clock had got there: the server closes it, sold.
    await ctx.app.ctx.db
      .update(auctions)
      .set({ endTime: new Date(Date.now() - 1_000) })
      .where(eq(auctions.id, auction.id));
    // '¡Vendido a {{winner}} por {{price}}!', the winner masked as on the buyers' pages.
    const sold = new RegExp(
      fill(c.system.lotSold, { winner: '\u0000', price: formatMoney(300) })
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace('\u0000', '.+'),
    );
    await lines.locator('[data-kind="system"]').filter({ hasText: sold }).waitFor({ timeout: 30_000 });

    // Each line's menu is a thumb's target; the newest line is deleted, for good.
    const newest = lines.getByTestId('chat-line').filter({ hasText: 'Ofrezco lo que pidan' });
    const menuButton = newest.getByRole('button', { name: fill(c.actions.open, { name }) });
    const box = await menuButton.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await menuButton.click();
    const menu = hub.getByRole('dialog', { name: fill(c.actions.title, { name }) });
    await menu.getByRole('button', { name: c.actions.delete }).click();
    await menu.waitFor({ state: 'detached' });
    await sheet.getByTestId('chat-action-notice').getByText(c.actions.deleted).waitFor();
    await eventually(() => lines.getByText('Ofrezco lo que pidan').count()).toBe(0);
    await hub.waitForTimeout(1500);
    expect(await lines.getByText('Ofrezco lo que pidan').count()).toBe(0);
    const page = await call<{ items: ChatMessage[] }>(buyer, 'get', `/api/live-sessions/${id}/chat`);
    expect(page.items.map((l) => l.text)).not.toContain('Ofrezco lo que pidan');

    // The held-back line's author is muted from the sheet; the confirmation is said in the sheet.
    await heldBack.getByRole('button', { name: fill(c.actions.open, { name }) }).click();
    const heldMenu = hub.getByRole('dialog', { name: fill(c.actions.title, { name }) });
    // A line nobody else reads cannot be pinned.
    await heldMenu.getByRole('button', { name: c.actions.mute5 }).waitFor();
    expect(await heldMenu.getByRole('button', { name: c.actions.pin }).count()).toBe(0);
    await heldMenu.getByRole('button', { name: c.actions.mute5 }).click();
    await heldMenu.waitFor({ state: 'detached' });
    await sheet.getByTestId('chat-action-notice').getByText(fill(c.actions.muted, { name })).waitFor();
    expect((await writeAs(buyer, '¿Sigo aquí?')).status()).toBe(403);
    const afterMute = await auditPage(hub, 'phone hub: chat sheet after moderating');
    expect(afterMute, formatFindings(afterMute)).toEqual([]);

    for (const each of [hub, buyer]) await each.context().close();
  });
});
