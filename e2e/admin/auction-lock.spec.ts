import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuctionDetail } from '../../src/domain/auctions.js';
import type { Category } from '../../src/domain/categories.js';
import { auctions, liveLots, liveSessions } from '../../src/server/db/schema.js';
import { messages } from '../../src/server/messages.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

/** The form of an auction with bids shows what is locked, and why, before Save. */

const ctx = setupAppAndBrowser();
const f = t.auctionForm;

let seller: E2eUser;
let buyer: E2eUser;
let categoryId = '';

beforeAll(async () => {
  const admin = await prepareUser(ctx.app, { email: 'admin.candado@ejemplo.mx', name: 'Ana Admin', roles: ['admin'] });
  seller = await prepareUser(ctx.app, { email: 'vendedor.candado@ejemplo.mx', name: 'Víctor Vendedor', roles: ['seller'], companyId: 'tienda-candado' });
  buyer = await prepareUser(ctx.app, { email: 'postora.candado@ejemplo.mx', name: 'Paula Postora', roles: ['buyer'] });
  const adminPage = await newPage(ctx.browser);
  await signInPage(adminPage, ctx.app, admin);
  const res = await adminPage.request.post(`${ctx.app.url}/api/categories`, { data: { name: 'Relojes' }, headers: { origin: ctx.app.url } });
  expect(res.status()).toBeLessThan(300);
  categoryId = ((await res.json()) as Category).id;
  await adminPage.context().close();
});

async function signedIn(user: E2eUser, path = '/admin'): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, user);
  await page.goto(`${ctx.app.url}${path}`);
  return page;
}

async function uploadPhoto(page: Page): Promise<string> {
  const buffer = await sharp({ create: { width: 96, height: 72, channels: 3, background: { r: 30, g: 30, b: 220 } } })
    .jpeg()
    .toBuffer();
  const res = await page.request.post(`${ctx.app.url}/api/uploads`, {
    multipart: { file: { name: 'reloj.jpg', mimeType: 'image/jpeg', buffer } },
    headers: { origin: ctx.app.url },
  });
  expect(res.status()).toBeLessThan(300);
  return ((await res.json()) as { url: string }).url;
}

async function bid(auctionId: string): Promise<void> {
  const page = await signedIn(buyer, '/');
  const res = await page.request.post(`${ctx.app.url}/api/auctions/${auctionId}/bids`, { data: { amount: 1500 }, headers: { origin: ctx.app.url } });
  expect(res.status()).toBe(201);
  await page.context().close();
}

async function openEdit(page: Page, name: string): Promise<Locator> {
  const actions = page.getByRole('group', { name: fill(t.auctions.actions.group, { name }) });
  await actions.getByRole('button', { name: t.auctions.actions.edit }).click();
  const dialog = page.getByRole('dialog', { name: f.titleEdit });
  await dialog.getByLabel(f.fields.name).waitFor();
  return dialog;
}

async function detailOf(page: Page, id: string): Promise<AuctionDetail> {
  return (await (await page.request.get(`${ctx.app.url}/api/auctions/${id}`)).json()) as AuctionDetail;
}

