import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuctionDetail } from '../../src/domain/auctions.js';
import { maskName } from '../../src/domain/bidding.js';
import { formatMoney } from '../../src/domain/money.js';
import { buildCategory, signInAs } from '../../test/support/actors.js';
import { sleep } from '../../test/support/wait.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs, moveEndAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

const ctx = setupAppAndBrowser();
const b = t.bidding;

const SELLER = { email: 'vendedora.pujas@ejemplo.mx', name: 'Vera Vendedora' };
const ANA = { email: 'ana.compradora@ejemplo.mx', name: 'Ana Compradora' };
const BRUNO = { email: 'bruno.postor@ejemplo.mx', name: 'Bruno Postor' };

let seller: E2eUser;
let ana: E2eUser;
let bruno: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'tienda-pujas', companyName: 'Tienda Pujas' });
  ana = await prepareUser(ctx.app, { ...ANA, roles: ['buyer'] });
  bruno = await prepareUser(ctx.app, { ...BRUNO, roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Relojes de pulso');
});

async function signedInPage(user: Pick<E2eUser, 'email' | 'name'> | null, opts: { mobile?: boolean } = {}): Promise<Page> {
  const page = await newPage(ctx.browser, opts);
  if (user) await signInPage(page, ctx.app, user);
  return page;
}

/** The seller's page, signed in once for the file: every development sign-in counts against its limit of 30 a minute per address. */
let sellerPage: Page | null = null;
afterAll(async () => {
  await sellerPage?.context().close();
});

async function sellersPage(): Promise<Page> {
  sellerPage ??= await signedInPage(seller);
  return sellerPage;
}

async function newAuction(name: string, opts: { buyNowPrice?: number; status?: 'pending' | 'active'; photos?: number } = {}) {
  const page = await sellersPage();
  const images: string[] = [];
  for (let i = 0; i < (opts.photos ?? 0); i++) images.push(await uploadPhoto(page, i));
  const auction = await createAuctionAs(page, ctx.app, {
    name,
    categoryId,
    startingPrice: 500,
    marca: 'Casio',
    envio: 'Envío gratis a todo México',
    condicion: 'Como Nuevo',
    ...(opts.buyNowPrice ? { buyNowPrice: opts.buyNowPrice } : {}),
    ...(opts.status ? { status: opts.status } : {}),
    images,
  });
  return auction;
}

/** One small JPEG of its own colour, uploaded as the seller's form would. */
async function uploadPhoto(page: Page, i: number): Promise<string> {
  const background = [
    { r: 200, g: 40, b: 40 },
    { r: 40, g: 160, b: 60 },
    { r: 40, g: 60, b: 200 },
  ][i % 3];
  const buffer = await sharp({ create: { width: 160, height: 120, channels: 3, background: background ?? { r: 0, g: 0, b: 0 } } })
    .jpeg()
    .toBuffer();
  const res = await page.request.post(`${ctx.app.url}/api/uploads`, {
    multipart: { file: { name: `foto-${i}.jpg`, mimeType: 'image/jpeg', buffer } },
    headers: { origin: ctx.app.url },
  });
  expect(res.status()).toBeLessThan(300);
  return ((await res.json()) as { url: string }).url;
}

/** Opens the public page and waits for the live history (the state the bid box shows) to load. */
async function openAuction(page: Page, auctionId: string): Promise<void> {
  const history = page.waitForResponse((res) => res.url().includes(`/api/auctions/${auctionId}/bids`) && res.ok());
  await page.goto(`${ctx.app.url}/auctions/${auctionId}`);
  await history;
  await page.getByTestId('current-price').waitFor();
}

const price = (page: Page) => page.getByTestId('current-price').innerText();
const amountBox = (page: Page) => page.getByRole('textbox', { name: b.form.amount, exact: true });
const lines = (page: Page) =>
  page
    .getByTestId('bid-line')
    .evaluateAll((els) =>
      els.map((el) => `${el.querySelector('[data-testid="bid-bidder"]')?.textContent} ${el.querySelector('[data-testid="bid-amount"]')?.textContent}`),
    );
const line = (who: string, amount: number) => `${who} ${formatMoney(amount)}`;

/**
 * 'Pujar' → the review step → 'Confirmar puja', waiting for the answer. With `confirmAt` (epoch ms)
 * the review waits open until that moment, so a bid timed for an auction's last seconds is one
 * click away when the moment comes.
 */
