import type { Page, Request, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BidHistory } from '../../src/domain/bidding.js';
import { DEFAULT_BIDDING_CONFIG } from '../../src/domain/live.js';
import { formatMoney, MAX_PRICE } from '../../src/domain/money.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

/**
 * Typing a bid on the buyer's side: the bid form keeps what was typed and says what is
 * wrong with it, a bid far above the price gets a second look in words, and a bid never goes out
 * late on its own when the network is gone or slow.
 */
const ctx = setupAppAndBrowser();
const b = t.bidding;

const SELLER = { email: 'vendedora.montos@ejemplo.mx', name: 'Vera Montos' };
const ANA = { email: 'ana.montos@ejemplo.mx', name: 'Ana Montos' };

let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'tienda-montos', companyName: 'Tienda Montos' });
  await prepareUser(ctx.app, { ...ANA, roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Cámaras');
});

async function newAuction(name: string, startingPrice: number) {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, seller);
  const auction = await createAuctionAs(page, ctx.app, { name, categoryId, startingPrice });
  await page.context().close();
  return auction;
}

/** Ana on the auction's page, with the live history loaded. */
async function openAsAna(auctionId: string, opts: { mobile?: boolean } = {}): Promise<Page> {
  const page = await newPage(ctx.browser, opts);
  await signInPage(page, ctx.app, ANA);
  const history = page.waitForResponse((res) => res.url().includes(`/api/auctions/${auctionId}/bids`) && res.ok());
  await page.goto(`${ctx.app.url}/auctions/${auctionId}`);
  await history;
  await page.getByTestId('current-price').waitFor();
  return page;
}

/** The bids the server holds, asked from outside the browser. */
async function serverBids(auctionId: string): Promise<BidHistory> {
  const res = await fetch(`${ctx.app.url}/api/auctions/${auctionId}/bids`);
  expect(res.status).toBe(200);
  return (await res.json()) as BidHistory;
}

/** Every POST of a bid the page sends. */
function bidPosts(page: Page): Request[] {
  const posts: Request[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith('/bids')) posts.push(req);
  });
  return posts;
}

const amountBox = (page: Page) => page.getByRole('textbox', { name: b.form.amount, exact: true });
const maxBox = (page: Page) => page.getByRole('textbox', { name: b.form.maxAmount });
const pujar = (page: Page) => page.getByRole('button', { name: b.form.submit, exact: true }).click();
const review = (page: Page) => page.getByRole('dialog', { name: b.confirm.title });
const turnOnMaximum = (page: Page) => page.getByRole('switch', { name: b.form.autoToggle }).check({ force: true });