describe('editing an auction with bids', () => {
  it('opens with the locked fields disabled and the reason shown; buy-now can only be removed', async () => {
    const page = await signedIn(seller);
    const name = 'Reloj Seiko automático';
    const photo = await uploadPhoto(page);
    const auction = await createAuctionAs(page, ctx.app, { name, categoryId, startingPrice: 1500, buyNowPrice: 4000, marca: 'Seiko', images: [photo] });
    await bid(auction.id);
    await page.reload();

    const dialog = await openEdit(page, name);
    await dialog.getByTestId('locked-banner').getByText(f.locked.banner).waitFor();
    for (const label of [f.fields.name, f.fields.description, f.fields.startingPrice, f.fields.buyNowPrice, f.fields.marca, f.fields.envio]) {
      expect(await dialog.getByLabel(label).isDisabled(), label).toBe(true);
    }
    // Each frozen field says why, before Save.
    expect(await dialog.getByText(f.locked.field, { exact: true }).count()).toBeGreaterThanOrEqual(6);
    await dialog.getByText(f.locked.endTime).waitFor();
    await dialog.getByText(f.locked.images).waitFor();
    // The end is an hour away: a five-minute preset would move it earlier.
    expect(await dialog.getByRole('button', { name: fill(f.endTime.preset, { minutes: '5' }) }).isDisabled()).toBe(true);
    // The photo bidders saw has a lock, not a remove button.
    expect(await dialog.getByRole('button', { name: fill(f.images.remove, { position: '1' }) }).count()).toBe(0);
    await dialog.getByRole('img', { name: fill(f.locked.imageKept, { position: '1' }) }).waitFor();

    await dialog.getByRole('button', { name: f.locked.buyNowRemoveAria }).click();
    await dialog.getByText(f.locked.buyNowRemoved).waitFor();
    await dialog.getByRole('button', { name: f.save }).click();
    await page.getByText(f.updated).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await detailOf(page, auction.id)).toMatchObject({ name, buyNowPrice: null, startingPrice: 1500, marca: 'Seiko', images: [photo], bidCount: 1 });
    await page.context().close();
  });

  it('shows the server refusal on the field when a bid lands while the form is open', async () => {
    const page = await signedIn(seller);
    const name = 'Reloj Citizen de bolsillo';
    const auction = await createAuctionAs(page, ctx.app, { name, categoryId, startingPrice: 1500 });
    await page.reload();
    const dialog = await openEdit(page, name);
    expect(await dialog.getByTestId('locked-banner').count()).toBe(0);
    await bid(auction.id);

    await dialog.getByLabel(f.fields.name).fill('Reloj Rolex de bolsillo');
    await dialog.getByRole('button', { name: f.save }).click();
    await dialog.getByText(messages.fields.lockedByBids).waitFor();
    expect(await dialog.getByLabel(f.fields.name).getAttribute('aria-invalid')).toBe('true');
    expect((await detailOf(page, auction.id)).name).toBe(name);
    await page.context().close();
  });

  it('follows an end time that a late bid moved while the form is open, and saves', async () => {
    const page = await signedIn(seller);
    const name = 'Reloj Casio de subasta en vivo';
    const auction = await createAuctionAs(page, ctx.app, { name, categoryId, startingPrice: 1500, endTime: Date.now() + 45_000 });
    // A lot of a live session with a two-minute anti-sniping window: the first bid moves the end.
    const [session] = await ctx.app.ctx.db
      .insert(liveSessions)
      .values({
        title: 'Relojes en vivo',
        sellerId: seller.id,
        companyId: 'tienda-candado',
        scheduledAt: new Date(),
        status: 'live',
        biddingConfig: { minIncrement: 20, antiSnipeSeconds: 120, timerSecondsDefault: 60 },
      })
      .returning({ id: liveSessions.id });
    await ctx.app.ctx.db.insert(liveLots).values({ sessionId: (session as { id: string }).id, auctionId: auction.id, order: 1 });
    await page.reload();
    const dialog = await openEdit(page, name);
    const picker = dialog.getByRole('button', { name: f.fields.endTime, exact: true });
    const shown = await picker.textContent();

    await bid(auction.id);
    const extended = (await detailOf(page, auction.id)).endTime as number;
    expect(extended).toBeGreaterThan(auction.endTime as number);
    // The untouched end time follows the server's (over 60 s later, so the minute shown changes).
    await expect.poll(() => picker.textContent()).not.toBe(shown);
    await dialog.getByRole('button', { name: f.save }).click();
    await page.getByText(f.updated).waitFor();
    expect(await detailOf(page, auction.id)).toMatchObject({ name, endTime: extended, bidCount: 1 });
    await page.context().close();
  });

  it('says before Save why a won auction keeps its status and end time', async () => {
    const page = await signedIn(seller);
    const name = 'Reloj Orient ganado';
    const auction = await createAuctionAs(page, ctx.app, { name, categoryId, startingPrice: 1500 });
    await ctx.app.ctx.db.update(auctions).set({ currentWinnerId: buyer.id, currentWinnerName: 'Paula Postora' }).where(eq(auctions.id, auction.id));
    // With a winner it is listed under 'Pendientes'.
    await page.goto(`${ctx.app.url}/admin?filter=pending`);
    const dialog = await openEdit(page, name);
    expect(await dialog.getByText(f.locked.schedule.won).count()).toBe(2);
    expect(await dialog.getByRole('button', { name: f.fields.endTime, exact: true }).isDisabled()).toBe(true);
    expect(await dialog.getByLabel(f.fields.status, { exact: true }).isDisabled()).toBe(true);
    for (const minutes of ['1', '20']) expect(await dialog.getByRole('button', { name: fill(f.endTime.preset, { minutes }) }).isDisabled()).toBe(true);
    // What bidders never relied on still saves.
    await dialog.getByLabel(f.fields.name).fill('Reloj Orient ganado (caja original)');
    await dialog.getByRole('button', { name: f.save }).click();
    await page.getByText(f.updated).waitFor();
    expect(await detailOf(page, auction.id)).toMatchObject({ name: 'Reloj Orient ganado (caja original)', status: auction.status, endTime: auction.endTime });
    await page.context().close();
  });
});
