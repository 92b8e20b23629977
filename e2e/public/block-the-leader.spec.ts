import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatPage } from '../../src/domain/chat.js';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { formatMoney } from '../../src/domain/money.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { auditPage } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { tapToBid } from '../support/live-phone.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * Blocking the buyer who leads, from the live page's chat menu: the confirmation says their bids on
 * open lots will be withdrawn and the price will fall back; once blocked, the seller reads which lot
 * fell back and to what price, and the other buyer's phone shows the lower price with them leading.
 */
const ctx = setupAppAndBrowser();
const c = t.live.chat;

const SELLER = { email: 'rita.vende@ejemplo.mx', name: 'Rita Vende' };
const TROLL = { email: 'tito.trol@ejemplo.mx', name: 'Tito Trol' };
const BUYER = { email: 'bea.compra@ejemplo.mx', name: 'Bea Compra' };

let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'tienda-rita', companyName: 'Tienda Rita' });
  await prepareUser(ctx.app, { ...TROLL, roles: ['buyer'] });
  await prepareUser(ctx.app, { ...BUYER, roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Relojes');
});

async function page(user: Pick<E2eUser, 'email' | 'name'>, opts: { mobile: boolean }): Promise<Page> {
  const p = await newPage(ctx.browser, opts);
  await signInPage(p, ctx.app, user);
  return p;
}

async function call<T>(p: Page, method: 'post' | 'put', path: string, data?: unknown): Promise<T> {
  const res = await p.request[method](`${ctx.app.url}${path}`, { data, headers: { origin: ctx.app.url } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as T;
}

/** Writes a line from the phone's overlay composer and waits until it is sent. */
async function say(overlay: Locator, text: string): Promise<void> {
  const input = overlay.getByRole('textbox', { name: c.inputLabel });
  await input.fill(text);
  await overlay.getByRole('button', { name: c.send }).click();
  await eventually(() => input.inputValue()).toBe('');
}

describe('blocking the leader from the live page', () => {
  it('warns that their bids go, withdraws them, and every phone sees the price fall back', async () => {
    const sp = await page(seller, { mobile: false });
    const created = await call<LiveSessionDetail>(sp, 'post', '/api/live-sessions', {
      title: 'Relojes de bolsillo',
      scheduledAt: Date.now() + 3_600_000,
      sellerSlug: 'Tienda Rita',
    });
    const id = created.session.id;
    const auction = await createAuctionAs(sp, ctx.app, { name: 'Reloj de bolsillo', categoryId, startingPrice: 400, status: 'pending' });
    const withLot = await call<LiveSessionDetail>(sp, 'post', `/api/live-sessions/${id}/lots`, { auctionId: auction.id });
    await call(sp, 'put', `/api/live-sessions/${id}`, { status: 'live' });
    await call(sp, 'post', `/api/live-sessions/${id}/current`, { lotId: withLot.lots[0]?.id });
    await call(sp, 'post', `/api/live-sessions/${id}/timer`, { seconds: 600 });
    const url = `${ctx.app.url}/live/${id}`;

    // Bea bids 400 on her phone; the troll writes in the chat and takes the lead with 420.
    const bea = await page(BUYER, { mobile: true });
    const troll = await page(TROLL, { mobile: true });
    await bea.goto(url);
    await troll.goto(url);
    await tapToBid(bea, 400, { firstInShow: true });
    await eventually(() => bea.getByTestId('lot-leader').innerText()).toContain(t.live.phone.leaderYou);
    await say(troll.getByTestId('chat-overlay'), '¡Este reloj es mío!');
    await tapToBid(troll, 420, { firstInShow: true });
    await eventually(() => bea.getByTestId('current-price').innerText()).toBe(formatMoney(420));
    await eventually(() => bea.getByTestId('lot-leader').innerText()).not.toContain(t.live.phone.leaderYou);

    // The seller, on the live page, blocks him from his line's menu: she is told first what happens to his bids.
    await sp.goto(url);
    const board = sp.getByTestId('chat-board');
    const chat = await (await sp.request.get(`${ctx.app.url}/api/live-sessions/${id}/chat`)).json();
    const trollName = (chat as ChatPage).items.find((l) => l.text === '¡Este reloj es mío!')?.authorName ?? '';
    const line = board.getByTestId('chat-line').filter({ hasText: '¡Este reloj es mío!' });
    await line.getByRole('button', { name: fill(c.actions.open, { name: trollName }) }).click();
    await sp.getByRole('dialog').getByRole('button', { name: c.actions.block }).click();
    const confirm = sp.getByRole('dialog', { name: fill(c.actions.blockTitle, { name: trollName }) });
    await confirm.getByText(c.actions.blockConfirm).waitFor();
    expect(await auditPage(sp, 'block: confirmation')).toEqual([]);
    await confirm.getByRole('button', { name: c.actions.blockYes }).click();
    await eventually(() => confirm.count()).toBe(0);

    // She reads what the block did: the lot and the price it fell back to.
    const withdrawn = fill(c.actions.blockWithdrawn_one, { lots: fill(c.actions.blockLotPrice, { name: 'Reloj de bolsillo', price: formatMoney(400) }) });
    await sp.getByText(`${fill(c.actions.blockedDone, { name: trollName })} ${withdrawn}`).waitFor();

    // Bea's phone: the price is back at her 400 and she leads, without reloading; the troll's line is gone from the history.
    await eventually(() => bea.getByTestId('current-price').innerText()).toBe(formatMoney(400));
    await eventually(() => bea.getByTestId('lot-leader').innerText()).toContain(t.live.phone.leaderYou);
    await troll.getByTestId('chat-blocked').getByText(c.blocked).waitFor();

    for (const p of [sp, bea, troll]) await p.context().close();
  });
});