describe('the bid form keeps what the bidder typed', () => {
  it('$700 under a $1,800 minimum: says the minimum and keeps $700', async () => {
    const auction = await newAuction('Cámara Canon AE-1', 1800);
    const page = await openAsAna(auction.id);
    const posts = bidPosts(page);
    await amountBox(page).fill('700');
    await amountBox(page).blur();
    expect(await amountBox(page).inputValue()).toBe('$700');
    await pujar(page);
    await page.getByText(fill(b.errors.belowMinimum, { amount: formatMoney(1800) })).waitFor();
    expect(await amountBox(page).inputValue()).toBe('$700');
    expect(await review(page).count()).toBe(0);
    expect(posts).toHaveLength(0);
    await page.context().close();
  });

  it('typed key by key: formatted as it comes, the caret where the bidder left it, a minus sign kept and refused', async () => {
    const auction = await newAuction('Cámara Yashica Mat', 1800);
    const page = await openAsAna(auction.id, { mobile: true });
    const box = amountBox(page);
    const withCaret = () => box.evaluate((el: HTMLInputElement) => `${el.value.slice(0, el.selectionStart ?? 0)}|${el.value.slice(el.selectionStart ?? 0)}`);
    await box.fill('');
    await page.keyboard.type('1234567');
    expect(await withCaret()).toBe('$1,234,567|');
    // A digit typed mid-number, across the commas it moves.
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('8');
    expect(await withCaret()).toBe('$12,348|,567');
    // ArrowUp steps by the increment from what is there; ArrowDown stops at the minimum.
    await box.fill('1800');
    await page.keyboard.press('ArrowUp');
    expect(await box.inputValue()).toBe(`$${(1800 + DEFAULT_BIDDING_CONFIG.minIncrement).toLocaleString('en-US')}`);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await box.inputValue()).toBe('$1,800');
    await box.fill('-120');
    expect(await box.inputValue()).toBe('-$120');
    await pujar(page);
    await page.getByText(b.errors.bidPositive).waitFor();
    expect(await box.inputValue()).toBe('-$120');
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await review(page).count()).toBe(0);
    await page.context().close();
  });

  it('a maximum of 99,999,999,999: says the top amount and keeps the digits', async () => {
    const auction = await newAuction('Cámara Nikon FM2', 1800);
    const page = await openAsAna(auction.id, { mobile: true });
    await turnOnMaximum(page);
    await maxBox(page).fill('99999999999');
    await maxBox(page).blur();
    await pujar(page);
    await page.getByText(fill(b.errors.bidTooHigh, { limit: formatMoney(MAX_PRICE) })).waitFor();
    expect(await maxBox(page).inputValue()).toBe('$99,999,999,999');
    expect(await review(page).count()).toBe(0);
    await page.context().close();
  });

  it('a maximum below the bid: says so and keeps both', async () => {
    const auction = await newAuction('Cámara Pentax K1000', 1800);
    const page = await openAsAna(auction.id);
    await amountBox(page).fill('2000');
    await turnOnMaximum(page);
    await maxBox(page).fill('1900');
    await maxBox(page).blur();
    await pujar(page);
    await page.getByText(b.errors.maxBelowAmount).waitFor();
    expect(await amountBox(page).inputValue()).toBe('$2,000');
    expect(await maxBox(page).inputValue()).toBe('$1,900');
    expect(await review(page).count()).toBe(0);
    await page.context().close();
  });

  it('ten times the price asks once more, in words, before anything is sent', async () => {
    const auction = await newAuction('Cámara Olympus OM-1', 1000);
    const page = await openAsAna(auction.id);
    const posts = bidPosts(page);
    const check = page.getByTestId('large-bid-check');
    // No bid yet: measured against the starting price, and called that.
    const reference = fill(b.check.startingPrice, { price: formatMoney(1000) });
    const expected = fill(b.check.amount, { words: 'diez mil pesos', amount: formatMoney(10_000), times: '10', reference });

    await amountBox(page).fill('10000');
    await pujar(page);
    await review(page).getByRole('button', { name: b.confirm.submit }).click();
    await check.getByText(expected).waitFor();
    expect(posts).toHaveLength(0);
    // 'Corregir' goes back to the form with the amount as typed; nothing was sent.
    await review(page).getByRole('button', { name: b.check.fix }).click();
    await review(page).waitFor({ state: 'hidden' });
    expect(await amountBox(page).inputValue()).toBe('$10,000');
    expect(posts).toHaveLength(0);

    await pujar(page);
    await review(page).getByRole('button', { name: b.confirm.submit }).click();
    await check.getByText(expected).waitFor();
    const answered = page.waitForResponse((res) => res.url().endsWith('/bids') && res.request().method() === 'POST');
    await review(page).getByRole('button', { name: b.check.confirm }).click();
    expect((await answered).status()).toBe(201);
    await page.getByText(b.leader.leading).waitFor();
    expect((await serverBids(auction.id)).items.map((bid) => bid.amount)).toEqual([10_000]);
    await page.context().close();
  });

  it('a bid under ten times the price goes straight from the review', async () => {
    const auction = await newAuction('Cámara Minolta X-700', 1000);
    const page = await openAsAna(auction.id);
    await amountBox(page).fill('9999');
    await pujar(page);
    const answered = page.waitForResponse((res) => res.url().endsWith('/bids') && res.request().method() === 'POST');
    await review(page).getByRole('button', { name: b.confirm.submit }).click();
    expect((await answered).status()).toBe(201);
    expect(await page.getByTestId('large-bid-check').count()).toBe(0);
    await page.context().close();
  });
});

