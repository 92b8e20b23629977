import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuctionDetail } from '../../src/domain/auctions.js';
import { MAX_AUCTION_IMAGES } from '../../src/domain/auctions.js';
import type { Category } from '../../src/domain/categories.js';
import { MAX_UPLOAD_BYTES } from '../../src/domain/uploads.js';
import { messages } from '../../src/server/messages.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

const ctx = setupAppAndBrowser();
const f = t.auctionForm;

type Color = 'red' | 'green' | 'blue';
const RGB: Record<Color, { r: number; g: number; b: number }> = {
  red: { r: 220, g: 30, b: 30 },
  green: { r: 30, g: 190, b: 30 },
  blue: { r: 30, g: 30, b: 220 },
};

/** A small, distinct JPEG per colour: after the server re-encodes it, its colour still says which it was. */
async function jpeg(color: Color, name = `${color}.jpg`) {
  const buffer = await sharp({ create: { width: 96, height: 72, channels: 3, background: RGB[color] } })
    .jpeg({ quality: 85 })
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

async function colorOf(page: Page, url: string): Promise<Color> {
  const res = await page.request.get(url.startsWith('/') ? `${ctx.app.url}${url}` : url);
  expect(res.status()).toBe(200);
  const { channels } = await sharp(await res.body()).stats();
  const [r = 0, g = 0, b = 0] = channels.map((channel) => channel.mean);
  return r > g && r > b ? 'red' : g > b ? 'green' : 'blue';
}

let seller: E2eUser;
const category = { id: '', name: 'Cámaras y fotografía' };

beforeAll(async () => {
  const admin = await prepareUser(ctx.app, { email: 'admin.form@ejemplo.mx', name: 'Ana Admin', roles: ['admin'] });
  seller = await prepareUser(ctx.app, {
    email: 'vendedor.form@ejemplo.mx',
    name: 'Víctor Vendedor',
    roles: ['seller'],
    companyId: 'tienda-victor',
    companyName: 'Tienda Víctor',
  });
  const adminPage = await newPage(ctx.browser);
  await signInPage(adminPage, ctx.app, admin);
  const res = await adminPage.request.post(`${ctx.app.url}/api/categories`, { data: { name: category.name }, headers: { origin: ctx.app.url } });
  expect(res.status()).toBeLessThan(300);
  category.id = ((await res.json()) as Category).id;
  await adminPage.context().close();
});

async function sellerPage(): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, seller);
  await page.goto(`${ctx.app.url}/admin`);
  return page;
}

async function openCreateForm(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: t.admin.nav.addAuction }).click();
  const dialog = page.getByRole('dialog', { name: f.titleCreate });
  await dialog.getByLabel(f.fields.name).waitFor();
  return dialog;
}

const tiles = (dialog: Locator) => dialog.getByRole('list', { name: f.images.listLabel }).getByRole('listitem');

async function waitForUploads(dialog: Locator, count: number): Promise<void> {
  await expect.poll(() => dialog.locator('[role="listitem"][data-status="done"]').count(), { timeout: 15_000 }).toBe(count);
  expect(await dialog.getByRole('progressbar').count()).toBe(0);
}

async function chooseCategory(page: Page, dialog: Locator): Promise<void> {
  await dialog.getByRole('combobox', { name: f.fields.category }).click();
  await page.getByRole('option', { name: category.name }).click();
}

