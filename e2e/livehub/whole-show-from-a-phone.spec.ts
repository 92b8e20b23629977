import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatPage } from '../../src/domain/chat.js';
import { livePath } from '../../src/domain/live-public.js';
import { formatMoney } from '../../src/domain/money.js';
import { type Actor, buildActor, buildCategory } from '../../test/support/actors.js';
import { buildCompany } from '../../test/support/factories.js';
import { pageAs, statValue } from '../support/after-show.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { closeSheet, oneTapButton, openSheet, tapToBid } from '../support/live-phone.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { embeddedProvider, launchVideoBrowser } from '../support/video.js';
import { eventually } from '../support/wait.js';
import { buildShow } from './hub-show.js';

/**
 * A whole show run from one 390x844 phone, never a desktop page, with Chromium's fake camera and
 * buyers on phones too. The seller opens her list of shows, loads tonight's with a tap and goes on
 * the air; 'Avance automático' is on. On the first lot a buyer bids and a troll chats and takes
 * the lead with a maximum: she blocks him from his line in the chat sheet, told first that his
 * bids go, and the price falls back to the buyer's bid on every phone (his own loses the chat box
 * and the bid button, without an 'outbid'). The lot sells, the countdown shows and the next lot
 * opens by itself; nobody bids on it, so she runs it again from the lots sheet and it sells. A quick lot made from 'Más' goes on the block and sells. She ends
 * the show after its question, and the phone opens its 'Resumen del show' and 'Cobrar el show':
 * shipping, the bills, their links and the buyer's WhatsApp, with no live controls and the camera off.
 */
const h = t.livehub;
const p = t.livehub.phone;
const c = t.live.chat;
const s = t.showBilling;

const COMPANY = 'guitarras-lupe';
const SELLER = { email: 'lupe.guitarras@ejemplo.mx', name: 'Lupe Guitarras' };
const ANA = { email: 'ana.paracho@ejemplo.mx', name: 'Ana Paracho', whatsapp: '+523315550001' };
const TITO = { email: 'tito.trolea@ejemplo.mx', name: 'Tito Trolea', whatsapp: '+523315550002' };
const TITLE = 'Guitarras de Paracho en vivo';
const [FIRST, SECOND] = ['Guitarra de Paracho', 'Requinto de cedro'] as const;
const QUICK = { name: 'Jarana jarocha', price: 250 };
const START = 400;
/** Each lot runs 10 s on its own clock, without anti-snipe; the next opens 5 s after a close. */
const BIDDING = { minIncrement: 20, antiSnipeSeconds: 0, timerSecondsDefault: 10, autoAdvanceSeconds: 5 };

let app: E2eApp;
let browser: Browser;
let seller: E2eUser;
let ana: Actor;
let tito: Actor;
let categoryId = '';
const opened: Page[] = [];

beforeAll(async () => {
  app = await startE2eApp(await embeddedProvider.env());
  browser = await launchVideoBrowser();
  await buildCompany(app.ctx.db, { id: COMPANY, name: 'Guitarras Lupe' });
  seller = await prepareUser(app, { ...SELLER, roles: ['seller'], companyId: COMPANY, companyName: 'Guitarras Lupe' });
  ana = await buildActor(app, { ...ANA, roles: ['buyer'], completeProfile: true });
  tito = await buildActor(app, { ...TITO, roles: ['buyer'], completeProfile: true });
  categoryId = await buildCategory(app, 'Instrumentos');
});
afterAll(async () => {
  for (const page of opened) await page.context().close();
  await browser?.close();
  await app?.close();
});

/** A buyer's phone, signed in. */
async function phone(actor: Actor): Promise<Page> {
  const page = await pageAs(browser, app, actor, { mobile: true });
  opened.push(page);
  return page;
}

