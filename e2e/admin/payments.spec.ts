import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/domain/money.js';
import type { Role } from '../../src/domain/role-rules.js';
import { reserveCheckout } from '../../src/server/features/payments/bills/checkout.js';
import { createDraft, updateShipping } from '../../src/server/features/payments/bills/service.js';
import { buildCategory } from '../../test/support/actors.js';
import { buildAuction } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

const ctx = setupAppAndBrowser();
const p = t.payments;
const b = t.bidding;
const c = t.checkout;

const SELLER = { email: 'vendedora.cobros@ejemplo.mx', name: 'Celia Cobros' };
const ANA = { email: 'ana.ganadora@ejemplo.mx', name: 'Ana Ganadora' };
const BRUNO = { email: 'bruno.ganador@ejemplo.mx', name: 'Bruno Ganador' };
const PLATFORM = { email: 'paula.plataforma@ejemplo.mx', name: 'Paula Plataforma' };
const COMPANY = 'Tienda Cobros';

let seller: E2eUser;
let ana: E2eUser;
let bruno: E2eUser;
let platform: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'tienda-cobros', companyName: COMPANY });
  ana = await prepareUser(ctx.app, { ...ANA, roles: ['buyer'] });
  bruno = await prepareUser(ctx.app, { ...BRUNO, roles: ['buyer'] });
  // An admin without a company runs the platform: only it marks a seller's payout done.
  platform = await prepareUser(ctx.app, { ...PLATFORM, roles: ['admin'], companyId: null });
  categoryId = await buildCategory(ctx.app, 'Juguetes antiguos');
});

async function signedInPage(user: Pick<E2eUser, 'email' | 'name'>, opts: { mobile?: boolean } = {}): Promise<Page> {
  const page = await newPage(ctx.browser, opts);
  await signInPage(page, ctx.app, user);
  return page;
}

/**
 * The seller lists an item ending in a few seconds, the buyer bids the starting price on the public
 * page in their own browser, and the server's scheduler closes it: the buyer's page says they won.
 */
async function winAuction(buyerPage: Page, name: string, startingPrice: number): Promise<void> {
  const sellerPage = await signedInPage(seller);
  const auction = await createAuctionAs(sellerPage, ctx.app, { name, categoryId, startingPrice, endTime: Date.now() + 12_000 });
  await sellerPage.context().close();

  const history = buyerPage.waitForResponse((res) => res.url().includes(`/api/auctions/${auction.id}/bids`) && res.ok());
  await buyerPage.goto(`${ctx.app.url}/auctions/${auction.id}`);
  await history;
  await buyerPage.getByRole('button', { name: b.form.submit, exact: true }).click();
  const review = buyerPage.getByRole('dialog', { name: b.confirm.title });
  expect(await review.getByTestId('review-amount').innerText()).toBe(formatMoney(startingPrice));
  const answered = buyerPage.waitForResponse((res) => res.url().endsWith('/bids') && res.request().method() === 'POST');
  await review.getByRole('button', { name: b.confirm.submit }).click();
  expect((await answered).status()).toBe(201);

  // Nobody's browser closes it: the scheduler does, and the winner's page hears it.
  await buyerPage.getByTestId('ended-notice').getByText(b.ended.youWon, { exact: true }).waitFor({ timeout: 25_000 });
}

/** The panel's 'Resumen de ganadores', once its live connection is up (payments move without a reload). */
async function openBilling(user: E2eUser): Promise<{ page: Page; main: Locator }> {
  const page = await signedInPage(user);
  const socketReady = page.waitForEvent('websocket').then((ws) => ws.waitForEvent('framereceived', { predicate: (f) => String(f.payload).startsWith('40') }));
  await page.goto(`${ctx.app.url}/admin`);
  const main = page.getByRole('main');
  await main.getByRole('group', { name: t.auctions.filters.label }).getByRole('button', { name: t.auctions.filters.winners }).click();
  await section(main, 'ready').getByRole('heading', { name: p.sections.ready }).waitFor();
  await socketReady;
  return { page, main };
}

