import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { foldText } from '../../src/domain/text.js';
import { type auctions, categories, paymentItems } from '../../src/server/db/schema.js';
import { messages } from '../../src/server/messages.js';
import { refreshAuctionSearchText } from '../../src/server/reads/search-text.js';
import { buildCategory } from '../../test/support/actors.js';
import { buildAuction, buildPayment, buildUser } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

const ctx = setupAppAndBrowser();
const a = t.auctions;
const HOUR = 3_600_000;

type AuctionRow = Partial<typeof auctions.$inferInsert>;
type ViewKey = 'all' | 'paid' | 'pending' | 'winners';

/** Each test gets a company of its own, so its counts and pages never see another test's rows. */
async function newCompany(label: string): Promise<{ companyId: string; admin: E2eUser }> {
  const companyId = `e2e-${label}-${randomUUID().slice(0, 8)}`;
  const admin = await prepareUser(ctx.app, {
    email: `ana-${companyId}@ejemplo.mx`,
    name: 'Ana Admin',
    roles: ['admin', 'seller'],
    companyId,
    companyName: `Tienda ${label}`,
  });
  return { companyId, admin };
}

/** Straight into the database (many rows at once), then the search column the API would have filled. */
async function seed(companyId: string, rows: AuctionRow[]): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) ids.push((await buildAuction(ctx.app.ctx.db, { companyId, ...row })).id);
  await refreshAuctionSearchText(ctx.app.ctx.db, { auctionIds: ids });
  return ids;
}

/** Oldest first in `names`; the panel lists newest first. */
function staggered(names: string[], extra: AuctionRow = {}): AuctionRow[] {
  const base = Date.now() - names.length * 60_000;
  return names.map((name, i) => ({ name, createdAt: new Date(base + i * 60_000), ...extra }));
}

/** One open, one not started, one won and paid, one won and unpaid (SPEC §4 counts). */
async function seedFilterCompany(label: string) {
  const company = await newCompany(label);
  const db = ctx.app.ctx.db;
  const winner = await buildUser(db, { roles: ['buyer'] });
  const won = { status: 'ended' as const, endTime: new Date(Date.now() - HOUR), currentWinnerId: winner.id, currentWinnerName: 'Juana Pérez', bidCount: 2 };
  const [, , paidId] = await seed(
    company.companyId,
    staggered(['Cámara abierta', 'Lámpara por empezar', 'Reloj pagado', 'Tocadiscos sin pagar']).map((row, i) =>
      i === 0 ? { ...row, status: 'active', endTime: new Date(Date.now() + 24 * HOUR) } : i === 1 ? row : { ...row, ...won, currentPrice: 900 },
    ),
  );
  const payment = await buildPayment(db, { winnerId: winner.id, companyId: company.companyId, paymentStatus: 'paid', totalAmount: 900 });
  await db.insert(paymentItems).values({ paymentId: payment.id, paymentStatus: 'paid', auctionId: paidId as string, auctionName: 'Reloj pagado', amount: 900 });
  return company;
}

async function openPanel(user: E2eUser, opts: { query?: string; mobile?: boolean } = {}): Promise<{ page: Page; main: Locator }> {
  const page = await newPage(ctx.browser, { mobile: opts.mobile });
  await signInPage(page, ctx.app, user);
  await page.goto(`${ctx.app.url}/admin${opts.query ?? ''}`);
  const main = page.getByRole('main');
  await main.getByRole('heading', { name: a.title, exact: true }).waitFor();
  return { page, main };
}

const filterButton = (main: Locator, view: ViewKey) => main.getByRole('group', { name: a.filters.label }).getByRole('button', { name: a.filters[view] });
const searchBox = (main: Locator) => main.getByRole('textbox', { name: a.search.label });
const names = (main: Locator) => main.getByTestId('auction-name').allInnerTexts();
const pageOf = (main: Locator) => main.getByTestId('page-of').innerText();
const row = (main: Locator, name: string) => main.getByRole('row').filter({ has: main.page().getByText(name, { exact: true }) });

async function activeView(main: Locator): Promise<ViewKey | undefined> {
  for (const view of ['all', 'paid', 'pending', 'winners'] as const) {
    if ((await filterButton(main, view).getAttribute('aria-pressed')) === 'true') return view;
  }
  return undefined;
}

