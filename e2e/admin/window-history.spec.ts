import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { paymentItems } from '../../src/server/db/schema.js';
import { buildAuction, buildPayment } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * The panel's windows: which window is open and its filters live in the URL,
 * each change is a history entry, Back steps back through them and then closes the window (staying
 * in the panel), Forward reopens it, a reload keeps it, and a window the user may not open is not.
 */

const ctx = setupAppAndBrowser();
const u = t.users;
const p = t.payments;
const COMPANY_ID = 'tienda-historial';

let admin: E2eUser;
let seller: E2eUser;
let buyer: E2eUser;

beforeAll(async () => {
  admin = await prepareUser(ctx.app, { email: 'admin.historial@ejemplo.mx', name: 'Ana Historial', roles: ['admin'] });
  seller = await prepareUser(ctx.app, {
    email: 'vendedora.historial@ejemplo.mx',
    name: 'Vera Vendedora',
    roles: ['seller'],
    companyId: COMPANY_ID,
    companyName: 'Tienda Historial',
  });
  // 22 buyers named 'Cliente …': two pages of 20 once filtered and searched.
  for (let i = 0; i < 22; i++) {
    const n = String(i).padStart(2, '0');
    const user = await prepareUser(ctx.app, { email: `cliente${n}@ejemplo.mx`, name: `Cliente ${n}`, roles: ['buyer'] });
    if (i === 0) buyer = user;
  }
});

async function openPanel(user: E2eUser, query = ''): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, user);
  await page.goto(`${ctx.app.url}/admin${query}`);
  await page.getByRole('main').getByRole('heading', { name: t.auctions.title, exact: true }).waitFor();
  return page;
}

const usersDialog = (page: Page) => page.getByRole('dialog', { name: u.title });

/** What the admin sees: whether 'Usuarios' is open, its tab, role filter, search box and page line. */
async function usersView(page: Page) {
  const dialog = usersDialog(page);
  if ((await dialog.count()) === 0) return { open: false };
  const tab = (await dialog.getByRole('tab', { name: u.tabs.invitations }).getAttribute('aria-selected')) === 'true' ? 'invitations' : 'users';
  if (tab === 'invitations') return { open: true, tab };
  let role = '';
  for (const key of ['all', 'seller', 'admin', 'buyer'] as const) {
    if (await dialog.getByRole('radio', { name: u.filters[key], exact: true }).isChecked({ timeout: 1000 })) role = key;
  }
  const pager = dialog.getByRole('navigation', { name: u.pagination.label });
  const search = await dialog.getByRole('searchbox', { name: u.searchLabel }).inputValue();
  const pageLine = (await pager.count()) > 0 ? await pager.getByText(/^Página/).innerText() : null;
  const busy = await dialog.locator('[aria-busy="true"]').count();
  return { open: true, tab, role, search, page: pageLine, busy: busy > 0 };
}

const pageOf = (page: number, total: number) => fill(u.pagination.page, { page: String(page), total: String(total) });

