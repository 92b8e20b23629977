import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/domain/money.js';
import { refreshAuctionSearchText } from '../../src/server/reads/search-text.js';
import { buildCategory } from '../../test/support/actors.js';
import { buildAuction } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs, moveEndAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

const ctx = setupAppAndBrowser();
const a = t.auctions;

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

async function openPanel(user: E2eUser, opts: { query?: string; mobile?: boolean } = {}): Promise<{ page: Page; main: Locator }> {
  const page = await newPage(ctx.browser, { mobile: opts.mobile });
  await signInPage(page, ctx.app, user);
  await page.goto(`${ctx.app.url}/admin${opts.query ?? ''}`);
  const main = page.getByRole('main');
  await main.getByRole('heading', { name: a.title, exact: true }).waitFor();
  return { page, main };
}

const filterButton = (main: Locator, view: 'all' | 'paid' | 'pending' | 'winners') =>
  main.getByRole('group', { name: a.filters.label }).getByRole('button', { name: a.filters[view] });
const searchBox = (main: Locator) => main.getByRole('textbox', { name: a.search.label });
const names = (main: Locator) => main.getByTestId('auction-name').allInnerTexts();
const pageOf = (main: Locator) => main.getByTestId('page-of').innerText();

/** What the admin sees: the pressed filter, the search box, the page line, the first row. */
async function view(main: Locator) {
  let filter = '';
  for (const key of ['all', 'paid', 'pending', 'winners'] as const) {
    if ((await filterButton(main, key).getAttribute('aria-pressed')) === 'true') filter = key;
  }
  const first = (await names(main))[0] ?? null;
  const hasPager = (await main.getByTestId('page-of').count()) > 0;
  return { filter, search: await searchBox(main).inputValue(), page: hasPager ? await pageOf(main) : null, first };
}

describe('the auction list and the browser history', () => {
  it('page, filter and search each push one entry: Back and Forward step through them, and the list and the box follow', async () => {
    const { companyId, admin } = await newCompany('historial');
    const db = ctx.app.ctx.db;
    const base = Date.now() - 60 * 60_000;
    const ids: string[] = [];
    // 12 open auctions (two pages of 10), newest first; two of them are clocks.
    for (let i = 0; i < 12; i++) {
      const name = i === 3 ? 'Reloj de bolsillo' : i === 9 ? 'Reloj cucú' : `Artículo ${String(i).padStart(2, '0')}`;
      ids.push(
        (await buildAuction(db, { companyId, name, status: 'active', endTime: new Date(Date.now() + 86_400_000), createdAt: new Date(base + i * 60_000) })).id,
      );
    }
    await refreshAuctionSearchText(db, { auctionIds: ids });

    const { page, main } = await openPanel(admin, { query: '?pageSize=10' });
    const first = { filter: 'all', search: '', page: fill(a.pagination.pageOf, { page: '1', pages: '2' }), first: 'Artículo 11' };
    await eventually(() => view(main)).toEqual(first);

    // 1. The next page.
    await main.getByRole('button', { name: a.pagination.next }).click();
    const second = { filter: 'all', search: '', page: fill(a.pagination.pageOf, { page: '2', pages: '2' }), first: 'Artículo 01' };
    await eventually(() => view(main)).toEqual(second);
    // 2. Another filter (its own page 1).
    await filterButton(main, 'pending').click();
    await main.getByText(a.empty.noPendingTitle).waitFor();
    const third = { filter: 'pending', search: '', page: null, first: null };
    await eventually(() => view(main)).toEqual(third);
    // 3. Back to 'Todas' and a search typed slowly: several debounced applies, one entry.
    await filterButton(main, 'all').click();
    const fourth = first;
    await eventually(() => view(main)).toEqual(fourth);
    await searchBox(main).pressSequentially('reloj', { delay: 400 });
    const fifth = { filter: 'all', search: 'reloj', page: fill(a.pagination.pageOf, { page: '1', pages: '1' }), first: 'Reloj cucú' };
    await eventually(() => view(main)).toEqual(fifth);
    await eventually(() => new URL(page.url()).searchParams.get('search')).toBe('reloj');

    const steps = [first, second, third, fourth, fifth];
    for (let i = steps.length - 2; i >= 0; i--) {
      await page.goBack();
      await eventually(() => view(main)).toEqual(steps[i]);
    }
    // Back from the first view leaves the panel for what came before it (here a blank tab), never a sign-in page.
    expect(new URL(page.url()).pathname).toBe('/admin');
    for (let i = 1; i < steps.length; i++) {
      await page.goForward();
      await eventually(() => view(main)).toEqual(steps[i]);
    }
    await page.goBack();
    await page.goBack();
    await page.goBack();
    await page.goBack();
    await page.goBack();
    expect(page.url()).not.toContain('/auth/');
    expect(page.url()).not.toContain('/admin');
    await page.context().close();
  });

  it('Enter applies at once and ends the typing: the next words are an entry of their own', async () => {
    const { companyId, admin } = await newCompany('enter');
    const db = ctx.app.ctx.db;
    const ids = [
      (await buildAuction(db, { companyId, name: 'Reloj de oro', status: 'active', endTime: new Date(Date.now() + 86_400_000) })).id,
      (await buildAuction(db, { companyId, name: 'Reloj de plata', status: 'active', endTime: new Date(Date.now() + 86_400_000) })).id,
    ];
    await refreshAuctionSearchText(db, { auctionIds: ids });
    const { page, main } = await openPanel(admin);
    await eventually(() => names(main).then((n) => n.length)).toBe(2);
    await searchBox(main).fill('reloj');
    await searchBox(main).press('Enter');
    await eventually(() => new URL(page.url()).searchParams.get('search')).toBe('reloj');
    await searchBox(main).pressSequentially(' oro', { delay: 400 });
    await eventually(() => names(main)).toEqual(['Reloj de oro']);
    await page.goBack();
    await eventually(() => searchBox(main).inputValue()).toBe('reloj');
    await eventually(() => names(main).then((n) => n.length)).toBe(2);
    await page.goBack();
    await eventually(() => searchBox(main).inputValue()).toBe('');
    await page.context().close();
  });
});