async function counts(main: Locator) {
  const read = async (view: 'all' | 'paid' | 'pending') => Number(await main.getByTestId(`count-${view}`).innerText());
  return { all: await read('all'), paid: await read('paid'), pending: await read('pending') };
}

describe('auction management panel', () => {
  it('says when there are no auctions at all, and keeps the winners summary honest', async () => {
    const { admin } = await newCompany('vacia');
    const { page, main } = await openPanel(admin);
    await main.getByTestId('auction-empty').getByText(a.empty.noneTitle).waitFor();
    expect(await counts(main)).toEqual({ all: 0, paid: 0, pending: 0 });
    expect(await main.getByRole('table').count()).toBe(0);

    await filterButton(main, 'paid').click();
    await main.getByText(a.empty.noPaidTitle).waitFor();
    await main.getByRole('button', { name: a.empty.showAll }).click();
    await main.getByText(a.empty.noneTitle).waitFor();

    await filterButton(main, 'winners').click();
    await main.getByText(t.payments.empty.ready).waitFor();
    expect(await main.getByTestId('auction-empty').count()).toBe(0);
    await page.context().close();
  });

  it('says when the list cannot load, and retries on demand', async () => {
    const { companyId, admin } = await newCompany('error');
    await seed(companyId, staggered(['Molcajete de piedra']));
    const page = await newPage(ctx.browser);
    await signInPage(page, ctx.app, admin);
    const failure = { error: { code: 'INTERNAL', message: 'El servidor no respondió a tiempo.' } };
    await page.route('**/api/auctions?*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify(failure) }));
    await page.goto(`${ctx.app.url}/admin`);
    const main = page.getByRole('main');
    await main.getByText(a.error.title).waitFor();
    await main.getByText(failure.error.message).waitFor();

    await page.unroute('**/api/auctions?*');
    await main.getByRole('button', { name: t.common.retry }).click();
    await eventually(() => names(main)).toEqual(['Molcajete de piedra']);
    expect(await main.getByText(a.error.title).count()).toBe(0);
    await page.context().close();
  });

  it('searches names and categories, ignoring accents, from the box or the URL', async () => {
    const { companyId, admin } = await newCompany('busqueda');
    const categoryName = `Instrumentos ${companyId}`;
    const [category] = await ctx.app.ctx.db
      .insert(categories)
      .values({ name: categoryName, nameKey: foldText(categoryName) })
      .returning();
    await seed(
      companyId,
      staggered(['Bicicléta de ruta', 'Guitarra acústica', 'Reloj antiguo']).map((r) =>
        r.name === 'Guitarra acústica' ? { ...r, categoryId: category?.id } : r,
      ),
    );
    const { page, main } = await openPanel(admin);
    await eventually(() => names(main)).toEqual(['Reloj antiguo', 'Guitarra acústica', 'Bicicléta de ruta']);
    expect(await searchBox(main).getAttribute('placeholder')).toBe(a.search.placeholder);

    // Typed key by key, and the accent does not matter. 'bi' alone finds the same row: on a loaded machine a
    // pause between two keys can let the debounce search for it first, so the whole word is awaited in the URL.
    await searchBox(main).pressSequentially('bicicleta', { delay: 20 });
    await eventually(() => new URL(page.url()).searchParams.get('search')).toBe('bicicleta');
    await eventually(() => names(main)).toEqual(['Bicicléta de ruta']);
    expect(await counts(main)).toEqual({ all: 1, paid: 0, pending: 0 });

    // A reload keeps the search.
    await page.reload();
    await eventually(() => names(main)).toEqual(['Bicicléta de ruta']);
    expect(await searchBox(main).inputValue()).toBe('bicicleta');

    // Enter applies at once, without waiting for the debounce.
    await searchBox(main).fill('GUITARRA');
    await searchBox(main).press('Enter');
    expect(await page.evaluate(() => new URLSearchParams(location.search).get('search'))).toBe('GUITARRA');
    await eventually(() => names(main)).toEqual(['Guitarra acústica']);

    // The category counts too, and shows in its column.
    await searchBox(main).fill('instrumentos');
    await eventually(() => names(main)).toEqual(['Guitarra acústica']);
    await row(main, 'Guitarra acústica').getByText(categoryName).waitFor();

    // No results: its own message, with a way out.
    await searchBox(main).fill('zzzz');
    const empty = main.getByTestId('auction-empty');
    await empty.getByText(fill(a.empty.noResultsTitle, { search: 'zzzz' })).waitFor();
    await empty.getByRole('button', { name: a.empty.clearSearch }).click();
    await eventually(() => names(main)).toHaveLength(3);
    expect(await searchBox(main).inputValue()).toBe('');

    // The clear button inside the box.
    await searchBox(main).fill('reloj');
    await eventually(() => names(main)).toEqual(['Reloj antiguo']);
    await main.getByRole('button', { name: a.search.clear }).click();
    await eventually(() => names(main)).toHaveLength(3);
    expect(new URL(page.url()).searchParams.has('search')).toBe(false);
    await page.context().close();
  });

  it('filters Todas, Pagadas and Pendientes with their counts, and keeps the filter in the URL', async () => {
    const { admin } = await seedFilterCompany('filtros');
    const { page, main } = await openPanel(admin);
    await eventually(() => names(main)).toEqual(['Lámpara por empezar', 'Cámara abierta']);
    expect(await counts(main)).toEqual({ all: 2, paid: 1, pending: 1 });
    expect(await activeView(main)).toBe('all');
    await row(main, 'Cámara abierta').getByText(a.status.active, { exact: true }).waitFor();
    await row(main, 'Lámpara por empezar').getByText(a.status.pending, { exact: true }).waitFor();

    await filterButton(main, 'paid').click();
    await eventually(() => names(main)).toEqual(['Reloj pagado']);
    expect(await activeView(main)).toBe('paid');
    await row(main, 'Reloj pagado').getByText(a.status.ended, { exact: true }).waitFor();

    await filterButton(main, 'pending').click();
    await eventually(() => names(main)).toEqual(['Tocadiscos sin pagar']);
    expect(new URL(page.url()).searchParams.get('filter')).toBe('pending');

    await page.reload();
    await eventually(() => names(main)).toEqual(['Tocadiscos sin pagar']);
    expect(await activeView(main)).toBe('pending');
    await page.context().close();
  });

  it('answers the keyboard shortcuts only when no one is typing and no modal is open', async () => {
    const { admin } = await seedFilterCompany('atajos');
    const { page, main } = await openPanel(admin);
    await eventually(() => names(main)).toHaveLength(2);
    await main.getByTestId('shortcut-hint').waitFor();

    await page.keyboard.press('2');
    await eventually(() => names(main)).toEqual(['Reloj pagado']);
    expect(await activeView(main)).toBe('paid');
    await page.keyboard.press('3');
    await eventually(() => names(main)).toEqual(['Tocadiscos sin pagar']);
    await page.keyboard.press('4');
    await main.getByText(t.payments.sections.ready).first().waitFor();
    expect(await activeView(main)).toBe('winners');
    await page.keyboard.press('1');
    await eventually(() => names(main)).toHaveLength(2);
    expect(await activeView(main)).toBe('all');

    // '/' focuses the search box and is not typed into it; '2' typed there is text, not a filter.
    await page.keyboard.press('/');
    expect(await searchBox(main).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await searchBox(main).inputValue()).toBe('');
    await page.keyboard.type('2');
    expect(await searchBox(main).inputValue()).toBe('2');
    expect(await activeView(main)).toBe('all');
    // Escape in the box clears it.
    await page.keyboard.press('Escape');
    expect(await searchBox(main).inputValue()).toBe('');

    // Escape elsewhere clears the applied search too.
    await searchBox(main).fill('reloj');
    await searchBox(main).press('Enter');
    await searchBox(main).blur();
    await page.keyboard.press('Escape');
    expect(await searchBox(main).inputValue()).toBe('');
    await eventually(() => new URL(page.url()).searchParams.has('search')).toBe(false);

    // With a modal open the digits belong to it.
    await row(main, 'Cámara abierta').getByRole('button', { name: a.actions.delete }).click();
    const dialog = page.getByRole('dialog', { name: a.delete.title });
    await dialog.waitFor();
    await page.keyboard.press('2');
    expect(await activeView(main)).toBe('all');
    await dialog.getByRole('button', { name: a.delete.cancel }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('pages with Siguiente, Anterior and Por página, and clamps a page past the end', async () => {
    const { companyId, admin } = await newCompany('paginas');
    await seed(companyId, staggered(Array.from({ length: 25 }, (_, i) => `Lote ${String(i + 1).padStart(2, '0')}`)));
    const { page, main } = await openPanel(admin);
    const previous = main.getByRole('button', { name: a.pagination.previous });
    const next = main.getByRole('button', { name: a.pagination.next });

    await eventually(() => names(main)).toHaveLength(20);
    expect((await names(main))[0]).toBe('Lote 25');
    expect(await pageOf(main)).toBe(fill(a.pagination.pageOf, { page: '1', pages: '2' }));
    expect(await previous.isDisabled()).toBe(true);

    await next.click();
    await eventually(() => names(main)).toEqual(['Lote 05', 'Lote 04', 'Lote 03', 'Lote 02', 'Lote 01']);
    expect(await pageOf(main)).toBe(fill(a.pagination.pageOf, { page: '2', pages: '2' }));
    expect(await next.isDisabled()).toBe(true);
    await previous.click();
    await eventually(async () => (await names(main))[0]).toBe('Lote 25');

    await main.getByLabel(a.pagination.pageSize).selectOption('10');
    await eventually(() => names(main)).toHaveLength(10);
    expect(await pageOf(main)).toBe(fill(a.pagination.pageOf, { page: '1', pages: '3' }));
    await next.click();
    await next.click();
    await eventually(() => names(main)).toHaveLength(5);
    expect(await pageOf(main)).toBe(fill(a.pagination.pageOf, { page: '3', pages: '3' }));
    const params = new URL(page.url()).searchParams;
    expect([params.get('page'), params.get('pageSize')]).toEqual(['3', '10']);

    // A stale link past the end lands on the last page.
    await page.goto(`${ctx.app.url}/admin?page=9&pageSize=10`);
    await eventually(() => names(main)).toHaveLength(5);
    expect(await pageOf(main)).toBe(fill(a.pagination.pageOf, { page: '3', pages: '3' }));
    expect(new URL(page.url()).searchParams.get('page')).toBe('3');
    await page.context().close();
  });

  it('deletes after confirmation, once per double click, shows the server refusal, and clamps the page', async () => {
    const { companyId, admin } = await newCompany('borrar');
    const db = ctx.app.ctx.db;
    const winner = await buildUser(db, { roles: ['buyer'] });
    const rows = staggered(Array.from({ length: 21 }, (_, i) => `Pieza ${String(i + 1).padStart(2, '0')}`));
    const [oldestId, heldId, lateId] = await seed(companyId, rows);
    const payment = await buildPayment(db, { winnerId: winner.id, companyId, paymentStatus: 'pending', totalAmount: 100 });
    await db
      .insert(paymentItems)
      .values({ paymentId: payment.id, paymentStatus: 'pending', auctionId: heldId as string, auctionName: 'Pieza 02', amount: 100 });

    const { page, main } = await openPanel(admin, { query: '?page=2' });
    await eventually(() => names(main)).toEqual(['Pieza 01']);
    const deletes: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'DELETE') deletes.push(req.url());
    });

    // The view link opens the public page in a new tab.
    const view = row(main, 'Pieza 01').getByRole('link', { name: a.actions.view });
    expect(await view.getAttribute('href')).toBe(`/auctions/${oldestId}`);
    expect(await view.getAttribute('target')).toBe('_blank');
    expect(await view.getAttribute('rel')).toBe('noopener noreferrer');

    // Cancel keeps it; a double click on the row's button opens a single confirmation.
    const deleteButton = row(main, 'Pieza 01').getByRole('button', { name: a.actions.delete });
    await deleteButton.dblclick();
    const dialog = page.getByRole('dialog', { name: a.delete.title });
    await dialog.getByText(a.delete.confirm).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
    await dialog.getByRole('button', { name: a.delete.cancel }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(deletes).toEqual([]);

    // Confirmed with a double click: one request, a green notice, and page 2 (now empty) becomes page 1.
    await deleteButton.click();
    await dialog.getByRole('button', { name: a.delete.confirmButton }).dblclick();
    await page.getByText(fill(a.delete.successMessage, { name: 'Pieza 01' })).waitFor();
    await eventually(() => pageOf(main)).toBe(fill(a.pagination.pageOf, { page: '1', pages: '1' }));
    await eventually(() => names(main)).toHaveLength(20);
    expect(new URL(page.url()).searchParams.has('page')).toBe(false);
    expect(deletes).toHaveLength(1);

    // An auction held by a payment: 'Eliminar' reads as disabled and says why before anyone confirms.
    const held = row(main, 'Pieza 02').getByRole('button', { name: a.actions.delete });
    expect(await held.getAttribute('aria-disabled')).toBe('true');
    await held.hover();
    await page.getByRole('tooltip').filter({ hasText: a.deleteBlocked.payment }).waitFor();
    // Playwright waits for an enabled button; the click is forced, as a user's would be.
    await held.click({ force: true });
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(deletes).toHaveLength(1);

    // Held after the list was read (a payment made meanwhile): the server refuses, its reason is shown and the row stays.
    await db
      .insert(paymentItems)
      .values({ paymentId: payment.id, paymentStatus: 'pending', auctionId: lateId as string, auctionName: 'Pieza 03', amount: 100 });
    await row(main, 'Pieza 03').getByRole('button', { name: a.actions.delete }).click();
    await dialog.getByRole('button', { name: a.delete.confirmButton }).click();
    const refusal = page.getByRole('alert').filter({ hasText: messages.auctions.deleteInPayment });
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain(a.delete.failedTitle);
    expect(await names(main)).toContain('Pieza 03');

    // Edit hands the id to the panel, which opens the auction form.
    await row(main, 'Pieza 04').getByRole('button', { name: a.actions.edit }).click();
    await page.getByRole('dialog').first().waitFor();
    await page.context().close();
  });

  it('turns rows into cards on a phone, with every action at hand', async () => {
    const { companyId, admin } = await newCompany('movil');
    const [id] = await seed(companyId, staggered(['Sombrero charro'], { status: 'active', endTime: new Date(Date.now() + HOUR) }));
    const { page, main } = await openPanel(admin, { mobile: true });
    const card = main.getByRole('listitem').filter({ hasText: 'Sombrero charro' });
    await card.waitFor();
    expect(await main.getByRole('table').count()).toBe(0);
    await card.getByText(a.status.active, { exact: true }).waitFor();
    expect(await card.getByRole('link', { name: a.actions.view }).getAttribute('href')).toBe(`/auctions/${id}`);
    expect(await card.getByRole('button', { name: a.actions.edit }).isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: a.actions.delete }).isVisible()).toBe(true);
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.context().close();
  });

  it('shows a new auction to another admin of the company without a reload', async () => {
    const { companyId, admin } = await newCompany('vivo');
    const colleague = await prepareUser(ctx.app, {
      email: `beto-${companyId}@ejemplo.mx`,
      name: 'Beto Vendedor',
      roles: ['admin', 'seller'],
      companyId,
      companyName: 'Tienda vivo',
    });
    await seed(companyId, staggered(['Florero de Talavera']));

    const author = await newPage(ctx.browser);
    await signInPage(author, ctx.app, admin);

    const watcher = await newPage(ctx.browser);
    await signInPage(watcher, ctx.app, colleague);
    const socketReady = watcher
      .waitForEvent('websocket')
      .then((ws) => ws.waitForEvent('framereceived', { predicate: (f) => String(f.payload).startsWith('40') }));
    await watcher.goto(`${ctx.app.url}/admin`);
    const main = watcher.getByRole('main');
    await eventually(() => names(main)).toEqual(['Florero de Talavera']);
    await socketReady;
    await watcher.evaluate(() => {
      (window as unknown as { sinRecargar: boolean }).sinRecargar = true;
    });

    // Categories are the platform's (a company admin may not add one): seeded straight in the database.
    const categoryId = await buildCategory(ctx.app, `Artesanías ${companyId}`);
    const created = await author.request.post(`${ctx.app.url}/api/auctions`, {
      data: { name: 'Alebrije de Oaxaca', description: 'Tallado a mano', categoryId, startingPrice: 850 },
      headers: { origin: ctx.app.url },
    });
    expect(created.status()).toBe(201);

    await eventually(() => names(main)).toEqual(['Alebrije de Oaxaca', 'Florero de Talavera']);
    expect(await counts(main)).toEqual({ all: 2, paid: 0, pending: 0 });
    expect(await watcher.evaluate(() => (window as unknown as { sinRecargar?: boolean }).sinRecargar)).toBe(true);
    await author.context().close();
    await watcher.context().close();
  });
});
