import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatPage } from '../../src/domain/chat.js';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { messages } from '../../src/server/messages.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { auditPage } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { fileOf } from '../support/chunks.js';
import { oneTapButton } from '../support/live-phone.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * The show's chat on 390 px phones: two buyers talk over the video, typed HTML stays text, a buyer
 * reports a line and is thanked, the seller (a moderator, on a wide screen) deletes a line and
 * every phone loses it, slow mode holds and a line sent too soon says why and counts down to when
 * one can write again, a muted buyer is refused in the server's words and keeps what they typed, a
 * blocked buyer loses the chat box at once, told why (and the server refuses their lines anyway),
 * and the bid button too (a bid is refused by the bid engine anyway).
 */
const ctx = setupAppAndBrowser();
const c = t.live.chat;

const SELLER = { email: 'lucia.vende@ejemplo.mx', name: 'Lucía Vende' };
const ANA = { email: 'ana.chat@ejemplo.mx', name: 'Ana Ríos' };
const BETO = { email: 'beto.chat@ejemplo.mx', name: 'Beto Soto' };

let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'tienda-lucia', companyName: 'Tienda Lucía' });
  await prepareUser(ctx.app, { ...ANA, roles: ['buyer'] });
  await prepareUser(ctx.app, { ...BETO, roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Juguetes');
});

async function page(user: Pick<E2eUser, 'email' | 'name'> | null, opts: { mobile?: boolean } = { mobile: true }): Promise<Page> {
  const p = await newPage(ctx.browser, opts);
  if (user) await signInPage(p, ctx.app, user);
  return p;
}

async function call<T>(p: Page, method: 'post' | 'put', path: string, data?: unknown): Promise<T> {
  const res = await p.request[method](`${ctx.app.url}${path}`, { data, headers: { origin: ctx.app.url } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as T;
}

/** Writes a line from the phone's overlay composer (once: the server may refuse it). */
async function say(overlay: Locator, text: string): Promise<void> {
  await overlay.getByRole('textbox', { name: c.inputLabel }).fill(text);
  await overlay.getByRole('button', { name: c.send }).click();
}

/**
 * Writes a line as a person would within the pace (a line about every 2 s, or slow mode's): when
 * the server asks to wait, the refusal stays until the wait is over, then the kept text is sent again.
 * It sends again only after a refusal it saw: a press while the first send is still on its way would
 * find the field already emptied by the answer (and be told to write something first).
 */
async function sayWhenAllowed(overlay: Locator, text: string): Promise<void> {
  const input = overlay.getByRole('textbox', { name: c.inputLabel });
  const send = overlay.getByRole('button', { name: c.send });
  const refusal = overlay.getByTestId('chat-refusal');
  let wasRefused = false;
  await say(overlay, text);
  await eventually(async () => {
    if ((await input.inputValue()) === '') return 'sent';
    if ((await refusal.count()) > 0) wasRefused = true;
    else if (wasRefused && (await send.isEnabled())) {
      wasRefused = false;
      await send.click();
    }
    return 'waiting';
  }, 40_000).toBe('sent');
}

/** The public name of each line's author, by its text, as the chat's API gives them to anyone. */
async function publicNames(p: Page, sessionId: string): Promise<Map<string, string | null>> {
  const res = await p.request.get(`${ctx.app.url}/api/live-sessions/${sessionId}/chat`);
  const page = (await res.json()) as ChatPage;
  return new Map(page.items.map((l) => [l.text, l.authorName]));
}

const lineWith = (scope: Locator, text: string) => scope.getByTestId('chat-text').filter({ hasText: text });

/** axe's label-content-name-mismatch alone (experimental in axe 4.11, so not in auditPage's run): the elements whose name leaves out their visible text. */
async function nameMismatches(p: Page): Promise<string[]> {
  await auditPage(p, 'inject axe');
  return p.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { nodes: { target: string[] }[] }[] }> } }).axe;
    const results = await axe.run(document, { runOnly: { type: 'rule', values: ['label-content-name-mismatch'] } });
    return results.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')));
  });
}

/** The server's message with its placeholders as a pattern ("espera {{seconds}} s" → "espera \d+ s"). */
const wording = (message: string) => new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\\\{\w+\\\}\\\}/g, '.+'));