describe('offline and slow networks', () => {
  it('offline: says “Sin conexión”, refuses the bid at once, and sends nothing when the network is back', async () => {
    const auction = await newAuction('Cámara Leica M6', 1800);
    const page = await newPage(ctx.browser, { mobile: true });
    await signInPage(page, ctx.app, ANA);
    // A signed-in buyer's page fetches the review's code once it is up: the network goes after that.
    const reviewCode = page.waitForResponse((res) => /\/assets\/review-modal-[\w-]+\.js$/.test(res.url()) && res.ok());
    await page.goto(`${ctx.app.url}/auctions/${auction.id}`);
    await page.getByTestId('current-price').waitFor();
    await reviewCode;
    const posts = bidPosts(page);

    await page.context().setOffline(true);
    const offline = page.getByTestId('offline');
    await offline.getByText(b.offline.title, { exact: true }).waitFor();

    await pujar(page);
    const dialog = review(page);
    await dialog.getByRole('button', { name: b.confirm.submit }).click();
    await dialog.getByTestId('send-failure').getByText(b.result.offline).waitFor();
    // Nothing in flight: 'Cancelar' works, and the form still holds the amount.
    await dialog.getByRole('button', { name: b.confirm.cancel }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await amountBox(page).inputValue()).toBe('$1,800');

    await page.context().setOffline(false);
    await offline.waitFor({ state: 'detached' });
    // A bid the bidder does place now is the only one the server ever gets.
    await amountBox(page).fill('1900');
    await pujar(page);
    const answered = page.waitForResponse((res) => res.url().endsWith('/bids') && res.request().method() === 'POST');
    await review(page).getByRole('button', { name: b.confirm.submit }).click();
    expect((await answered).status()).toBe(201);
    await page.getByText(b.leader.leading).waitFor();
    expect((await serverBids(auction.id)).items.map((bid) => bid.amount)).toEqual([1900]);
    expect(posts).toHaveLength(1);
    await page.context().close();
  });

  it("the review's code does not arrive: says so, sends nothing, and 'Reintentar' opens the review", async () => {
    const auction = await newAuction('Cámara Rolleiflex', 1800);
    const page = await newPage(ctx.browser, { mobile: true });
    await signInPage(page, ctx.app, ANA);
    // The review dialog's chunk fails, as it would with the network gone or after a new deploy.
    const chunk = '**/assets/review-modal-*.js';
    await page.route(chunk, (route) => route.abort('internetdisconnected'));
    const posts = bidPosts(page);
    await page.goto(`${ctx.app.url}/auctions/${auction.id}`);
    await page.getByTestId('current-price').waitFor();

    await pujar(page);
    const failed = page.getByRole('alert').filter({ hasText: b.dialogLoadFailed });
    await failed.waitFor();
    // The page is still there, with what was typed.
    expect(await amountBox(page).inputValue()).toBe('$1,800');
    expect(posts).toHaveLength(0);

    await page.unroute(chunk);
    await failed.getByRole('button', { name: t.common.retry }).click();
    await review(page).waitFor();
    const answered = page.waitForResponse((res) => res.url().endsWith('/bids') && res.request().method() === 'POST');
    await review(page).getByRole('button', { name: b.confirm.submit }).click();
    expect((await answered).status()).toBe(201);
    expect(posts).toHaveLength(1);
    await page.context().close();
  });

  it('no answer within the limit: says it could not confirm, shows what the server holds, and a retry places it once', async () => {
    const auction = await newAuction('Cámara Hasselblad 500C', 1800);
    const page = await openAsAna(auction.id);
    // The server gets the bid, but its answer is held back until the page has given up on it.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = 0;
    await page.route(
      (url) => url.pathname === `/api/auctions/${auction.id}/bids`,
      async (route: Route) => {
        if (route.request().method() !== 'POST' || held > 0) return route.fallback();
        held += 1;
        const response = await route.fetch();
        await released;
        await route.fulfill({ response }).catch(() => {});
      },
    );

    await pujar(page);
    const dialog = review(page);
    await dialog.getByRole('button', { name: b.confirm.submit }).click();
    const failure = dialog.getByTestId('send-failure');
    await failure.getByText(b.result.uncertain).waitFor({ timeout: 30_000 });
    release();
    // Honest: the bid did arrive, and the refreshed panel shows it behind the dialog.
    expect((await serverBids(auction.id)).items.map((bid) => bid.amount)).toEqual([1800]);
    await page.getByText(b.leader.leading).waitFor();
    expect(await dialog.getByRole('button', { name: b.confirm.cancel }).isEnabled()).toBe(true);

    // 'Reintentar' resends under the same key: the server answers with the bid it has, not a second one.
    const answered = page.waitForResponse((res) => res.url().endsWith('/bids') && res.request().method() === 'POST');
    await dialog.getByRole('button', { name: b.confirm.retry }).click();
    // 200: a replay of the recorded answer (a new bid would be 201).
    expect((await answered).status()).toBe(200);
    await dialog.waitFor({ state: 'hidden' });
    const bids = await serverBids(auction.id);
    expect(bids.items.map((bid) => bid.amount)).toEqual([1800]);
    expect(bids.state.bidCount).toBe(1);
    await page.context().close();
  });
});