async function bid(page: Page, opts: { amount?: number; maxAmount?: number; confirmAt?: number } = {}): Promise<void> {
  if (opts.amount !== undefined) await amountBox(page).fill(String(opts.amount));
  if (opts.maxAmount !== undefined) {
    await page.getByRole('switch', { name: b.form.autoToggle }).check({ force: true });
    await page.getByRole('textbox', { name: b.form.maxAmount }).fill(String(opts.maxAmount));
  }
  await page.getByRole('button', { name: b.form.submit, exact: true }).click();
  const review = page.getByRole('dialog', { name: b.confirm.title });
  await review.waitFor();
  if (opts.amount !== undefined) expect(await review.getByTestId('review-amount').innerText()).toBe(formatMoney(opts.amount));
  expect(await review.getByTestId('review-max').innerText()).toBe(opts.maxAmount === undefined ? b.confirm.noMax : formatMoney(opts.maxAmount));
  if (opts.confirmAt !== undefined) await sleep(Math.max(0, opts.confirmAt - Date.now()));
  const answered = page.waitForResponse((res) => res.url().endsWith('/bids') && res.request().method() === 'POST');
  await review.getByRole('button', { name: b.confirm.submit }).click();
  const res = await answered;
  expect(res.status(), await res.text()).toBe(201);
  await review.waitFor({ state: 'hidden' });
}

async function endTimeOf(page: Page): Promise<number> {
  return Date.parse((await page.getByTestId('end-time').getAttribute('datetime')) ?? '');
}

/**
 * Opens the pages on the auction, then brings its end 12 s away; answers the new end once every
 * page shows it. The pages open first, however long a loaded machine takes, so the test still
 * reaches the auction's last seconds before it ends.
 */
async function nearItsEnd(auction: AuctionDetail, pages: Page[]): Promise<number> {
  await Promise.all(pages.map((page) => openAuction(page, auction.id)));
  const moved = await moveEndAs(await sellersPage(), ctx.app, auction, Date.now() + 12_000);
  const endTime = moved.endTime ?? 0;
  for (const page of pages) await eventually(() => endTimeOf(page)).toBe(endTime);
  return endTime;
}

