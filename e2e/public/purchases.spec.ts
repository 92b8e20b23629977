import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/domain/money.js';
import { paymentItems, payments } from '../../src/server/db/schema.js';
import { buildCompany, buildPayment, buildWonAuction } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

/**
 * 'Mis compras' on a phone (390 × 844): a buyer with a bill to pay sees the lot, the total and
 * 'Pagar' on the first screen; a buyer who has won nothing sees the empty state; signed out, the
 * page asks to sign in.
 */
const ctx = setupAppAndBrowser();
const m = t.purchases;

const BUYER = { email: 'lola.compras@ejemplo.mx', name: 'Lola Compras' };
const NOBODY = { email: 'nico.nada@ejemplo.mx', name: 'Nico Nada' };
let buyer: E2eUser;
let paymentId = '';
let auctionId = '';

beforeAll(async () => {
  buyer = await prepareUser(ctx.app, { ...BUYER, roles: ['buyer'] });
  await prepareUser(ctx.app, { ...NOBODY, roles: ['buyer'] });
  const db = ctx.app.ctx.db;
  await buildCompany(db, { id: 'remates-lola', name: 'Remates Oaxaca' });
  const auction = await buildWonAuction(db, { name: 'Alebrije de Arrazola', price: 1850, winnerId: buyer.id, companyId: 'remates-lola' });
  const payment = await buildPayment(db, {
    winnerId: buyer.id,
    winnerName: BUYER.name,
    companyId: 'remates-lola',
    paymentStatus: 'pending',
    totalAmount: 1850,
    shippingCarrier: 'Estafeta',
    shippingCost: 150,
    provider: 'sandbox',
    deadlineAt: new Date(Date.now() + 72 * 3_600_000),
  });
  paymentId = payment.id;
  auctionId = auction.id;
  await db.insert(paymentItems).values({ paymentId, paymentStatus: 'pending', auctionId: auction.id, auctionName: auction.name, amount: 1850 });
  // The sandbox's checkout of this very bill, as finalize would have made it.
  await db
    .update(payments)
    .set({ paymentLink: `${ctx.app.url}/pay/${paymentId}` })
    .where(eq(payments.id, paymentId));
});

describe('Mis compras on a phone', () => {
  it('shows a buyer the lot, the total and Pagar on the first screen, and Pagar opens the checkout', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    await signInPage(page, ctx.app, buyer);
    await page.goto(`${ctx.app.url}/compras`);
    await page.getByRole('heading', { name: m.title, level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Remates Oaxaca' }).waitFor();
    const bill = page.getByTestId('purchase-bill');
    await bill.getByText('Alebrije de Arrazola').waitFor();
    expect(await bill.getByTestId('bill-total').textContent()).toBe(formatMoney(2000));
    expect(await bill.getByTestId('bill-status').textContent()).toBe(m.status.toPay);
    await bill.getByText(fill(m.shippingWith, { carrier: 'Estafeta' })).waitFor();
    const pay = bill.getByRole('link', { name: m.pay });
    const box = await pay.boundingBox();
    expect(box, 'Pagar is on the page').not.toBeNull();
    expect((box?.y ?? 0) + (box?.height ?? 0), 'Pagar is on the first screen').toBeLessThanOrEqual(844);
    // Designed for 390 px: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const findings = await auditPage(page, 'Mis compras');
    expect(findings, formatFindings(findings)).toEqual([]);

    await pay.click();
    await page.waitForURL(`**/pay/${paymentId}`);
    await page.getByRole('heading', { name: t.checkout.title, level: 1 }).waitFor();
  });

  it('reaches it from the auction page the buyer won, by plain links: the page asks nothing more for them', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    await signInPage(page, ctx.app, buyer);
    const asked: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/api/')) asked.push(url.pathname);
    });
    await page.goto(`${ctx.app.url}/auctions/${auctionId}`);
    await page.getByTestId('ended-notice').waitFor();
    expect(await page.getByTestId('won-purchases-link').getAttribute('href')).toBe('/compras');
    await page.waitForLoadState('networkidle');
    expect(asked.filter((path) => path.includes('purchases'))).toEqual([]);
    // On a phone the header's links are in its menu.
    await page.getByTestId('header-menu').click();
    const header = page.getByTestId('menu-purchases');
    expect(await header.textContent()).toBe(t.header.purchases);
    expect(await header.getAttribute('href')).toBe('/compras');
    await header.click();
    await page.getByTestId('purchase-bill').getByText('Alebrije de Arrazola').waitFor();
  });

  it('tells a buyer who won nothing how to start, with a way to the shows', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    await signInPage(page, ctx.app, NOBODY);
    await page.goto(`${ctx.app.url}/compras`);
    const empty = page.getByTestId('purchases-empty');
    await empty.getByText(m.empty).waitFor();
    expect(await empty.getByRole('link', { name: m.goLive }).getAttribute('href')).toBe('/live');
    const findings = await auditPage(page, 'Mis compras, empty');
    expect(findings, formatFindings(findings)).toEqual([]);
  });

  it('asks a signed-out visitor to sign in', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    await page.goto(`${ctx.app.url}/compras`);
    await page.getByTestId('purchases-sign-in').getByRole('button', { name: m.signIn }).waitFor();
  });
});