/** The seller's show goes live with one lot on the block, on a 10-minute timer. */
async function startShow(sp: Page, title: string, lotName: string): Promise<{ id: string; url: string; auctionId: string }> {
  const created = await call<LiveSessionDetail>(sp, 'post', '/api/live-sessions', {
    title,
    scheduledAt: Date.now() + 3_600_000,
    sellerSlug: 'Tienda Lucía',
  });
  const id = created.session.id;
  const auction = await createAuctionAs(sp, ctx.app, { name: lotName, categoryId, startingPrice: 400, status: 'pending' });
  const withLot = await call<LiveSessionDetail>(sp, 'post', `/api/live-sessions/${id}/lots`, { auctionId: auction.id });
  await call(sp, 'put', `/api/live-sessions/${id}`, { status: 'live' });
  await call(sp, 'post', `/api/live-sessions/${id}/current`, { lotId: withLot.lots[0]?.id });
  await call(sp, 'post', `/api/live-sessions/${id}/timer`, { seconds: 600 });
  return { id, url: `${ctx.app.url}/live/${id}`, auctionId: auction.id };
}

/**
 * The chat's parts that a reader who only reads never needs: the field and the moderators' tools.
 * (A line's actions are built with the Live Hub's reports, which a public page never loads.)
 */
const COMPOSER_FORM = 'src/web/components/chat/chat-composer-form.tsx';
const WRITERS_ONLY = [COMPOSER_FORM, 'src/web/components/chat/moderator-bar.tsx'];