describe('bidding on the public auction page', () => {
  it('two buyers bid against each other and each sees the other’s bid without a reload; a visitor watches signed out', async () => {
    const auction = await newAuction('Reloj Casio F-91W edición dorada');
    const [pageA, pageB, visitor] = [await signedInPage(ana), await signedInPage(bruno, { mobile: true }), await signedInPage(null, { mobile: true })];
    await Promise.all([openAuction(pageA, auction.id), openAuction(pageB, auction.id), openAuction(visitor, auction.id)]);

    // Before any bid: the starting price, and the form pre-filled with it.
    expect(await pageB.getByTestId('price-label').innerText()).toBe(t.publicAuction.startingPrice);
    expect(await price(pageB)).toBe(formatMoney(500));
    expect(await amountBox(pageA).inputValue()).toBe('$500');
    expect(await pageA.getByText(b.history.empty).isVisible()).toBe(true);
    expect(await visitor.getByRole('button', { name: b.form.signIn }).isVisible()).toBe(true);

    await bid(pageA);
    await pageA.getByText(b.leader.leading).waitFor();
    expect(await lines(pageA)).toEqual([line(b.history.you, 500)]);

    // Bruno and the visitor see it arrive, masked, and Bruno's form moves to the next minimum.
    await eventually(() => price(pageB)).toBe(formatMoney(500));
    expect(await pageB.getByTestId('price-label').innerText()).toBe(b.price.current);
    await eventually(() => lines(pageB)).toEqual([line(maskName(ANA.name), 500)]);
    await eventually(() => amountBox(pageB).inputValue()).toBe('$520');
    expect(await pageB.getByTestId('next-minimum').innerText()).toBe(fill(b.price.nextMinimum, { amount: formatMoney(520) }));
    await eventually(() => lines(visitor)).toEqual([line(maskName(ANA.name), 500)]);

    await bid(pageB);
    await eventually(() => price(pageA)).toBe(formatMoney(520));
    await eventually(() => lines(pageA)).toEqual([line(maskName(BRUNO.name), 520), line(b.history.you, 500)]);
    // Ana led and no longer does: she is told, inline and in a notification.
    await pageA.getByTestId('outbid-notice').waitFor();
    await pageA.getByText(fill(b.outbid.notification, { name: auction.name, price: formatMoney(520) })).waitFor();
    expect(await pageA.getByText(b.leader.leading).count()).toBe(0);
    await eventually(() => lines(visitor)).toEqual([line(maskName(BRUNO.name), 520), line(maskName(ANA.name), 500)]);
    expect(await visitor.getByTestId('bid-count').innerText()).toBe(fill(b.price.bids_other, { count: '2' }));

    // Signed out, 'Inicia sesión para pujar' goes to sign-in and asks to come back here.
    const signIn = visitor.waitForRequest((req) => req.url().includes('/auth/google'));
    await visitor.getByRole('button', { name: b.form.signIn }).click();
    expect(new URL((await signIn).url()).searchParams.get('returnTo')).toBe(`/auctions/${auction.id}`);

    for (const page of [pageA, pageB, visitor]) await page.context().close();
  });

  it('a maximum bids for its owner, and the other buyer is outbid at once', async () => {
    const auction = await newAuction('Reloj Seiko 5 automático');
    const [pageA, pageB] = [await signedInPage(ana), await signedInPage(bruno)];
    await Promise.all([openAuction(pageA, auction.id), openAuction(pageB, auction.id)]);

    await bid(pageA, { amount: 500, maxAmount: 1000 });
    await pageA.getByText(fill(b.leader.myMax, { amount: formatMoney(1000) })).waitFor();
    await eventually(() => amountBox(pageB).inputValue()).toBe('$520');

    await bid(pageB, { amount: 520 });
    // The engine answered for Ana at once: Bruno is outbid, the price is his bid plus one increment.
    const notice = pageB.getByTestId('outbid-notice');
    await notice.waitFor();
    expect(await notice.innerText()).toContain(b.result.outbidTitle);
    await eventually(() => price(pageB)).toBe(formatMoney(540));
    await eventually(() => lines(pageB)).toEqual([line(maskName(ANA.name), 540), line(b.history.you, 520), line(maskName(ANA.name), 500)]);
    expect(await pageB.getByTestId('bid-line').first().getByText(b.history.automatic).isVisible()).toBe(true);
    // Nobody else sees Ana's maximum.
    expect(await pageB.getByText(formatMoney(1000)).count()).toBe(0);

    await eventually(() => price(pageA)).toBe(formatMoney(540));
    expect(await pageA.getByText(b.leader.leading).isVisible()).toBe(true);
    expect(await pageA.getByTestId('outbid-notice').count()).toBe(0);

    for (const page of [pageA, pageB]) await page.context().close();
  });

  it('a bid in the last seconds extends the countdown for everyone', async () => {
    const [pageA, pageB] = [await signedInPage(ana), await signedInPage(bruno, { mobile: true })];
    const endTime = await nearItsEnd(await newAuction('Reloj Timex Expedition'), [pageA, pageB]);
    expect(await pageB.getByTestId('countdown').getAttribute('data-final-minute')).toBe('true');

    // Waits for a moment, not an outcome: the anti-snipe window (10 s by default) has opened.
    const before = Date.now();
    await bid(pageA, { confirmAt: endTime - 8_000 });
    const after = Date.now();

    await pageB.getByText(b.extended.title).waitFor();
    const extended = await endTimeOf(pageB);
    expect(extended).toBeGreaterThan(endTime);
    // Moved to the bid's moment plus 10 s: the server, on this machine's clock, placed it between these two instants.
    expect(extended).toBeGreaterThanOrEqual(before + 10_000);
    expect(extended).toBeLessThanOrEqual(after + 10_000);
    await eventually(() => endTimeOf(pageA)).toBe(extended);
    await pageA.getByText(b.extended.title).waitFor();

    for (const page of [pageA, pageB]) await page.context().close();
  });

  it('the server closes the auction: the winner is told, the others see the masked winner, and the panel shows it', async () => {
    const [pageA, pageB] = [await signedInPage(ana, { mobile: true }), await signedInPage(bruno)];
    const auction = await newAuction('Reloj Orient Bambino');
    const endTime = await nearItsEnd(auction, [pageA, pageB]);
    // Into the anti-snipe window, as above: the close comes after the window's extension.
    await bid(pageA, { confirmAt: endTime - 8_000 });

    // Nobody's browser closes it: the scheduler does, and both pages hear it.
    const won = pageA.getByTestId('ended-notice');
    await won.getByText(b.ended.youWon, { exact: true }).waitFor({ timeout: 25_000 });
    expect(await won.innerText()).toContain(fill(b.ended.youWonMessage, { name: auction.name, price: formatMoney(500) }));
    const lost = pageB.getByTestId('ended-notice');
    await lost.getByText(fill(b.ended.winner, { name: maskName(ANA.name), price: formatMoney(500) })).waitFor({ timeout: 10_000 });
    expect(await lost.getByText(b.ended.title, { exact: true }).isVisible()).toBe(true);
    expect(await pageB.getByTestId('countdown').innerText()).toBe(b.countdown.over);
    expect(await pageB.getByTestId('price-label').innerText()).toBe(b.price.final);
    // The bid form is gone for both.
    expect(await pageB.getByRole('button', { name: b.form.submit, exact: true }).count()).toBe(0);
    expect(await pageA.getByRole('button', { name: b.form.submit, exact: true }).count()).toBe(0);

    // The seller's panel: won and not yet paid, it is under 'Pendientes' (SPEC §4), with the winner's name.
    const panel = await signedInPage(seller);
    await panel.goto(`${ctx.app.url}/admin`);
    const main = panel.getByRole('main');
    await main.getByRole('group', { name: t.auctions.filters.label }).getByRole('button', { name: t.auctions.filters.pending }).click();
    const row = main.getByRole('row').filter({ has: panel.getByText(auction.name, { exact: true }) });
    await row.getByText(fill(t.auctions.table.winner, { name: ANA.name })).waitFor();
    expect(await row.locator('[data-status]').getAttribute('data-status')).toBe('ended');

    for (const page of [pageA, pageB, panel]) await page.context().close();
  });

  it('asks for the missing profile first, then goes on to the same bid', async () => {
    const auction = await newAuction('Reloj Citizen Eco-Drive');
    // Signed in, but without WhatsApp or consent yet.
    const carla = { email: 'carla.nueva@ejemplo.mx', name: 'Carla Nueva' };
    await signInAs(ctx.app, { ...carla, roles: ['buyer'] });
    const page = await signedInPage(carla, { mobile: true });
    await openAuction(page, auction.id);

    await amountBox(page).fill('650');
    await page.getByRole('button', { name: b.form.submit, exact: true }).click();
    const profile = page.getByRole('dialog', { name: t.profile.title });
    // A buyer is asked what buying needs: no business name (that is a seller's), and no word of Google (she did not sign in with it).
    await profile.getByText(t.profile.introBuyer).waitFor();
    await profile.getByText(t.profile.fields.firstNameHintAccount).waitFor();
    expect(await profile.getByLabel(t.profile.fields.companyName).count()).toBe(0);
    expect(await profile.getByText(/Google/).count()).toBe(0);
    await profile.getByLabel(t.profile.fields.lastName).fill('Pérez');
    await profile.getByLabel(t.profile.fields.whatsappLocal).fill('33 1234 5678');
    await profile.getByLabel(t.profile.fields.consent).check();
    await profile.getByRole('button', { name: t.profile.save }).click();
    await profile.waitFor({ state: 'hidden' });

    // Straight on to the review of the bid she had typed.
    const review = page.getByRole('dialog', { name: b.confirm.title });
    expect(await review.getByTestId('review-amount').innerText()).toBe(formatMoney(650));
    await review.getByRole('button', { name: b.confirm.submit }).click();
    await page.getByText(b.leader.leading).waitFor();
    expect(await price(page)).toBe(formatMoney(650));
    await page.context().close();
  });

  it('a notification whose code cannot arrive yet leaves the page working, and shows once it can', async () => {
    const auction = await newAuction('Reloj Citizen Eco-Drive');
    const [pageA, pageB] = [await signedInPage(ana), await signedInPage(bruno)];
    await Promise.all([openAuction(pageA, auction.id), openAuction(pageB, auction.id)]);
    // The notifications' container loads with the first notification (components/lazy-notifications.tsx): refused here.
    const containerChunk = '**/assets/notifications-container-*.js';
    let refused = 0;
    await pageA.route(containerChunk, (route) => {
      refused++;
      return route.abort();
    });
    await bid(pageA);
    await pageA.getByText(b.leader.leading).waitFor();
    await bid(pageB);
    await pageA.getByTestId('outbid-notice').waitFor();
    expect(refused).toBeGreaterThan(0);
    const toast = pageA.getByText(fill(b.outbid.notification, { name: auction.name, price: formatMoney(520) }));
    expect(await toast.count()).toBe(0);
    expect(await price(pageA)).toBe(formatMoney(520));
    // Back online, the container arrives and shows what was waiting.
    await pageA.unroute(containerChunk);
    await pageA.evaluate(() => window.dispatchEvent(new Event('online')));
    await toast.waitFor();
    for (const page of [pageA, pageB]) await page.context().close();
  });

  it('pages back through a long history with “Ver más”', async () => {
    const auction = await newAuction('Reloj Swatch Irony');
    const [pageA, pageB] = [await signedInPage(ana), await signedInPage(bruno)];
    // 35 alternating bids straight through the API: more than one page (30) of history.
    for (let i = 0; i < 35; i++) {
      const res = await (i % 2 ? pageB : pageA).request.post(`${ctx.app.url}/api/auctions/${auction.id}/bids`, {
        data: { amount: 500 + i * 20 },
        headers: { origin: ctx.app.url, 'Idempotency-Key': `${auction.id}-${i}` },
      });
      expect(res.status()).toBe(201);
    }
    await openAuction(pageA, auction.id);
    // The price can show before the history does (the bids' answer may be the page's preload, caught early).
    await eventually(() => pageA.getByTestId('bid-line').count()).toBe(30);
    expect(await pageA.getByTestId('history-total').innerText()).toBe(fill(b.price.bids_other, { count: '35' }));
    await pageA.getByRole('button', { name: b.history.loadMore }).click();
    await eventually(() => pageA.getByTestId('bid-line').count()).toBe(35);
    const all = await lines(pageA);
    expect(all[0]).toBe(line(b.history.you, 500 + 34 * 20));
    expect(all.at(-1)).toBe(line(b.history.you, 500));
    expect(await pageA.getByRole('button', { name: b.history.loadMore }).count()).toBe(0);
    for (const page of [pageA, pageB]) await page.context().close();
  });

  it('says when an auction has not started or does not exist, and offers no bid', async () => {
    const pending = await newAuction('Reloj Bulova por empezar', { status: 'pending' });
    const page = await signedInPage(ana, { mobile: true });
    await openAuction(page, pending.id);
    await page.getByText(b.pending.title).waitFor();
    expect(await page.getByRole('button', { name: b.form.submit, exact: true }).count()).toBe(0);
    expect(await page.getByTestId('price-label').innerText()).toBe(t.publicAuction.startingPrice);

    await page.goto(`${ctx.app.url}/auctions/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { name: t.publicAuction.notFound }).waitFor();
    await page.context().close();
  });

  it('catches up without a reload after the live connection drops', async () => {
    const auction = await newAuction('Reloj Fossil Grant');
    const [pageA, pageB] = [await signedInPage(ana), await signedInPage(bruno, { mobile: true })];
    await Promise.all([openAuction(pageA, auction.id), openAuction(pageB, auction.id)]);

    // The server drops every socket; a bid lands while Bruno's page is away.
    ctx.app.ctx.realtime.io.disconnectSockets(true);
    await bid(pageA);
    await eventually(() => price(pageB)).toBe(formatMoney(500));
    await eventually(() => lines(pageB)).toEqual([line(maskName(ANA.name), 500)]);
    // Back in the room: the next bid arrives live again.
    await bid(pageB);
    await eventually(() => price(pageA)).toBe(formatMoney(520));
    for (const page of [pageA, pageB]) await page.context().close();
  });

  it('shows the photos with arrows, thumbnails, arrow keys and a swipe', async () => {
    const auction = await newAuction('Reloj Omega Seamaster', { photos: 3 });
    const page = await signedInPage(null, { mobile: true });
    await openAuction(page, auction.id);
    const gallery = page.getByRole('region', { name: fill(b.gallery.label, { name: auction.name }) });
    const shown = () => gallery.getByRole('img').first().getAttribute('src');
    const [first, second, third] = auction.images;

    expect(await shown()).toBe(first);
    await gallery.getByRole('button', { name: b.gallery.next }).click();
    expect(await shown()).toBe(second);
    await gallery.focus();
    await page.keyboard.press('ArrowRight');
    expect(await shown()).toBe(third);
    await page.keyboard.press('ArrowRight');
    expect(await shown()).toBe(first);
    await page.getByRole('button', { name: fill(b.gallery.thumbnail, { index: '3', total: '3' }) }).click();
    expect(await shown()).toBe(third);

    const box = await gallery.boundingBox();
    if (!box) throw new Error('the gallery is not on screen');
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    expect(await shown()).toBe(second);
    await page.context().close();
  });
});