describe('auction create/edit form', () => {
  let auctionId = '';
  const name = 'Cámara Canon AE-1 con lente 50 mm';

  it('creates an auction with three uploaded images in the order arranged, and a preset end time', async () => {
    const page = await sellerPage();
    const dialog = await openCreateForm(page);

    await dialog.getByLabel(f.fields.name).fill(name);
    await dialog.getByLabel(f.fields.description).fill('Cámara de rollo en excelente estado, probada con película.');
    await chooseCategory(page, dialog);
    await dialog.getByLabel(f.fields.startingPrice).fill('1500');
    await dialog.getByLabel(f.fields.buyNowPrice).fill('4500');
    await dialog.getByRole('combobox', { name: f.fields.condicion }).click();
    await page.getByRole('option', { name: 'Usado + (Excelente)' }).click();
    await dialog.getByLabel(f.fields.marca).fill('Canon');
    await dialog.getByLabel(f.fields.envio).fill('Envío gratis a todo México');

    await dialog.getByTestId('image-input').setInputFiles([await jpeg('red'), await jpeg('green'), await jpeg('blue')]);
    await waitForUploads(dialog, 3);
    expect(await tiles(dialog).first().getByText(f.images.cover).isVisible()).toBe(true);

    // A real drag: the third tile (blue) onto the first → blue, red, green.
    const blueSrc = await tiles(dialog).nth(2).getByRole('img').getAttribute('src');
    await tiles(dialog).nth(2).dragTo(tiles(dialog).nth(0));
    await expect.poll(() => tiles(dialog).first().getByRole('img').getAttribute('src')).toBe(blueSrc);
    expect(await tiles(dialog).first().getByText(f.images.cover).isVisible()).toBe(true);
    // Then the buttons: red (now second) one place right → blue, green, red.
    await dialog.getByRole('button', { name: fill(f.images.moveRight, { position: '2' }) }).click();

    const before = Date.now();
    await dialog.getByRole('button', { name: fill(f.endTime.preset, { minutes: '5' }) }).click();
    await dialog.getByText(f.endTime.chosen.split('{{')[0] ?? '').waitFor();

    const created = page.waitForResponse((res) => res.url() === `${ctx.app.url}/api/auctions` && res.request().method() === 'POST');
    await dialog.getByRole('button', { name: f.save }).click();
    const response = await created;
    expect(response.status()).toBe(201);
    auctionId = ((await response.json()) as AuctionDetail).id;
    await page.getByText(fill(f.created, { id: auctionId })).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const detail = (await (await page.request.get(`${ctx.app.url}/api/auctions/${auctionId}`)).json()) as AuctionDetail;
    expect(detail.name).toBe(name);
    expect(detail.categoryId).toBe(category.id);
    expect(detail.startingPrice).toBe(1500);
    expect(detail.buyNowPrice).toBe(4500);
    expect(detail.condicion).toBe('Usado + (Excelente)');
    expect(detail.status).toBe('pending');
    expect(detail.endTime).toBeGreaterThanOrEqual(before + 5 * 60_000 - 1000);
    expect(detail.endTime).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    expect(detail.images).toHaveLength(3);
    const colors = [];
    for (const url of detail.images) colors.push(await colorOf(page, url));
    expect(colors).toEqual(['blue', 'green', 'red']);
    await page.context().close();
  });

  it('edits the auction: loads it, changes name and price, keeps the images', async () => {
    expect(auctionId).not.toBe('');
    const page = await sellerPage();
    const actions = page.getByRole('group', { name: fill(t.auctions.actions.group, { name }) });
    await actions.getByRole('button', { name: t.auctions.actions.edit }).click();
    const dialog = page.getByRole('dialog', { name: f.titleEdit });
    const nameInput = dialog.getByLabel(f.fields.name);
    await nameInput.waitFor();
    expect(await nameInput.inputValue()).toBe(name);
    await waitForUploads(dialog, 3);

    await nameInput.fill(`${name} (revisada)`);
    await dialog.getByLabel(f.fields.startingPrice).fill('2000');
    await dialog.getByRole('button', { name: f.save }).click();
    await page.getByText(f.updated).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const detail = (await (await page.request.get(`${ctx.app.url}/api/auctions/${auctionId}`)).json()) as AuctionDetail;
    expect(detail.name).toBe(`${name} (revisada)`);
    expect(detail.startingPrice).toBe(2000);
    expect(detail.buyNowPrice).toBe(4500);
    const colors = [];
    for (const url of detail.images) colors.push(await colorOf(page, url));
    expect(colors).toEqual(['blue', 'green', 'red']);
    await page.context().close();
  });

  it('shows every field error in Spanish at once, keeps what was typed, and asks before discarding', async () => {
    const page = await sellerPage();
    const dialog = await openCreateForm(page);
    await dialog.getByRole('button', { name: f.save }).click();
    for (const key of ['nameRequired', 'descriptionRequired', 'categoryRequired', 'startingPriceRequired'] as const) {
      await dialog.getByText(f.errors[key]).waitFor();
    }

    await dialog.getByLabel(f.fields.name).fill('Reloj de bolsillo');
    await dialog.getByLabel(f.fields.startingPrice).fill('800');
    await dialog.getByLabel(f.fields.buyNowPrice).fill('800');
    await dialog.getByRole('button', { name: f.save }).click();
    await dialog.getByText(f.errors.buyNowNotAbove).waitFor();
    expect(await dialog.getByText(f.errors.nameRequired).count()).toBe(0);
    expect(await dialog.getByText(f.errors.descriptionRequired).isVisible()).toBe(true);
    expect(await dialog.getByLabel(f.fields.name).inputValue()).toBe('Reloj de bolsillo');

    // Closing with changes asks first; keeping on editing loses nothing.
    await page.keyboard.press('Escape');
    const confirm = page.getByRole('dialog', { name: f.discard.title });
    await confirm.getByRole('button', { name: f.discard.keepEditing }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await dialog.getByLabel(f.fields.name).inputValue()).toBe('Reloj de bolsillo');
    await dialog.getByRole('button', { name: f.cancel }).click();
    await confirm.getByRole('button', { name: f.discard.confirm }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('reads and writes the end time in Mexico City time whatever the browser zone, and saves once on a double click', async () => {
    const context = await ctx.browser.newContext({ locale: 'es-MX', timezoneId: 'Asia/Tokyo', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signInPage(page, ctx.app, seller);
    await page.goto(`${ctx.app.url}/admin`);
    const dialog = await openCreateForm(page);
    await dialog.getByLabel(f.fields.name).fill('Lámpara de escritorio');
    await dialog.getByLabel(f.fields.description).fill('Lámpara articulada de metal.');
    await chooseCategory(page, dialog);
    await dialog.getByLabel(f.fields.startingPrice).fill('300');
    await dialog.getByRole('combobox', { name: f.fields.status }).click();
    await page.getByRole('option', { name: f.status.active }).click();

    const before = Date.now();
    await dialog.getByRole('button', { name: fill(f.endTime.preset, { minutes: '10' }) }).click();
    const after = Date.now();
    // The picker and the summary show Mexico's wall clock, not Tokyo's.
    const mexico = (ms: number) =>
      new Intl.DateTimeFormat('es-MX', { timeZone: 'America/Mexico_City', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
    const expected = new Set([mexico(before + 10 * 60_000), mexico(after + 10 * 60_000)]);
    const summary = (await dialog.getByTestId('end-time-summary').textContent()) ?? '';
    expect([...expected].some((hhmm) => summary.includes(hhmm))).toBe(true);
    const picker = (await dialog.getByRole('button', { name: f.fields.endTime, exact: true }).textContent()) ?? '';
    expect([...expected].some((hhmm) => picker.includes(hhmm))).toBe(true);

    const posts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url() === `${ctx.app.url}/api/auctions`) posts.push(req.url());
    });
    const created = page.waitForResponse((res) => res.url() === `${ctx.app.url}/api/auctions` && res.request().method() === 'POST');
    await dialog.getByRole('button', { name: f.save }).dblclick();
    const detail = (await (await created).json()) as AuctionDetail;
    await dialog.waitFor({ state: 'hidden' });
    expect(posts).toHaveLength(1);
    expect(detail.status).toBe('active');
    expect(detail.endTime).toBeGreaterThanOrEqual(before + 10 * 60_000 - 1000);
    expect(detail.endTime).toBeLessThanOrEqual(after + 10 * 60_000);
    await context.close();
  });

  it(`keeps ${MAX_AUCTION_IMAGES} of 7 photos and names the one left out; a file the server refuses says why and gives its slot back`, async () => {
    const page = await sellerPage();
    const dialog = await openCreateForm(page);
    // Over 10 MB is refused in the browser, before any upload.
    const uploads: string[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/api/uploads')) uploads.push(req.url());
    });
    await dialog.getByTestId('image-input').setInputFiles({ name: 'enorme.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0xff) });
    await dialog.getByText(fill(f.images.tooLarge, { name: 'enorme.jpg' })).waitFor();
    expect(uploads).toHaveLength(0);
    expect(await tiles(dialog).count()).toBe(0);

    const colors: Color[] = ['red', 'green', 'blue', 'red', 'green', 'blue', 'red'];
    const files = await Promise.all(colors.map((color, i) => jpeg(color, `foto-${i + 1}.jpg`)));
    await dialog.getByTestId('image-input').setInputFiles(files);
    await dialog.getByText(fill(f.images.leftOut_one, { max: String(MAX_AUCTION_IMAGES), names: '«foto-7.jpg»' })).waitFor();
    await waitForUploads(dialog, MAX_AUCTION_IMAGES);
    expect(await tiles(dialog).count()).toBe(MAX_AUCTION_IMAGES);
    expect(uploads).toHaveLength(MAX_AUCTION_IMAGES);

    // Room for one: a text file dressed as a JPEG is refused by the server, in its own words; it keeps no slot.
    await dialog.getByRole('button', { name: fill(f.images.remove, { position: '6' }) }).click();
    await dialog.getByTestId('image-input').setInputFiles({ name: 'no-es-foto.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('esto no es una imagen\n') });
    await dialog.getByText(fill(f.images.rejected, { name: 'no-es-foto.jpg', reason: messages.uploads.notAnImage })).waitFor();
    await expect.poll(() => tiles(dialog).count(), { timeout: 15_000 }).toBe(MAX_AUCTION_IMAGES - 1);
    expect(await dialog.locator('[role="listitem"][data-status="error"]').count()).toBe(0);
    // The slot is free: a real photo takes it.
    await dialog.getByTestId('image-input').setInputFiles(await jpeg('green', 'otra.jpg'));
    await waitForUploads(dialog, MAX_AUCTION_IMAGES);
    await page.context().close();
  });
});
