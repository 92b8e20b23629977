import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/domain/chat.js';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { chatMessages } from '../../src/server/db/schema.js';
import { setupAppAndBrowser } from '../support/app.js';
import { auditPage } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * The Live Hub's chat panel beside the lots: the seller scrolls up through an hour of chat (earlier
 * pages load at the top), appoints a moderator by e-mail (owners are
 * marked and cannot be removed), sees a buyer's reported line and deletes it from the reports,
 * mutes a buyer from a line's menu and lifts it from 'Silenciados'.
 */
const ctx = setupAppAndBrowser();
const p = t.livehub.chatPanel;
const c = t.live.chat;

const SELLER = { email: 'rosa.chat@ejemplo.mx', name: 'Rosa Chat' };
const MODERATOR = { email: 'mateo.mod@ejemplo.mx', name: 'Mateo Moderador' };
const BUYER = { email: 'berta.chat@ejemplo.mx', name: 'Berta Compradora' };
const REPORTER = { email: 'ramon.chat@ejemplo.mx', name: 'Ramón Reporta' };

let seller: E2eUser;

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'tienda-rosa', companyName: 'Tienda Rosa' });
  for (const user of [MODERATOR, BUYER, REPORTER]) await prepareUser(ctx.app, { ...user, roles: ['buyer'] });
});

async function signedIn(user: Pick<E2eUser, 'email' | 'name'>): Promise<Page> {
  const page = await newPage(ctx.browser);
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