describe("the panel's windows and the browser history", () => {
  it("'Usuarios': opening, role, search, page and tab each push an entry; Back steps back and closes, Forward reopens, reload keeps it", async () => {
    const page = await openPanel(admin);
    const start = new URL(page.url());
    expect(start.search).toBe('');

    await page.getByRole('navigation').getByRole('button', { name: t.admin.nav.users }).click();
    const dialog = usersDialog(page);
    await dialog.waitFor();
    const opened = { open: true, tab: 'users', role: 'all', search: '', page: pageOf(1, 2), busy: false };
    await eventually(() => usersView(page)).toEqual(opened);
    expect(new URL(page.url()).searchParams.get('window')).toBe('users');

    await dialog.getByText(u.filters.buyer, { exact: true }).click();
    const buyers = { ...opened, role: 'buyer' };
    await eventually(() => usersView(page)).toEqual(buyers);

    // Typed slowly: several debounced searches, one entry.
    await dialog.getByRole('searchbox', { name: u.searchLabel }).pressSequentially('cliente', { delay: 350 });
    const searched = { ...buyers, search: 'cliente' };
    await eventually(() => usersView(page)).toEqual(searched);

    await dialog.getByRole('button', { name: u.pagination.next }).click();
    const second = { ...searched, page: pageOf(2, 2) };
    await eventually(() => usersView(page)).toEqual(second);

    await dialog.getByRole('tab', { name: u.tabs.invitations }).click();
    const invitations = { open: true, tab: 'invitations' };
    await eventually(() => usersView(page)).toEqual(invitations);

    const steps = [opened, buyers, searched, second, invitations];
    for (let i = steps.length - 2; i >= 0; i--) {
      await page.goBack();
      await eventually(() => usersView(page)).toEqual(steps[i]);
    }
    // One more Back closes the window and stays in the panel, never on a sign-in screen.
    await page.goBack();
    await eventually(() => usersView(page)).toEqual({ open: false });
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('main').getByRole('heading', { name: t.auctions.title, exact: true }).waitFor();
    expect(await page.getByRole('button', { name: t.auth.signInWithGoogle }).count()).toBe(0);

    // Forward reopens it, and walks forward through the same views.
    for (const step of steps.slice(0, 4)) {
      await page.goForward();
      await eventually(() => usersView(page)).toEqual(step);
    }
    // A reload (or the same link in another tab) opens the window with its filters and page.
    expect(new URL(page.url()).searchParams.get('role')).toBe('buyer');
    await page.reload();
    await dialog.waitFor();
    await eventually(() => usersView(page)).toEqual(second);
    await page.context().close();
  });

  it("'Pagos': the status filter is an entry; closing goes back to the panel as it was, and Forward reopens it filtered", async () => {
    const auction = await buildAuction(ctx.app.ctx.db, {
      name: 'Lámpara de latón',
      status: 'ended',
      endTime: new Date(Date.now() - 60_000),
      companyId: COMPANY_ID,
      sellerId: seller.id,
      currentPrice: 500,
    });
    const paid = await buildPayment(ctx.app.ctx.db, {
      winnerId: buyer.id,
      winnerName: buyer.name,
      sellerId: seller.id,
      companyId: COMPANY_ID,
      totalAmount: 500,
      paymentStatus: 'paid',
      paidAt: new Date(),
    });
    await ctx.app.ctx.db
      .insert(paymentItems)
      .values({ paymentId: paid.id, paymentStatus: 'paid', auctionId: auction.id, auctionName: 'Lámpara de latón', amount: 500 });

    const page = await openPanel(seller, '?filter=pending');
    const modal = page.getByRole('dialog', { name: p.modal.title });
    const statusGroup = modal.getByRole('radiogroup', { name: p.modal.statusLabel });
    const checked = async () => {
      if ((await modal.count()) === 0) return null;
      for (const key of ['all', 'draft', 'pending', 'paid', 'canceled'] as const) {
        const label = key === 'all' ? p.modal.allStatuses : p.status[key];
        if (await statusGroup.getByRole('radio', { name: label, exact: true }).isChecked({ timeout: 1000 })) return key;
      }
      return '?';
    };

    await page.getByRole('navigation').getByRole('button', { name: t.admin.nav.payments }).click();
    await modal.getByRole('table', { name: p.modal.listLabel }).waitFor();
    await eventually(checked).toBe('all');
    await statusGroup.getByText(p.status.canceled, { exact: true }).click();
    await modal.getByTestId('payments-modal-empty').waitFor();
    await eventually(checked).toBe('canceled');

    await page.goBack();
    await eventually(checked).toBe('all');
    await modal.locator(`[data-row-id="${paid.id}"]`).waitFor();
    await page.goForward();
    await eventually(checked).toBe('canceled');

    // The close button goes back to the panel as it was before the window (its own filter kept)...
    await modal.getByRole('button', { name: t.common.close }).click();
    await eventually(checked).toBe(null);
    await eventually(() => new URL(page.url()).search).toBe('?filter=pending');
    // ...and Forward reopens the window as it was left.
    await page.goForward();
    await eventually(checked).toBe('all');
    await page.goForward();
    await eventually(checked).toBe('canceled');

    // From a link, Escape closes it too: there is no earlier entry of ours, so the panel without the window is pushed.
    await page.goto(`${ctx.app.url}/admin?window=payments&status=paid`);
    await modal.locator(`[data-row-id="${paid.id}"]`).waitFor();
    await eventually(checked).toBe('paid');
    await page.keyboard.press('Escape');
    await eventually(checked).toBe(null);
    expect(new URL(page.url()).search).toBe('');
    await page.context().close();
  });

  it('a window the user may not open is simply not opened', async () => {
    const page = await openPanel(seller, '?window=categories');
    await page.getByRole('navigation').getByRole('button', { name: t.admin.nav.payments }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByRole('navigation').getByRole('button', { name: t.admin.nav.categories }).count()).toBe(0);
    await page.context().close();
  });
});
