import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/domain/money.js';
import { MAX_SHIPPING_COST } from '../../src/domain/payments.js';
import { paymentItems, payments } from '../../src/server/db/schema.js';
import { buildPayment, buildWonAuction } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * Billing in the browser: 'Enviar enlace de pago' creates nothing until confirmed, the shipping
 * cost keeps what was typed and says what is wrong, the payments search ignores accents and shows
 * only real actions, and 'Pagos realizados' fits at 1366 px with the platform's requested payouts
 * and their filter.
 */

const ctx = setupAppAndBrowser();
const p = t.payments;
const COMPANY_ID = 'tienda-pulida';

let seller: E2eUser;
let sofia: E2eUser;
let tomas: E2eUser;
let platform: E2eUser;

const SELLER = { email: 'vendedora.pulida@ejemplo.mx', name: 'Paola Pulida' };
const SOFIA = { email: 'sofia.ganadora@ejemplo.mx', name: 'Sofía Ganadora' };
const TOMAS = { email: 'tomas.comprador@ejemplo.mx', name: 'Tomás Comprador' };
const PLATFORM = { email: 'plataforma.pulida@ejemplo.mx', name: 'Pablo Plataforma' };
/** A long item name: the paid list must show it whole at 1366 px, not cut. */
const LONG_ITEM = 'Muñeca de porcelana alemana de colección con vestido de encaje original';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: COMPANY_ID, companyName: 'Tienda Pulida' });
  sofia = await prepareUser(ctx.app, { ...SOFIA, roles: ['buyer'] });
  tomas = await prepareUser(ctx.app, { ...TOMAS, roles: ['buyer'] });
  platform = await prepareUser(ctx.app, { ...PLATFORM, roles: ['admin'], companyId: null });
});

async function wonAuction(name: string, price: number, winner = sofia) {
  return buildWonAuction(ctx.app.ctx.db, {
    name,
    price,
    companyId: COMPANY_ID,
    sellerId: seller.id,
    winnerId: winner.id,
    currentWinnerName: winner.name,
    winnerWhatsapp: '+525512345678',
  });
}

/** A paid payment of one item, in the payout state given, won by Sofía unless another winner is given. */
async function paidPayment(item: string, carrier: string, payoutStatus: 'none' | 'requested', winner = sofia) {
  const auction = await wonAuction(item, 800, winner);
  const row = await buildPayment(ctx.app.ctx.db, {
    winnerId: winner.id,
    winnerName: winner.name,
    winnerWhatsapp: '+525512345678',
    sellerId: seller.id,
    companyId: COMPANY_ID,
    totalAmount: 800,
    shippingCarrier: carrier,
    shippingCost: 150,
    paymentStatus: 'paid',
    paidAt: new Date(),
    provider: 'sandbox',
    providerStatus: 'approved',
    payoutStatus,
    ...(payoutStatus === 'requested' ? { payoutRequestedAt: new Date() } : {}),
  });
  await ctx.app.ctx.db.insert(paymentItems).values({ paymentId: row.id, paymentStatus: 'paid', auctionId: auction.id, auctionName: item, amount: 800 });
  return row.id;
}

async function openPanel(user: E2eUser, viewport = { width: 1366, height: 800 }): Promise<{ page: Page; main: Locator }> {
  const page = await newPage(ctx.browser);
  await page.setViewportSize(viewport);
  await signInPage(page, ctx.app, user);
  await page.goto(`${ctx.app.url}/admin`);
  return { page, main: page.getByRole('main') };
}

async function openBilling(user: E2eUser) {
  const opened = await openPanel(user);
  await opened.main.getByRole('group', { name: t.auctions.filters.label }).getByRole('button', { name: t.auctions.filters.winners }).click();
  await section(opened.main, 'ready').getByRole('heading', { name: p.sections.ready }).waitFor();
  return opened;
}

const section = (main: Locator, key: keyof typeof p.sections) => main.getByRole('region', { name: p.sections[key], exact: true });
const rowOf = (list: Locator, text: string) => list.getByRole('row').filter({ hasText: text });

/** True when the element shows all of its content (nothing cut or scrolled away). */
const fits = (locator: Locator) => locator.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight);