/** The seller's phone, signed in, counting the camera streams it opens (the ended show must leave them all stopped). */
async function sellerPhone(): Promise<Page> {
  const page = await newPage(browser, { mobile: true });
  opened.push(page);
  await page.addInitScript(() => {
    const media = navigator.mediaDevices;
    if (!media) return;
    const ask = media.getUserMedia.bind(media);
    const streams: MediaStream[] = [];
    (window as unknown as { cameraStreams: MediaStream[] }).cameraStreams = streams;
    media.getUserMedia = async (constraints) => {
      const stream = await ask(constraints);
      streams.push(stream);
      return stream;
    };
  });
  await signInPage(page, app, seller);
  return page;
}

/** The camera streams the page asked for, and how many of their tracks still run. */
const camera = (page: Page) =>
  page.evaluate(() => {
    const streams = (window as unknown as { cameraStreams: MediaStream[] }).cameraStreams;
    return { asked: streams.length, running: streams.flatMap((st) => st.getTracks()).filter((tr) => tr.readyState === 'live').length };
  });

async function expectAccessible(page: Page, screen: string) {
  const findings = await auditPage(page, screen);
  expect(findings, formatFindings(findings)).toEqual([]);
}

/** A catalogue message with its one number placeholder, as a pattern. */
const withNumber = (message: string, placeholder: string) => new RegExp(message.replace(`{{${placeholder}}}`, '\\d+').replace(/[?().]/g, '\\$&'));