const section = (main: Locator, key: keyof typeof p.sections) => main.getByRole('region', { name: p.sections[key], exact: true });
const rowOf = (list: Locator, winner: string) => list.getByRole('row').filter({ hasText: winner });
const text = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A row's cell under the column headed `column`. */
async function cellOf(list: Locator, row: Locator, column: string): Promise<Locator> {
  const headers = (await list.getByRole('columnheader').allTextContents()).map(text);
  const index = headers.indexOf(column);
  expect(index, `column ${column} in ${headers.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return row.getByRole('cell').nth(index);
}

/** What a cell shows, its whitespace folded. */
const cell = async (list: Locator, row: Locator, column: string) => text(await (await cellOf(list, row, column)).innerText());
/** A badge's word as written (the badge shows it in capitals). */
const badge = async (list: Locator, row: Locator, column: string) => text((await (await cellOf(list, row, column)).textContent()) ?? '');

const items = async (scope: Locator) => (await scope.getByRole('listitem').allInnerTexts()).map(text);
const notice = (page: Page, message: string) => page.getByRole('alert').filter({ hasText: message }).first();

describe('billing the winners: draft, link, checkout, payout', () => {
  it('bills a won auction, the buyer pays on the sandbox checkout, and the payout is requested and paid out', async () => {
    const buyer = await signedInPage(ana, { mobile: true });
    await winAuction(buyer, 'Trompo de madera antiguo', 500);

    const { page, main } = await openBilling(seller);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.app.url });

    // 'Listos para facturar': the winner, the item with its price, the total; no shipping yet.
    const ready = section(main, 'ready');
    const readyRow = rowOf(ready, ANA.name);
    await readyRow.waitFor();
    expect(await items(readyRow)).toEqual([`Trompo de madera antiguo ${formatMoney(500)}`]);
    expect(await cell(ready, readyRow, p.columns.total)).toBe(formatMoney(500));
    expect(await cell(ready, readyRow, p.columns.shipping)).toBe(p.noShipping);
    expect(await badge(ready, readyRow, p.columns.status)).toBe(p.readyBadge);

    await readyRow.getByRole('button', { name: p.actions.createDraft }).click();
    await notice(page, p.notices.draftCreated).waitFor();
    const drafts = section(main, 'drafts');
    const draftRow = rowOf(drafts, ANA.name);
    await draftRow.waitFor();
    await ready.getByText(p.empty.ready).waitFor();
    expect(await items(draftRow)).toEqual([`Trompo de madera antiguo ${formatMoney(500)}`]);

    // Carrier and cost typed inline, each saved when the field loses focus.
    const carrier = draftRow.getByRole('textbox', { name: fill(p.shipping.carrierLabelFor, { name: ANA.name }) });
    const cost = draftRow.getByRole('textbox', { name: fill(p.shipping.costLabelFor, { name: ANA.name }) });
    for (const [field, value] of [
      [carrier, 'Estafeta'],
      [cost, '150'],
    ] as const) {
      // Listening before typing: the save must come from this field's blur, whenever that lands.
      const saved = page.waitForResponse((res) => res.url().endsWith('/update-shipping') && res.request().method() === 'POST');
      await field.fill(value);
      await field.blur();
      expect((await saved).status()).toBe(200);
    }
    // The total with shipping comes back from the server.
    await eventually(() => cell(drafts, draftRow, p.columns.grandTotal)).toBe(formatMoney(650));

    // 'Finalizar y generar enlace' asks to confirm the shipping, then makes and copies the link.
    await draftRow.getByRole('button', { name: p.actions.finalize }).click();
    const confirm = page.getByRole('dialog', { name: p.confirm.finalizeTitle });
    expect(await confirm.getByRole('textbox', { name: p.shipping.carrier }).inputValue()).toBe('Estafeta');
    // The field holds what was typed; '$' is a section beside it, never typed into it.
    expect(await confirm.getByRole('textbox', { name: p.shipping.cost }).inputValue()).toBe('150');
    expect(text(await confirm.innerText())).toContain(`${p.confirm.grandTotal} ${formatMoney(650)}`);
    const finalized = page.waitForResponse((res) => res.url().endsWith('/finalize') && res.request().method() === 'POST');
    await confirm.getByRole('button', { name: p.confirm.submitFinalize }).click();
    const answer = (await (await finalized).json()) as { paymentLinkUrl: string; payment: { id: string } };
    expect(answer.paymentLinkUrl).toBe(`${ctx.app.url}/pay/${answer.payment.id}`);
    await confirm.waitFor({ state: 'detached' });
    await notice(page, p.notices.linkCopiedFinalize).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(answer.paymentLinkUrl);

    // 'Pagos en progreso', with the link.
    const pending = section(main, 'pending');
    const pendingRow = rowOf(pending, ANA.name);
    await pendingRow.waitFor();
    await drafts.getByText(p.empty.drafts).waitFor();
    expect(await pendingRow.getByRole('link', { name: p.actions.openLink }).getAttribute('href')).toBe(answer.paymentLinkUrl);
    expect(await cell(pending, pendingRow, p.columns.shipping)).toBe(`Estafeta ${formatMoney(150)}`);
    expect(await cell(pending, pendingRow, p.columns.grandTotal)).toBe(formatMoney(650));
    await page.evaluate(() => {
      (window as unknown as { sinRecargar: boolean }).sinRecargar = true;
    });

    // The buyer opens the link on the phone: items, shipping and total in MXN, and the sandbox's three buttons.
    await buyer.goto(answer.paymentLinkUrl);
    await buyer.getByRole('heading', { name: c.title }).waitFor();
    // The sandbox runs: the page says plainly that this is a test payment.
    const testBanner = buyer.getByTestId('test-payment-banner');
    expect(text(await testBanner.innerText())).toBe(text(`${c.testBannerTitle} ${c.testBanner}`));
    const summary = buyer.getByRole('region', { name: c.summaryTitle });
    expect(await items(summary.getByRole('list', { name: c.items }))).toEqual([`Trompo de madera antiguo ${formatMoney(500)}`]);
    expect(text(await summary.innerText())).toContain(`${fill(c.shippingWith, { carrier: 'Estafeta' })} ${formatMoney(150)}`);
    expect(text(await summary.innerText())).toContain(fill(c.seller, { name: COMPANY }));
    const total = await buyer.getByTestId('checkout-total').innerText();
    expect(total).toBe(formatMoney(650));
    expect(total).toMatch(/^\$650 MXN$/);
    for (const name of [c.approve, c.pending, c.reject]) expect(await buyer.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    expect(await buyer.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await buyer.getByRole('button', { name: c.approve, exact: true }).click();
    await buyer.getByRole('status').filter({ hasText: c.approvedTitle }).waitFor();
    expect(await buyer.getByRole('button', { name: c.approve, exact: true }).count()).toBe(0);
    expect(await testBanner.isVisible()).toBe(true);

    // The seller's open panel moves it to 'Pagos realizados' on its own.
    const paid = section(main, 'paid');
    const paidRow = rowOf(paid, ANA.name);
    await paidRow.waitFor();
    await pending.getByText(p.empty.pending).waitFor();
    expect(await page.evaluate(() => (window as unknown as { sinRecargar?: boolean }).sinRecargar)).toBe(true);
    // Status and paid date share a cell, as do the total and the shipping (the list fits at 1366 px).
    expect((await badge(paid, paidRow, `${p.columns.status} / ${p.columns.paidAt}`)).startsWith(p.status.paid)).toBe(true);
    expect((await cell(paid, paidRow, `${p.columns.total} / ${p.columns.shipping}`)).startsWith(formatMoney(650))).toBe(true);

    // The seller asks for the money.
    await paidRow.getByRole('button', { name: p.actions.requestPayout }).click();
    await notice(page, p.notices.payoutRequested).waitFor();
    await eventually(() => badge(paid, paidRow, p.columns.payout)).toBe(p.payout.requested);

    // The platform pays it out.
    const admin = await openBilling(platform);
    const adminPaid = section(admin.main, 'paid');
    const adminRow = rowOf(adminPaid, ANA.name);
    await adminRow.waitFor();
    expect(await cell(adminPaid, adminRow, `${p.columns.winner} / ${p.columns.company}`)).toContain(COMPANY);
    await adminRow.getByRole('button', { name: p.actions.markPaidOut }).click();
    await notice(admin.page, p.notices.markedPaidOut).waitFor();
    await eventually(() => badge(adminPaid, adminRow, p.columns.payout)).toBe(p.payout.paid_out);

    // And the seller sees it, still without a reload.
    await eventually(() => badge(paid, paidRow, p.columns.payout)).toBe(p.payout.paid_out);
    expect(await page.evaluate(() => (window as unknown as { sinRecargar?: boolean }).sinRecargar)).toBe(true);

    for (const open of [buyer, page, admin.page]) await open.context().close();
  });

  it('cancelling a draft, after its confirmation, puts the items back in “Listos para facturar”', async () => {
    const buyer = await signedInPage(bruno);
    await winAuction(buyer, 'Carrito de hojalata', 700);
    await buyer.context().close();

    const { page, main } = await openBilling(seller);
    const ready = section(main, 'ready');
    const drafts = section(main, 'drafts');
    await rowOf(ready, BRUNO.name).getByRole('button', { name: p.actions.createDraft }).click();
    const draftRow = rowOf(drafts, BRUNO.name);
    await draftRow.waitFor();
    await eventually(() => rowOf(ready, BRUNO.name).count()).toBe(0);

    // 'No, conservar' keeps it.
    const question = page.getByRole('dialog', { name: p.cancel.draftTitle });
    await draftRow.getByRole('button', { name: p.actions.cancel, exact: true }).click();
    expect(text(await question.innerText())).toContain(`${p.cancel.draftQuestion} ${fill(p.cancel.draftDetail, { name: BRUNO.name })}`);
    await question.getByRole('button', { name: p.cancel.keep }).click();
    await question.waitFor({ state: 'detached' });
    expect(await draftRow.isVisible()).toBe(true);

    // 'Sí, cancelar': the draft goes, the item is ready to bill again.
    await draftRow.getByRole('button', { name: p.actions.cancel, exact: true }).click();
    const cancelled = page.waitForResponse((res) => res.url().endsWith('/cancel') && res.request().method() === 'POST');
    await question.getByRole('button', { name: p.cancel.confirm }).click();
    expect((await cancelled).status()).toBe(200);
    await notice(page, p.notices.draftCanceled).waitFor();
    const readyRow = rowOf(ready, BRUNO.name);
    await readyRow.waitFor();
    expect(await items(readyRow)).toEqual([`Carrito de hojalata ${formatMoney(700)}`]);
    expect(await cell(ready, readyRow, p.columns.total)).toBe(formatMoney(700));
    await eventually(() => rowOf(drafts, BRUNO.name).count()).toBe(0);
    await page.context().close();
  });

  it('a draft whose link is being made says “Generando enlace…”, keeps its shipping, and “Finalizar” finishes it', async () => {
    const db = ctx.app.ctx.db;
    const actor = { id: seller.id, roles: ['seller'] as Role[], profileCompanyId: 'tienda-cobros', companyId: 'tienda-cobros' };
    const won = await buildAuction(db, {
      name: 'Yoyo de lámina',
      status: 'ended',
      endTime: new Date(Date.now() - 60_000),
      companyId: 'tienda-cobros',
      sellerId: seller.id,
      currentPrice: 300,
      currentWinnerId: bruno.id,
      currentWinnerName: BRUNO.name,
    });
    const { payment } = await createDraft(db, { actor, winnerId: bruno.id, auctionIds: [won.id] });
    await updateShipping(db, { actor, id: payment.id, input: { shippingCarrier: 'DHL', shippingCost: 100 } });
    // Finalize's first step, as an interrupted click (a crash, a lost provider answer) leaves it.
    await reserveCheckout(db, { actor, id: payment.id, provider: 'sandbox' });

    const { page, main } = await openBilling(seller);
    const drafts = section(main, 'drafts');
    const draftRow = rowOf(drafts, BRUNO.name);
    await draftRow.waitFor();
    // The cell also holds the cost field's '$' section.
    expect((await badge(drafts, draftRow, p.columns.shipping)).startsWith(p.reserved)).toBe(true);
    expect(await draftRow.getByRole('textbox', { name: fill(p.shipping.carrierLabelFor, { name: BRUNO.name }) }).isDisabled()).toBe(true);
    expect(await draftRow.getByRole('textbox', { name: fill(p.shipping.costLabelFor, { name: BRUNO.name }) }).isDisabled()).toBe(true);
    expect(await draftRow.getByRole('button', { name: p.actions.addItems }).isDisabled()).toBe(true);

    await draftRow.getByRole('button', { name: p.actions.finalize }).click();
    const confirm = page.getByRole('dialog', { name: p.confirm.finalizeTitle });
    expect(await confirm.getByRole('textbox', { name: p.shipping.carrier }).isDisabled()).toBe(true);
    const finalized = page.waitForResponse((res) => res.url().endsWith('/finalize') && res.request().method() === 'POST');
    await confirm.getByRole('button', { name: p.confirm.submitFinalize }).click();
    expect((await finalized).status()).toBe(200);
    const pendingRow = rowOf(section(main, 'pending'), BRUNO.name);
    await pendingRow.waitFor();
    expect(await cell(section(main, 'pending'), pendingRow, p.columns.grandTotal)).toBe(formatMoney(400));
    await eventually(() => rowOf(drafts, BRUNO.name).count()).toBe(0);
    await page.context().close();
  });
});
