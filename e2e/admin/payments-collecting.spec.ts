import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/domain/money.js';
import { paymentItems, payments } from '../../src/server/db/schema.js';
import { buildWonAuction } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

/**
 * One bill per buyer per collecting account (one shipping charge per checkout), in the browser: two sellers of a
 * company the platform's account collects for, one buyer who won from both. 'Listos para facturar'
 * shows the buyer once with both sellers' items, and 'Enviar enlace de pago' makes one draft, one
 * link and one shipping charge.
 */

const ctx = setupAppAndBrowser();
const p = t.payments;
const COMPANY_ID = 'tienda-unida';

const ADMIN = { email: 'jefa.unida@ejemplo.mx', name: 'Julia Unida' };
const ANA = { email: 'ana.unida@ejemplo.mx', name: 'Ana Vendedora' };
const BETO = { email: 'beto.unida@ejemplo.mx', name: 'Beto Vendedor' };
const LUCIA = { email: 'lucia.compradora@ejemplo.mx', name: 'Lucía Compradora' };

let admin: E2eUser;
let ana: E2eUser;
let beto: E2eUser;
let lucia: E2eUser;

beforeAll(async () => {
  admin = await prepareUser(ctx.app, { ...ADMIN, roles: ['admin'], companyId: COMPANY_ID, companyName: 'Tienda Unida' });
  ana = await prepareUser(ctx.app, { ...ANA, roles: ['seller'], companyId: COMPANY_ID });
  beto = await prepareUser(ctx.app, { ...BETO, roles: ['seller'], companyId: COMPANY_ID });
  lucia = await prepareUser(ctx.app, { ...LUCIA, roles: ['buyer'] });
});

async function wonAuction(seller: E2eUser, name: string, price: number) {
  return buildWonAuction(ctx.app.ctx.db, {
    name,
    price,
    companyId: COMPANY_ID,
    sellerId: seller.id,
    winnerId: lucia.id,
    currentWinnerName: LUCIA.name,
    winnerWhatsapp: '+525512345678',
  });
}

const section = (main: Locator, key: keyof typeof p.sections) => main.getByRole('region', { name: p.sections[key], exact: true });
const rowsOf = (list: Locator, text: string) => list.getByRole('row').filter({ hasText: text });
const text = (s: string) => s.replace(/\s+/g, ' ').trim();
const items = async (scope: Locator) => (await scope.getByRole('listitem').allInnerTexts()).map(text).sort();

async function openBilling(user: E2eUser): Promise<{ page: Page; main: Locator }> {
  const page = await newPage(ctx.browser);
  await page.setViewportSize({ width: 1366, height: 800 });
  await signInPage(page, ctx.app, user);
  await page.goto(`${ctx.app.url}/admin`);
  const main = page.getByRole('main');
  await main.getByRole('group', { name: t.auctions.filters.label }).getByRole('button', { name: t.auctions.filters.winners }).click();
  await section(main, 'ready').getByRole('heading', { name: p.sections.ready }).waitFor();
  return { page, main };
}

describe('one bill per buyer per collecting account', () => {
  it("shows the buyer once with both sellers' items, and 'Enviar enlace de pago' makes one link with one shipping charge", async () => {
    const fromAna = await wonAuction(ana, 'Tocadiscos Dual', 1200);
    const fromBeto = await wonAuction(beto, 'Vinilo de Los Panchos', 300);
    const { page, main } = await openBilling(admin);

    const ready = section(main, 'ready');
    const row = rowsOf(ready, LUCIA.name);
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await items(row)).toEqual([`Tocadiscos Dual ${formatMoney(1200)}`, `Vinilo de Los Panchos ${formatMoney(300)}`].sort());

    const posts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().includes('/api/payments')) posts.push(new URL(req.url()).pathname.replace(/[0-9a-f-]{36}/, ':id'));
    });
    // The link goes out by WhatsApp in a tab the click opens.
    const whatsappTab = page.context().waitForEvent('page');
    await row.getByRole('button', { name: p.actions.sendLink }).click();
    const dialog = page.getByRole('dialog', { name: p.confirm.createTitle });
    await dialog.getByRole('textbox', { name: p.shipping.carrier }).fill('Estafeta');
    await dialog.getByRole('textbox', { name: p.shipping.cost }).fill('150');
    const finalized = page.waitForResponse((res) => res.url().endsWith('/finalize') && res.request().method() === 'POST');
    await dialog.getByRole('button', { name: p.confirm.submitSend }).click();
    const answer = (await (await finalized).json()) as { paymentLinkUrl: string; payment: { id: string; grandTotal: number } };
    await whatsappTab;

    // One draft, one link: both sellers' items, one shipping charge.
    expect(posts).toEqual(['/api/payments/draft', '/api/payments/:id/update-shipping', '/api/payments/:id/finalize']);
    expect(answer.payment.grandTotal).toBe(1200 + 300 + 150);
    const pending = section(main, 'pending');
    const pendingRow = rowsOf(pending, LUCIA.name);
    await pendingRow.first().waitFor();
    expect(await pendingRow.count()).toBe(1);
    expect(await items(pendingRow)).toEqual([`Tocadiscos Dual ${formatMoney(1200)}`, `Vinilo de Los Panchos ${formatMoney(300)}`].sort());
    expect(await pendingRow.getByRole('link', { name: p.actions.openLink }).getAttribute('href')).toBe(answer.paymentLinkUrl);
    await ready.getByText(p.empty.ready).waitFor();

    const rows = await ctx.app.ctx.db.select().from(payments).where(eq(payments.winnerId, lucia.id));
    expect(rows.map((r) => ({ id: r.id, status: r.paymentStatus, shippingCost: r.shippingCost, sellerId: r.sellerId }))).toEqual([
      { id: answer.payment.id, status: 'pending', shippingCost: 150, sellerId: null },
    ]);
    const billed = await ctx.app.ctx.db.select({ auctionId: paymentItems.auctionId }).from(paymentItems).where(eq(paymentItems.paymentId, answer.payment.id));
    expect(billed.map((b) => b.auctionId).sort()).toEqual([fromAna.id, fromBeto.id].sort());
    await page.context().close();
  });
});