describe('a whole show from one phone', () => {
  it('runs it from the list of shows to the bills: auto-advance, a block of the leader, a re-run, a quick lot, the end', { timeout: 300_000 }, async () => {
    const hub = await sellerPhone();
    // Seeded as the seller's own page would: the show and its two lots, then its bidding rules.
    const show = await buildShow(hub, app, { title: TITLE, lots: [FIRST, SECOND], categoryId, startingPrice: START });
    await show.api.put(`/api/live-sessions/${show.id}`, { biddingConfig: BIDDING });
    const liveUrl = `${app.url}${livePath(show.detail.session)}`;

    // 1. Her list of shows; one tap loads tonight's; 'Iniciar' puts her on the air.
    await hub.goto(`${app.url}/admin/livehub`);
    await hub.getByRole('heading', { name: h.phoneShows.title, level: 2 }).waitFor();
    const showCard = hub.locator(`li[data-session-id="${show.id}"]`).getByTestId('show-card');
    await showCard.getByText(TITLE).waitFor();
    await expectAccessible(hub, 'phone list of shows');
    await showCard.click();
    const stage = hub.getByTestId('phone-hub');
    await stage.waitFor();
    expect(await stage.getAttribute('data-session-id')).toBe(show.id);
    await hub.getByTestId('player-badge').getByText(h.broadcast.previewBadge).waitFor({ timeout: 20_000 });
    await hub.getByRole('button', { name: h.broadcast.start, exact: true }).click();
    await hub.getByTestId('player-badge').getByText(h.broadcast.liveBadge).waitFor({ timeout: 20_000 });
    await eventually(async () => (await show.api.session(show.id)).session.broadcasting).toBe(true);

    // The buyers come in on their phones; the troll says something in the chat.
    const anaPhone = await phone(ana);
    const titoPhone = await phone(tito);
    await anaPhone.goto(liveUrl);
    await titoPhone.goto(liveUrl);
    const trollLine = '¡Esa guitarra ya es mía, ni lo intenten!';
    const overlay = titoPhone.getByTestId('chat-overlay');
    const composer = overlay.getByRole('textbox', { name: c.inputLabel });
    await composer.fill(trollLine);
    await overlay.getByRole('button', { name: c.send }).click();
    await eventually(() => composer.inputValue()).toBe('');

    // 2. 'Siguiente lote' opens the first lot on its 10 s; she gives it 30 s while the buyers bid.
    const card = hub.getByTestId('phone-lot-card');
    const thirty = hub.getByRole('button', { name: fill(h.timer.set, { seconds: '30' }) });
    await hub.getByRole('button', { name: p.next }).click();
    await card.getByText(FIRST).waitFor();
    await thirty.click();
    await eventually(() => card.getByTestId('current-lot-countdown').innerText()).toMatch(/^Quedan 00:[23]\d$/);

    // Ana bids the starting price; the troll takes the lead with a maximum, from his phone's sheet.
    await anaPhone.getByTestId('current-lot-name').getByText(FIRST).waitFor();
    await tapToBid(anaPhone, START, { firstInShow: true });
    await eventually(() => anaPhone.getByTestId('lot-leader').innerText()).toContain(t.live.phone.leaderYou);
    await titoPhone.getByTestId('current-lot-name').getByText(FIRST).waitFor();
    const bidSheet = await openSheet(titoPhone);
    await bidSheet.getByRole('textbox', { name: t.bidding.form.amount, exact: true }).fill(String(START + 20));
    await bidSheet.getByRole('switch', { name: t.bidding.form.autoToggle }).check({ force: true });
    await bidSheet.getByRole('textbox', { name: t.bidding.form.maxAmount }).fill('2000');
    await bidSheet.getByRole('button', { name: t.bidding.form.submit, exact: true }).click();
    const review = titoPhone.getByRole('dialog', { name: t.bidding.confirm.title });
    await review.getByRole('button', { name: t.bidding.confirm.submit }).click();
    await review.waitFor({ state: 'detached' });
    await closeSheet(titoPhone);
    await eventually(() => anaPhone.getByTestId('current-price').innerText()).toBe(formatMoney(START + 20));
    await eventually(() => card.getByTestId('current-lot-price').innerText()).toBe(formatMoney(START + 20));

    // She gives the lot 30 s again, opens the chat on her phone and blocks him from his line: the question says his bids go.
    await thirty.click();
    await eventually(() => card.getByTestId('current-lot-countdown').innerText()).toMatch(/^Quedan 00:[23]\d$/);
    await hub.getByRole('button', { name: p.chat, exact: true }).click();
    const chatSheet = hub.getByRole('dialog', { name: p.chatTitle });
    const chat = (await (await hub.request.get(`${app.url}/api/live-sessions/${show.id}/chat`)).json()) as ChatPage;
    const trollName = chat.items.find((line) => line.text === trollLine)?.authorName ?? '';
    expect(trollName).not.toBe('');
    const line = chatSheet.getByTestId('chat-line').filter({ hasText: trollLine });
    await line.getByRole('button', { name: fill(c.actions.open, { name: trollName }) }).click();
    await hub
      .getByRole('dialog', { name: fill(c.actions.title, { name: trollName }) })
      .getByRole('button', { name: c.actions.block })
      .click();
    const confirm = hub.getByRole('dialog', { name: fill(c.actions.blockTitle, { name: trollName }) });
    await confirm.getByText(c.actions.blockConfirm).waitFor();
    await expectAccessible(hub, 'phone hub, block question');
    await confirm.getByRole('button', { name: c.actions.blockYes }).click();
    await confirm.waitFor({ state: 'detached' });
    const withdrawn = fill(c.actions.blockWithdrawn_one, { lots: fill(c.actions.blockLotPrice, { name: FIRST, price: formatMoney(START) }) });
    await chatSheet
      .getByTestId('chat-action-notice')
      .getByText(`${fill(c.actions.blockedDone, { name: trollName })} ${withdrawn}`)
      .waitFor();
    await chatSheet.getByRole('button', { name: t.common.close }).first().click();
    await chatSheet.waitFor({ state: 'detached' });

    // The price falls back to Ana's bid, and she leads, on her phone and on the seller's.
    await eventually(() => card.getByTestId('current-lot-price').innerText()).toBe(formatMoney(START));
    await eventually(() => anaPhone.getByTestId('current-price').innerText()).toBe(formatMoney(START));
    await eventually(() => anaPhone.getByTestId('lot-leader').innerText()).toContain(t.live.phone.leaderYou);
    // The troll loses the chat box and the bid button, here and in the sheet, and is not told he was outbid.
    await titoPhone.getByTestId('chat-blocked').getByText(c.blocked).waitFor();
    await titoPhone.getByTestId('bid-state').getByText(t.unpaid.buyer.blockedTitle).waitFor();
    expect(await oneTapButton(titoPhone).count()).toBe(0);
    expect(
      await titoPhone
        .getByTestId('phone-notice')
        .filter({ hasText: fill(t.live.phone.notice.outbid, { price: formatMoney(START) }) })
        .count(),
    ).toBe(0);
    const blockedSheet = await openSheet(titoPhone);
    await blockedSheet.getByTestId('unpaid-blocked').getByText(t.unpaid.buyer.blockedByModerator).waitFor();
    expect(await blockedSheet.getByTestId('bid-form').count()).toBe(0);
    await closeSheet(titoPhone);

    // 3. It sells to Ana; the auto-advance countdown shows, and the next lot opens by itself.
    await card.getByTestId('phone-lot-phase').getByText(h.lots.phase.sold).waitFor({ timeout: 45_000 });
    expect(await card.getByTestId('current-lot-price').innerText()).toBe(formatMoney(START));
    await eventually(() => hub.getByTestId('auto-advance-stage').innerText()).toMatch(withNumber(h.flow.autoCountdown, 'seconds'));
    await card.getByText(SECOND).waitFor({ timeout: 20_000 });
    await expectAccessible(hub, 'phone hub, a lot on the block');

    // 4. Nobody bids: it closes unsold, and she runs it again from the lots sheet.
    await card.getByTestId('phone-lot-phase').getByText(h.lots.phase.unsold).waitFor({ timeout: 30_000 });
    await hub.getByRole('button', { name: p.lots, exact: true }).click();
    const lotsSheet = hub.getByRole('dialog', { name: p.lotsTitle });
    await lotsSheet.getByRole('button', { name: fill(h.flow.requeueLabel, { name: SECOND }) }).click();
    await lotsSheet.getByText(fill(h.flow.requeued, { name: SECOND })).waitFor();
    await expectAccessible(hub, 'phone hub, lots sheet');
    await lotsSheet.getByRole('button', { name: t.common.close }).click();
    await lotsSheet.waitFor({ state: 'detached' });
    await hub.getByRole('button', { name: p.next }).click();
    await eventually(() => card.getByTestId('phone-lot-phase').innerText()).toBe(h.lots.current);
    await card.getByText(SECOND).waitFor();
    await anaPhone.getByTestId('current-lot-name').getByText(SECOND).waitFor();
    await tapToBid(anaPhone, START);
    await card.getByTestId('phone-lot-phase').getByText(h.lots.phase.sold).waitFor({ timeout: 30_000 });

    // 5. A quick lot from 'Más': the window closes on 'Crear subasta' and the lot goes on the block.
    await hub.getByRole('button', { name: p.more, exact: true }).click();
    await hub.getByRole('dialog', { name: p.moreTitle }).getByRole('button', { name: h.lots.quick }).click();
    const quick = hub.getByRole('dialog', { name: h.quick.title });
    await quick.getByRole('textbox', { name: h.quick.name }).fill(QUICK.name);
    await quick.getByRole('textbox', { name: h.quick.price }).fill(String(QUICK.price));
    await quick.getByText(fill(h.quick.timerSeconds, { seconds: '15' }), { exact: true }).click();
    await expectAccessible(hub, 'phone hub, quick auction');
    await quick.getByRole('button', { name: h.quick.submit }).click();
    await quick.waitFor({ state: 'detached' });
    await card.getByText(QUICK.name).waitFor();
    await anaPhone.getByTestId('current-lot-name').getByText(QUICK.name).waitFor();
    await tapToBid(anaPhone, QUICK.price);
    await card.getByTestId('phone-lot-phase').getByText(h.lots.phase.sold).waitFor({ timeout: 30_000 });

    // 6. 'Terminar el show', after its question: the phone opens the show's summary, with no live controls and the camera off.
    await hub.getByRole('button', { name: p.more, exact: true }).click();
    await hub.getByRole('dialog', { name: p.moreTitle }).getByRole('button', { name: p.endShow }).click();
    const end = hub.getByRole('dialog', { name: p.endTitle });
    await end.getByText(p.endTextLive).waitFor();
    await end.getByRole('button', { name: p.endConfirm }).click();
    const afterShow = hub.getByTestId('phone-after-show');
    await afterShow.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
    expect((await show.api.session(show.id)).session.status).toBe('ended');
    await eventually(() => anaPhone.getByTestId('live-session').getAttribute('data-state')).toBe('ended');

    const summary = hub.getByRole('tabpanel', { name: h.afterShow.summaryTab });
    const gross = START + START + QUICK.price;
    await eventually(() => statValue(summary, t.showSummary.stats.lotsSold).textContent()).toBe('3');
    expect(await statValue(summary, t.showSummary.stats.grossSold).textContent()).toBe(formatMoney(gross));
    expect(await statValue(summary, t.showSummary.stats.lotsUnsold).textContent()).toBe('0');
    expect(await statValue(summary, t.showSummary.stats.buyers).textContent()).toBe('1');
    for (const testId of ['phone-hub', 'phone-controls', 'hub-video', 'player-badge']) expect(await hub.getByTestId(testId).count(), testId).toBe(0);
    expect(await hub.getByRole('button', { name: h.broadcast.start, exact: true }).count()).toBe(0);
    const cameraAtEnd = await camera(hub);
    expect(cameraAtEnd.asked).toBeGreaterThan(0);
    await eventually(async () => (await camera(hub)).running).toBe(0);
    await expectAccessible(hub, 'ended show on a phone, summary');

    // 'Cobrar el show': a shipping rule, the bills, their links, and Ana's WhatsApp message; the troll is billed nothing.
    await hub.getByRole('tab', { name: h.afterShow.billTab }).click();
    const bill = hub.getByRole('tabpanel', { name: h.afterShow.billTab });
    await bill.getByText(s.shipping.notSet).waitFor();
    const preview = bill.getByRole('list', { name: s.preview.title });
    await preview.getByText(ANA.name).waitFor();
    expect(await preview.getByRole('listitem').count()).toBe(1);
    await bill.getByRole('textbox', { name: s.shipping.flatFee }).fill('150');
    await bill.getByRole('button', { name: s.shipping.save }).click();
    await bill.getByText(s.shipping.saved).waitFor();
    await eventually(() => bill.getByTestId('to-collect').innerText()).toBe(fill(s.preview.toCollect, { amount: formatMoney(gross + 150) }));
    await bill.getByRole('button', { name: s.bill, exact: true }).click();
    await bill.getByText(fill(s.billed, { count: '1' })).waitFor();
    await bill.getByRole('button', { name: s.bills.makeLinks }).click();
    await bill.getByText(fill(s.bills.linksDone, { ok: '1', total: '1' })).waitFor();
    const bills = bill.getByRole('list', { name: s.bills.title });
    const anaBill = bills.getByRole('listitem').filter({ hasText: ANA.name });
    const href = (await anaBill.getByRole('link', { name: s.bills.whatsapp }).getAttribute('href')) ?? '';
    expect(href.startsWith(`https://wa.me/${ANA.whatsapp.slice(1)}?text=`)).toBe(true);
    const message = decodeURIComponent(href.split('text=')[1] ?? '');
    for (const name of [FIRST, SECOND, QUICK.name]) expect(message).toContain(name);
    expect(message).toContain('/pay/');
    expect(await bills.getByRole('listitem').count()).toBe(1);
    await expectAccessible(hub, "ended show on a phone, 'Cobrar el show'");
    // Still no camera: the after-show screen asks for none.
    expect(await camera(hub)).toEqual({ asked: cameraAtEnd.asked, running: 0 });
  });
});