describe('payment link, shipping cost, payments search and payouts', () => {
  it("'Enviar enlace de pago' creates no draft until confirmed, and a bad shipping cost keeps what was typed", async () => {
    await wonAuction('Trompo de colección', 500);
    const { page, main } = await openBilling(seller);
    const draftRequests: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().includes('/api/payments/')) draftRequests.push(req.url());
    });
    const ready = section(main, 'ready');
    const row = rowOf(ready, 'Trompo de colección');
    await row.getByRole('button', { name: p.actions.sendLink }).click();
    const dialog = page.getByRole('dialog', { name: p.confirm.createTitle });
    await dialog.waitFor();

    // The shipping cost: '-120' is kept as typed and refused in words, not shown as '$0120'.
    const cost = dialog.getByRole('textbox', { name: p.shipping.cost });
    await cost.fill('-120');
    await dialog.getByRole('button', { name: p.confirm.submitSend }).click();
    await dialog.getByText(p.shipping.errors.shippingCostNegative).waitFor();
    expect(await cost.inputValue()).toBe('-120');
    // A huge cost is refused with the maximum, not silently capped.
    await cost.fill('99999999999');
    await dialog.getByRole('button', { name: p.confirm.submitSend }).click();
    await dialog.getByText(fill(p.shipping.errors.shippingCostTooHigh, { max: formatMoney(MAX_SHIPPING_COST) })).waitFor();
    expect(await cost.inputValue()).toBe('99999999999');

    // The payment link: closing the question leaves nothing behind.
    await dialog.getByRole('button', { name: p.confirm.cancel }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(draftRequests).toEqual([]);
    const rows = await ctx.app.ctx.db.select({ id: payments.id }).from(payments).where(eq(payments.winnerId, sofia.id));
    expect(rows).toEqual([]);
    expect(await row.isVisible()).toBe(true);
    expect(await section(main, 'drafts').getByTestId('billing-drafts-empty').isVisible()).toBe(true);
    await page.context().close();
  });

  it("'Pagos realizados' fits at 1366 px; the platform sees requested payouts, marks only those, and filters them", async () => {
    const requested = await paidPayment(LONG_ITEM, 'Paquetería Rápida del Bajío', 'requested');
    const notAsked = await paidPayment('Reloj de bolsillo', 'Estafeta', 'none');
    const { page, main } = await openBilling(platform);
    const paid = section(main, 'paid');
    const askedRow = paid.locator(`[data-row-id="${requested}"]`);
    const quietRow = paid.locator(`[data-row-id="${notAsked}"]`);
    await askedRow.waitFor();

    // Nothing cut: the table needs no sideways scroll, and the payout and item cells show all they hold.
    const scroller = paid.locator('table').locator('xpath=..');
    expect(await scroller.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const headers = (await paid.getByRole('columnheader').allTextContents()).map((h) => h.trim());
    const payoutIndex = headers.indexOf(p.columns.payout);
    expect(payoutIndex, headers.join(' | ')).toBeGreaterThanOrEqual(0);
    const payoutCell = askedRow.getByRole('cell').nth(payoutIndex);
    expect(await fits(payoutCell)).toBe(true);
    for (const inner of await payoutCell.locator('*').all()) expect(await fits(inner)).toBe(true);
    expect(await fits(askedRow.getByTitle(LONG_ITEM))).toBe(true);
    const box = await payoutCell.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(1366);

    // Requested: said so, with the button; not requested: said so, no button.
    expect(await askedRow.getByText(p.payout.requested, { exact: true }).isVisible()).toBe(true);
    expect(await askedRow.getByRole('button', { name: p.actions.markPaidOut }).isVisible()).toBe(true);
    expect(await quietRow.getByText(p.payout.none, { exact: true }).isVisible()).toBe(true);
    expect(await quietRow.getByRole('button', { name: p.actions.markPaidOut }).count()).toBe(0);

    // The filter shows only the requested ones.
    await paid.getByTestId('payout-filter').getByText(p.payout.requested, { exact: true }).click();
    await eventually(async () => [await quietRow.count(), await askedRow.count()]).toEqual([0, 1]);

    await askedRow.getByRole('button', { name: p.actions.markPaidOut }).click();
    await page.getByRole('alert').filter({ hasText: p.notices.markedPaidOut }).first().waitFor();
    await eventually(() => askedRow.count()).toBe(0);
    await paid.getByText(p.payoutFilter.empty).waitFor();
    await page.context().close();
  });

  it("the 'Pagos' search finds items and carriers ignoring accents and case, and shows only real actions", async () => {
    const porcelain = await paidPayment('Figura de Sofía en cerámica', 'Envíos Águila', 'none');
    // Won by someone else: 'sofia' must find the item name, not the winner.
    const other = await paidPayment('Tren de cuerda', 'DHL', 'none', tomas);
    const { page } = await openPanel(platform);
    await page.getByRole('navigation').getByRole('button', { name: t.admin.nav.payments }).click();
    const modal = page.getByRole('dialog', { name: p.modal.title });
    const list = modal.getByRole('table', { name: p.modal.listLabel });
    await list.waitFor();
    const search = modal.getByRole('searchbox', { name: p.modal.searchLabel });

    const shownIds = () => list.locator('[data-row-id]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row-id')));
    await eventually(shownIds).toContain(other);
    for (const q of ['sofia', 'CERAMICA', 'envios aguila']) {
      await search.fill(q);
      await search.press('Enter');
      // The match, once the answer is in, and never the other row, stale or not. (The earlier
      // tests' payments, also won by Sofía, match 'sofia' too.)
      await eventually(async () => {
        const ids = await shownIds();
        return { porcelain: ids.includes(porcelain), other: ids.includes(other) };
      }).toEqual({ porcelain: true, other: false });
    }

    // Paid payments the seller has not asked to be paid out: the platform has nothing to do, so no actions column.
    await modal.getByRole('radiogroup', { name: p.modal.statusLabel }).getByText(p.status.paid, { exact: true }).click();
    await list.locator(`[data-row-id="${porcelain}"]`).waitFor();
    await eventually(async () => (await list.getByRole('columnheader').allTextContents()).map((h) => h.trim())).not.toContain(p.columns.actions);
    expect(await list.getByText('—', { exact: true }).count()).toBe(0);
    await page.context().close();
  });
});