describe('an auction that closes under the admin’s eyes', () => {
  it('says who won, with a link to it under Pendientes, where the price is the final one and the winner’s name is whole', async () => {
    const { companyId, admin } = await newCompany('cierre');
    const categoryId = await buildCategory(ctx.app, `Relojes ${companyId}`);
    const longName = 'Maximiliana Guadalupe Fernández de la Concepción Villaseñor y Hernández-Altamirano';
    const buyer = await prepareUser(ctx.app, { email: `maxi-${companyId}@ejemplo.mx`, name: longName, roles: ['buyer'] });

    const sellerPage = await newPage(ctx.browser);
    await signInPage(sellerPage, ctx.app, admin);
    const sold = await createAuctionAs(sellerPage, ctx.app, { name: 'Reloj Seiko 5 automático', categoryId, startingPrice: 700 });
    const unsold = await createAuctionAs(sellerPage, ctx.app, { name: 'Lámpara de latón', categoryId, startingPrice: 300 });
    const buyerPage = await newPage(ctx.browser);
    await signInPage(buyerPage, ctx.app, buyer);

    const { page, main } = await openPanel(admin);
    await page.setViewportSize({ width: 1366, height: 800 });
    await eventually(() => names(main).then((n) => n.sort())).toEqual([unsold.name, sold.name].sort());

    // Only with the panel open do both come near their end (however long a loaded machine took to open it), and one gets a bid.
    for (const auction of [sold, unsold]) await moveEndAs(sellerPage, ctx.app, auction, Date.now() + 12_000);
    const bid = await buyerPage.request.post(`${ctx.app.url}/api/auctions/${sold.id}/bids`, { data: { amount: 700 }, headers: { origin: ctx.app.url } });
    expect(bid.status(), await bid.text()).toBe(201);
    await sellerPage.context().close();
    await buyerPage.context().close();

    // Nobody's browser closes them: the server's scheduler does, and the panel hears of it.
    const won = page.getByTestId('closed-notice');
    await won.waitFor({ timeout: 30_000 });
    expect(await won.innerText()).toContain(fill(a.closed.wonMessage, { name: sold.name, winner: longName, price: formatMoney(700) }));
    await page.getByText(fill(a.closed.noBidsMessage, { name: unsold.name })).waitFor({ timeout: 30_000 });
    expect(await page.getByText(a.closed.noBidsTitle, { exact: true }).isVisible()).toBe(true);

    await won.getByRole('link', { name: a.closed.showPending }).click();
    await eventually(() => filterButton(main, 'pending').getAttribute('aria-pressed')).toBe('true');
    await eventually(() => names(main)).toEqual([sold.name]);
    expect(await searchBox(main).inputValue()).toBe(sold.name);
    expect(await main.getByRole('columnheader', { name: a.table.finalPrice }).isVisible()).toBe(true);
    expect(await main.getByTestId('final-price').innerText()).toBe(formatMoney(700));
    expect(await fitsWhole(main.getByTestId('auction-winner'))).toBe(true);
    expect(await main.getByTestId('auction-winner').innerText()).toBe(fill(a.table.winner, { name: longName }));

    // Back returns to 'Todas', where the unsold one stays, ended.
    await page.goBack();
    await eventually(() => names(main)).toEqual([unsold.name]);
    await page.context().close();

    // On a phone the list is cards: the same label, the same whole name.
    const phone = await openPanel(admin, { mobile: true, query: `?filter=pending&search=${encodeURIComponent('Seiko')}` });
    await eventually(() => names(phone.main)).toEqual([sold.name]);
    await phone.main.getByText(a.table.finalPrice, { exact: true }).waitFor();
    expect(await fitsWhole(phone.main.getByTestId('auction-winner'))).toBe(true);
    await phone.page.context().close();
  });
});

/** Nothing of the text is hidden: neither the element nor its cell (or card) clips it either way. */
async function fitsWhole(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const boxes = [el, el.closest('td') ?? el.closest('li')].filter((e) => e !== null) as Element[];
    return boxes.every((box) => box.scrollWidth <= box.clientWidth && box.scrollHeight <= box.clientHeight);
  });
}