describe('the chat on the live page', () => {
  it("a visitor who only reads fetches none of the writers' code; a field whose code does not arrive says so, and 'Reintentar' brings it", async () => {
    const sp = await page(seller, { mobile: false });
    const { url } = await startShow(sp, 'Juguetes para leer', 'Trompo de madera');
    await sp.context().close();

    const visitor = await page(null);
    const scripts: string[] = [];
    visitor.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    await visitor.goto(url);
    await visitor.getByTestId('chat-overlay').getByRole('button', { name: c.signIn }).waitFor();
    await visitor.waitForLoadState('networkidle');
    const writersOnly = WRITERS_ONLY.map(fileOf);
    expect(scripts.filter((s) => writersOnly.includes(s))).toEqual([]);
    await visitor.context().close();

    const ana = await page(ANA);
    const form = `**${fileOf(COMPOSER_FORM)}`;
    await ana.route(form, (route) => route.abort('internetdisconnected'));
    await ana.goto(url);
    const overlay = ana.getByTestId('chat-overlay');
    const failed = overlay.getByRole('alert').filter({ hasText: c.composerLoadFailed });
    await failed.waitFor();
    // The show and its bid button are still there.
    await oneTapButton(ana).waitFor();

    await ana.unroute(form);
    await failed.getByRole('button', { name: t.common.retry }).click();
    await say(overlay, 'Ya puedo escribir');
    await lineWith(overlay, 'Ya puedo escribir').waitFor();
    await ana.context().close();
  });

  it('a phone whose room answers late, after it read the chat, still shows a line written before it got in', async () => {
    const sp = await page(seller, { mobile: false });
    const { url } = await startShow(sp, 'Trenes de cuerda', 'Locomotora de lámina');
    const beto = await page(BETO);
    // Beto's join to the show's room waits until the test lets it through: a slow phone's socket.
    let letJoin = () => {};
    const joinHeld = new Promise<void>((resolve) => {
      letJoin = resolve;
    });
    await beto.routeWebSocket(/\/socket\.io\//, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((frame) => {
        if (typeof frame === 'string' && frame.includes('"joinSession"')) void joinHeld.then(() => server.send(frame));
        else server.send(frame);
      });
    });
    // The chat is read without the room once the page has waited for it.
    const read = beto.waitForResponse((r) => r.request().method() === 'GET' && /\/api\/live-sessions\/[^/]+\/chat$/.test(new URL(r.url()).pathname));
    await beto.goto(url);
    await read;
    // Ana writes while Beto is not in the room yet: the room's event does not reach him.
    const ana = await page(ANA);
    await ana.goto(url);
    await sayWhenAllowed(ana.getByTestId('chat-overlay'), 'Llegué tarde, ¿ya empezó?');
    letJoin();
    await lineWith(beto.getByTestId('chat-overlay'), 'Llegué tarde, ¿ya empezó?').waitFor();
    for (const p of [sp, beto, ana]) await p.context().close();
  });

  it('lets buyers talk and moderators keep it clean, on phones', async () => {
    const sp = await page(seller, { mobile: false });
    const { id, url, auctionId } = await startShow(sp, 'Juguetes antiguos', 'Tren de lámina');

    // Signed out: the chat reads, and writing asks to sign in first.
    const visitor = await page(null);
    await visitor.goto(url);
    const visitorChat = visitor.getByTestId('chat-overlay');
    await visitorChat.getByRole('button', { name: c.signIn }).waitFor();
    expect(await visitorChat.getByRole('textbox').count()).toBe(0);
    expect(await auditPage(visitor, 'chat: signed out')).toEqual([]);

    // Two buyers on phones see each other's lines.
    const ana = await page(ANA);
    const beto = await page(BETO);
    await ana.goto(url);
    await beto.goto(url);
    const anaChat = ana.getByTestId('chat-overlay');
    const betoChat = beto.getByTestId('chat-overlay');
    await sayWhenAllowed(anaChat, '¡Hola! ¿El tren tiene su caja?');
    await lineWith(betoChat, '¡Hola! ¿El tren tiene su caja?').waitFor();
    await lineWith(visitorChat, '¡Hola! ¿El tren tiene su caja?').waitFor();
    expect(await anaChat.getByRole('textbox', { name: c.inputLabel }).inputValue()).toBe('');
    await sayWhenAllowed(betoChat, 'Yo también lo quiero ver');
    await lineWith(anaChat, 'Yo también lo quiero ver').waitFor();
    // Each line carries its author's public name (first name and an initial), as the menus name them.
    const names = await publicNames(visitor, id);
    const anaName = names.get('¡Hola! ¿El tren tiene su caja?') ?? '';
    const betoName = names.get('Yo también lo quiero ver') ?? '';
    expect(anaName).toMatch(/^Ana [A-Z]\.$/);
    expect(betoName).toMatch(/^Beto [A-Z]\.$/);
    expect(await auditPage(ana, 'chat: overlay with lines')).toEqual([]);

    // HTML and links show as typed, as text: nothing is parsed, nothing is clickable.
    const html = '<b>negritas</b> <img src=x onerror="window.hacked=1"> https://estafa.example/premio';
    await sayWhenAllowed(anaChat, html);
    await eventually(() => lineWith(betoChat, 'negritas').innerText()).toBe(html);
    expect(await betoChat.locator('[data-testid="chat-line"] b, [data-testid="chat-line"] img, [data-testid="chat-line"] a').count()).toBe(0);
    expect(await beto.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();

    // The lines over the video open the whole chat; the button that does it is named for what it
    // does and has no text of its own that its name would leave out (axe's label-content-name-mismatch).
    expect(await nameMismatches(ana)).toEqual([]);
    // Tapping the lines opens the whole chat as a sheet.
    await anaChat.getByRole('button', { name: c.openFull }).click();
    const sheet = ana.getByRole('dialog', { name: c.sheetTitle });
    await lineWith(sheet, 'Yo también lo quiero ver').waitFor();
    expect(await auditPage(ana, 'chat: sheet')).toEqual([]);
    // 'Reportar' from the sheet: the report goes, and the dialog says so (a toast would hide behind the sheet).
    const reported = sheet.getByTestId('chat-line').filter({ hasText: 'Yo también lo quiero ver' });
    await reported.getByRole('button', { name: fill(c.actions.open, { name: betoName }) }).click();
    const reportMenu = ana.getByRole('dialog', { name: fill(c.actions.title, { name: betoName }) });
    await reportMenu.getByRole('button', { name: c.actions.report }).click();
    await reportMenu.getByRole('status').getByText(c.actions.reported).waitFor();
    expect(await auditPage(ana, 'chat: reported')).toEqual([]);
    await reportMenu.getByRole('button', { name: c.actions.reportedClose }).click();
    await reportMenu.waitFor({ state: 'detached' });
    await sheet.getByRole('button', { name: t.common.close }).click();
    await eventually(() => sheet.count()).toBe(0);

    // The seller, on a wide screen, moderates from the panel: a deleted line leaves every phone.
    await sp.goto(url);
    const board = sp.getByTestId('chat-board');
    const betoLine = board.getByTestId('chat-line').filter({ hasText: 'Yo también lo quiero ver' });
    await betoLine.getByRole('button', { name: fill(c.actions.open, { name: betoName }) }).click();
    const menu = sp.getByRole('dialog', { name: fill(c.actions.title, { name: betoName }) });
    expect(await auditPage(sp, 'chat: moderator menu')).toEqual([]);
    await menu.getByRole('button', { name: c.actions.delete }).click();
    for (const chat of [anaChat, betoChat, visitorChat, board]) await eventually(() => lineWith(chat, 'Yo también lo quiero ver').count()).toBe(0);

    // Slow mode: the composer says it, and a second line too soon is refused with the wait, kept in the field.
    await board.getByLabel(c.moderation.slowMode).selectOption('10');
    await anaChat.getByText(fill(c.slowMode, { seconds: '10' })).waitFor();
    await sayWhenAllowed(anaChat, 'Primera en modo lento');
    await lineWith(betoChat, 'Primera en modo lento').waitFor();
    // Her composer counts the 10 s down; past the 2-second pace and within slow mode's, she tries again.
    const countdown = anaChat.getByTestId('chat-standing');
    const waitPattern = new RegExp(c.wait.replace('{{seconds}}', '(\\d+)').replace('.', '\\.'));
    const secondsLeft = async () => Number(waitPattern.exec(await countdown.innerText())?.[1] ?? Number.NaN);
    await eventually(secondsLeft).toBeLessThanOrEqual(7);
    await say(anaChat, 'Segunda demasiado pronto');
    // Refused for speed: why (slow mode, its pace) and when she can write again, counting down.
    const slow = anaChat.getByTestId('chat-refusal');
    await eventually(() => slow.innerText()).toContain(fill(c.refusedSlowMode, { seconds: '10' }));
    expect(await slow.innerText()).toMatch(wording(c.wait));
    const refusedLeft = async () => Number(waitPattern.exec(await slow.innerText())?.[1] ?? Number.NaN);
    const first = await refusedLeft();
    await eventually(refusedLeft).toBeLessThan(first);
    expect(await anaChat.getByRole('textbox', { name: c.inputLabel }).inputValue()).toBe('Segunda demasiado pronto');
    expect(await lineWith(betoChat, 'Segunda demasiado pronto').count()).toBe(0);
    await board.getByLabel(c.moderation.slowMode).selectOption('0');
    await eventually(() => anaChat.getByText(fill(c.slowMode, { seconds: '10' })).count()).toBe(0);

    // The seller mutes Beto for 5 minutes: his composer says so, and a line is refused in the server's words.
    await sayWhenAllowed(betoChat, 'Oigan, ¿y el envío?');
    const betoAgain = board.getByTestId('chat-line').filter({ hasText: 'Oigan, ¿y el envío?' });
    await betoAgain.getByRole('button', { name: fill(c.actions.open, { name: betoName }) }).click();
    await sp.getByRole('dialog').getByRole('button', { name: c.actions.mute5 }).click();
    await betoChat
      .getByTestId('chat-standing')
      .filter({ hasText: c.mutedUntil.split('{{')[0] as string })
      .waitFor();
    expect(await auditPage(beto, 'chat: muted')).toEqual([]);
    await say(betoChat, '¿Por qué me silenciaron?');
    await eventually(() => betoChat.getByTestId('chat-refusal').innerText()).toMatch(wording(messages.chat.mutedUntil));
    expect(await betoChat.getByRole('textbox', { name: c.inputLabel }).inputValue()).toBe('¿Por qué me silenciaron?');
    expect(await lineWith(anaChat, '¿Por qué me silenciaron?').count()).toBe(0);

    // The seller blocks Ana from the shop's shows (asked once more): chat and bids are refused.
    const anaLine = board.getByTestId('chat-line').filter({ hasText: 'Primera en modo lento' });
    await anaLine.getByRole('button', { name: fill(c.actions.open, { name: anaName }) }).click();
    await sp.getByRole('dialog').getByRole('button', { name: c.actions.block }).click();
    const confirm = sp.getByRole('dialog', { name: fill(c.actions.blockTitle, { name: anaName }) });
    await confirm.getByRole('button', { name: c.actions.blockYes }).click();
    await eventually(() => confirm.count()).toBe(0);
    // Her chat box goes at once, without a reload, and the page says why.
    await anaChat.getByTestId('chat-blocked').getByText(c.blocked).waitFor();
    await eventually(() => anaChat.getByRole('textbox').count()).toBe(0);
    expect(await anaChat.getByRole('button', { name: c.send }).count()).toBe(0);
    // The server refuses her lines anyway.
    const refused = await ana.request.post(`${ctx.app.url}/api/live-sessions/${id}/chat`, { data: { text: '¿Sigo aquí?' }, headers: { origin: ctx.app.url } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error).toMatchObject({ code: 'BUYER_BLOCKED', message: messages.chat.blocked });
    // 'Pujar' goes too, and the page says she cannot bid; a bid is refused by the bid engine anyway, in its words.
    await ana.getByTestId('bid-state').getByText(t.unpaid.buyer.blockedTitle).waitFor();
    expect(await oneTapButton(ana).count()).toBe(0);
    const bid = await ana.request.post(`${ctx.app.url}/api/auctions/${auctionId}/bids`, { data: { amount: 400 }, headers: { origin: ctx.app.url } });
    expect(bid.status()).toBe(403);
    expect((await bid.json()).error).toMatchObject({ code: 'BUYER_BLOCKED', message: messages.bidding.blocked });
    expect(await auditPage(ana, 'chat: blocked')).toEqual([]);

    for (const p of [sp, visitor, ana, beto]) await p.context().close();
  });
});