describe("the review is the browser's own modal dialog", () => {
  it('Escape and a tap outside close it and give focus back; while it sends, neither does', async () => {
    const auction = await newAuction('Cámara Zeiss Ikon', 1800);
    const page = await openAsAna(auction.id, { mobile: true });
    const submit = page.getByRole('button', { name: b.form.submit, exact: true });
    const dialog = review(page);
    const isFocused = (locator: ReturnType<Page['getByRole']>) => locator.evaluate((el) => el === document.activeElement);

    // Opened: focus is on the confirmation, and the page behind is out of reach.
    await submit.click();
    await dialog.waitFor();
    expect(await isFocused(dialog.getByRole('button', { name: b.confirm.submit }))).toBe(true);
    expect(await page.evaluate(() => document.querySelector('dialog')?.matches(':modal'))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await isFocused(submit)).toBe(true);

    // A tap on the dimmed page around it (the top left corner of the screen) closes it too.
    await submit.click();
    await dialog.waitFor();
    await page.mouse.click(4, 4);
    await dialog.waitFor({ state: 'detached' });
    expect(await isFocused(submit)).toBe(true);

    // Sending (the answer held back): Escape, twice, and a tap outside leave it open.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.pathname === `/api/auctions/${auction.id}/bids`,
      async (route: Route) => {
        if (route.request().method() !== 'POST') return route.fallback();
        const response = await route.fetch();
        await released;
        await route.fulfill({ response }).catch(() => {});
      },
    );
    await submit.click();
    const answered = page.waitForResponse((res) => res.url().endsWith('/bids') && res.request().method() === 'POST');
    // The confirmation and a close request in the same moment, before the page has drawn anything
    // in between: the bid is on its way, so the review stays.
    await dialog.getByRole('button', { name: b.confirm.submit }).waitFor();
    await page.evaluate((label) => {
      const open = document.querySelector('dialog');
      const confirm = [...(open?.querySelectorAll('button') ?? [])].find((button) => button.textContent?.trim() === label);
      if (!open || !confirm) throw new Error('the review and its confirmation are not on screen');
      // Marks the review if the browser takes it off screen, even for a moment.
      open.addEventListener('close', () => open.setAttribute('data-closed-while-sending', ''));
      confirm.click();
      open.requestClose();
    }, b.confirm.submit);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.mouse.click(4, 4);
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getAttribute('data-closed-while-sending')).toBeNull();
    expect(await dialog.getByRole('button', { name: t.common.close }).count()).toBe(0);
    release();
    expect((await answered).status()).toBe(201);
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(b.leader.leading).waitFor();
    await page.context().close();
  });
});
