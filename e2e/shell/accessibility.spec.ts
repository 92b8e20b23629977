import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { livePath } from '../../src/domain/live-public.js';
import { liveSessions, paymentItems } from '../../src/server/db/schema.js';
import { buildCategory } from '../../test/support/actors.js';
import { buildAuction, buildLot, buildPayment, buildSession } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { type A11yFinding, auditPage, formatFindings } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

/**
 * axe-core on every screen, at 1366 px and on a 390 px phone, with the dialogs
 * opened one by one: the public auction page (anonymous, signed in, ended), the live page and its
 * directory, the checkout, the sign-in page, the admin panel (auctions, billing, every window) and
 * the Live Hub. Any serious or critical finding fails, listed by screen.
 */
const ctx = setupAppAndBrowser();
const COMPANY_ID = 'bazar-accesible';
const SELLER = { email: 'vendedora.accesible@ejemplo.mx', name: 'Valeria Accesible' };
const ADMIN = { email: 'admin.accesible@ejemplo.mx', name: 'Adán Accesible' };
const BUYER = { email: 'comprador.accesible@ejemplo.mx', name: 'Carlos Comprador' };
const COMPANY_ADMIN = { email: 'jefa.accesible@ejemplo.mx', name: 'Julia Jefa' };

const DESKTOP = { width: 1366, height: 800 };
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const PHONE = { mobile: true } as const;
/** Each screen at 1366 px and on a 390 px phone. */
const VIEWPORTS = [
  ['1366', {}],
  ['phone', PHONE],
] as const;

let seller: E2eUser;
let admin: E2eUser;
let buyer: E2eUser;
let companyAdmin: E2eUser;
let activeId = '';
let endedId = '';
let paymentId = '';
let liveUrl = '';
let sessionId = '';

/** Every finding of the file, reported together at the end as well as per test. */
const all: A11yFinding[] = [];

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: COMPANY_ID, companyName: 'Bazar Accesible' });
  admin = await prepareUser(ctx.app, { ...ADMIN, roles: ['admin'], companyId: null });
  buyer = await prepareUser(ctx.app, { ...BUYER, roles: ['buyer'] });
  companyAdmin = await prepareUser(ctx.app, { ...COMPANY_ADMIN, roles: ['admin'], companyId: COMPANY_ID, companyName: 'Bazar Accesible' });
  const categoryId = await buildCategory(ctx.app, 'Relojes');
  const db = ctx.app.ctx.db;

  // An active auction with a bid from the buyer, through the API as a phone would place it.
  const sellerPage = await newPage(ctx.browser);
  await signInPage(sellerPage, ctx.app, seller);
  const active = await createAuctionAs(sellerPage, ctx.app, { name: 'Reloj de bolsillo de plata', categoryId, startingPrice: 800 });
  const queued = await createAuctionAs(sellerPage, ctx.app, { name: 'Radio de bulbos', categoryId, startingPrice: 300, status: 'pending' });
  await sellerPage.context().close();
  activeId = active.id;
  const buyerPage = await newPage(ctx.browser);
  await signInPage(buyerPage, ctx.app, buyer);
  const bid = await buyerPage.request.post(`${ctx.app.url}/api/auctions/${activeId}/bids`, { data: { amount: 800 }, headers: { origin: ctx.app.url } });
  expect(bid.status(), await bid.text()).toBe(201);
  await buyerPage.context().close();

  // An ended auction won by the buyer, and its payment waiting to be paid.
  const ended = await buildAuction(db, {
    name: 'Máquina de escribir Olivetti',
    status: 'ended',
    endTime: new Date(Date.now() - 60_000),
    companyId: COMPANY_ID,
    sellerId: seller.id,
    categoryId,
    currentPrice: 1200,
    currentWinnerId: buyer.id,
    currentWinnerName: BUYER.name,
    winnerWhatsapp: '+525512345678',
  });
  endedId = ended.id;
  const payment = await buildPayment(db, {
    winnerId: buyer.id,
    winnerName: BUYER.name,
    winnerWhatsapp: '+525512345678',
    sellerId: seller.id,
    companyId: COMPANY_ID,
    totalAmount: 1200,
    shippingCarrier: 'Estafeta',
    shippingCost: 150,
    paymentStatus: 'pending',
    provider: 'sandbox',
  });
  paymentId = payment.id;
  await buildAuction(db, {
    name: 'Tocadiscos Dual',
    status: 'ended',
    endTime: new Date(Date.now() - 120_000),
    companyId: COMPANY_ID,
    sellerId: seller.id,
    categoryId,
    currentPrice: 950,
    currentWinnerId: buyer.id,
    currentWinnerName: BUYER.name,
    winnerWhatsapp: '+525512345678',
  });
  await db.insert(paymentItems).values({ paymentId, paymentStatus: 'pending', auctionId: endedId, auctionName: ended.name, amount: 1200 });

  // A live session with the active auction on the block and one lot waiting.
  const session = await buildSession(db, {
    sellerId: seller.id,
    companyId: COMPANY_ID,
    title: 'Remate accesible',
    sellerSlug: 'bazar-accesible',
    status: 'live',
  });
  sessionId = session.id;
  const current = await buildLot(db, { sessionId, auctionId: activeId });
  await buildLot(db, { sessionId, auctionId: queued.id });
  await db.update(liveSessions).set({ currentLotId: current.id }).where(eq(liveSessions.id, sessionId));
  liveUrl = `${ctx.app.url}${livePath({ id: sessionId, sellerSlug: 'bazar-accesible' })}`;
});

afterAll(() => {
  if (all.length > 0) console.log(`accessibility findings:\n${formatFindings(all)}`);
});

/** Audits the page as it stands under `screen`, keeping the findings for the test's assertion. */
async function audit(found: A11yFinding[], page: Page, screen: string): Promise<void> {
  const findings = await auditPage(page, screen);
  found.push(...findings);
  all.push(...findings);
}

async function pageFor(user: E2eUser | null, opts: { mobile?: boolean } = {}): Promise<Page> {
  const page = await newPage(ctx.browser, opts);
  if (!opts.mobile) await page.setViewportSize(DESKTOP);
  if (user) await signInPage(page, ctx.app, user);
  return page;
}

/** Opens a dialog from `trigger`, audits it, and closes it with Escape. */
async function auditDialog(found: A11yFinding[], page: Page, trigger: Locator, title: string, screen: string): Promise<Locator> {
  await trigger.click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  // A window whose code loads on demand opens with 'Cargando...' first: audit its content.
  await dialog.getByText(t.common.loading, { exact: true }).waitFor({ state: 'detached' });
  await audit(found, page, screen);
  return dialog;
}

async function closeDialog(page: Page, dialog: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

/**
 * Each audit walks many pages and windows at two or three sizes, with axe-core on each: on a slow
 * machine one took longer than vitest's minute before reaching its findings, so each gets three.
 */
const AUDIT_TIMEOUT_MS = 180_000;

describe('accessibility: zero serious or critical axe-core findings', () => {
  it('the public pages, on a phone and at 1366 px', { timeout: AUDIT_TIMEOUT_MS }, async () => {
    const found: A11yFinding[] = [];
    for (const [label, opts] of VIEWPORTS) {
      const anon = await pageFor(null, opts);
      const history = anon.waitForResponse((res) => res.url().includes(`/api/auctions/${activeId}/bids`) && res.ok());
      await anon.goto(`${ctx.app.url}/auctions/${activeId}`);
      await anon.getByRole('heading', { name: 'Reloj de bolsillo de plata' }).waitFor();
      await history;
      await audit(found, anon, `${label} /auctions/{active}, signed out`);

      await anon.goto(`${ctx.app.url}/auctions/${endedId}`);
      await anon.getByRole('heading', { name: 'Máquina de escribir Olivetti' }).waitFor();
      await anon.getByTestId('ended-notice').waitFor();
      await audit(found, anon, `${label} /auctions/{ended}`);

      await anon.goto(liveUrl);
      await anon.getByRole('heading', { name: 'Remate accesible' }).first().waitFor();
      await anon.getByText('Reloj de bolsillo de plata').first().waitFor();
      await audit(found, anon, `${label} live page`);

      await anon.goto(`${ctx.app.url}/live`);
      await anon.getByText('Remate accesible').first().waitFor();
      await audit(found, anon, `${label} live directory`);

      await anon.goto(`${ctx.app.url}/admin`);
      await anon.getByRole('button', { name: t.auth.signInWithGoogle }).waitFor();
      await audit(found, anon, `${label} sign-in`);

      // The not-found states, and the server's own page after a refused Mercado Pago connection.
      await anon.goto(`${ctx.app.url}/auctions/${UNKNOWN_ID}`);
      await anon.getByText(t.publicAuction.notFound).first().waitFor();
      await audit(found, anon, `${label} unknown auction`);
      await anon.goto(`${ctx.app.url}/live/nadie/${UNKNOWN_ID}`);
      await anon.getByRole('heading', { level: 1 }).first().waitFor();
      await audit(found, anon, `${label} unknown live session`);
      await anon.goto(`${ctx.app.url}/api/mp/callback?state=x`);
      await anon.getByRole('heading', { level: 1 }).waitFor();
      await audit(found, anon, `${label} Mercado Pago connection refused`);
      await anon.context().close();

      const signedIn = await pageFor(buyer, opts);
      await signedIn.goto(`${ctx.app.url}/auctions/${activeId}`);
      const submit = signedIn.getByRole('button', { name: t.bidding.form.submit, exact: true });
      await submit.waitFor();
      await audit(found, signedIn, `${label} /auctions/{active}, signed in`);
      const review = await auditDialog(found, signedIn, submit, t.bidding.confirm.title, `${label} bid review`);
      await closeDialog(signedIn, review);

      await signedIn.goto(`${ctx.app.url}/pay/${paymentId}`);
      await signedIn.getByText('Máquina de escribir Olivetti').first().waitFor();
      await audit(found, signedIn, `${label} checkout`);
      // Back from Mercado Pago with the payment still pending.
      await signedIn.goto(`${ctx.app.url}/pay/${paymentId}?collection_status=pending`);
      await signedIn.getByText('Máquina de escribir Olivetti').first().waitFor();
      await audit(found, signedIn, `${label} checkout, back from Mercado Pago`);

      // The buyers' home and search, with the signed-in header (its bell and links, or the phone menu).
      await signedIn.goto(`${ctx.app.url}/`);
      await signedIn.getByRole('heading', { name: t.home.title, level: 1 }).waitFor();
      await signedIn.getByTestId('bell').waitFor();
      await audit(found, signedIn, `${label} home, signed in`);
      await signedIn.goto(`${ctx.app.url}/buscar?q=reloj`);
      await signedIn.getByRole('heading', { name: t.search.title, level: 1 }).waitFor();
      await audit(found, signedIn, `${label} search, signed in`);

      await signedIn.goto(`${ctx.app.url}/admin`);
      await signedIn.getByText(BUYER.email).first().waitFor();
      await audit(found, signedIn, `${label} /admin as a buyer`);
      await signedIn.context().close();
    }
    expect(found, formatFindings(found)).toEqual([]);
  });

  it("the seller's panel: auctions, billing and every window", { timeout: AUDIT_TIMEOUT_MS }, async () => {
    const found: A11yFinding[] = [];
    for (const [label, opts] of VIEWPORTS) {
      const page = await pageFor(seller, opts);
      await page.goto(`${ctx.app.url}/admin`);
      const main = page.getByRole('main');
      await main.getByText('Reloj de bolsillo de plata').first().waitFor();
      await audit(found, page, `${label} panel, auctions`);

      // On a phone the actions sit behind the burger.
      const nav = async () => {
        const burger = page.getByRole('button', { name: t.common.toggleNavigation });
        if ((await burger.isVisible()) && (await burger.getAttribute('aria-expanded')) !== 'true') await burger.click();
        return page.getByRole('navigation');
      };
      const create = await auditDialog(
        found,
        page,
        (await nav()).getByRole('button', { name: t.admin.nav.addAuction }),
        t.auctionForm.titleCreate,
        `${label} new auction`,
      );
      await closeDialog(page, create);

      if (label === '1366') {
        // Editing an auction with a bid: its locked fields and the reasons.
        await page
          .getByRole('group', { name: fill(t.auctions.actions.group, { name: 'Reloj de bolsillo de plata' }) })
          .getByRole('button', { name: t.auctions.actions.edit })
          .click();
        const edit = page.getByRole('dialog', { name: t.auctionForm.titleEdit });
        await edit.getByTestId('locked-banner').waitFor();
        await audit(found, page, `${label} edit an auction with bids`);
        await closeDialog(page, edit);
      }

      await main.getByRole('group', { name: t.auctions.filters.label }).getByRole('button', { name: t.auctions.filters.winners }).click();
      await main.getByRole('region', { name: t.payments.sections.drafts, exact: true }).waitFor();
      await audit(found, page, `${label} panel, winners and billing`);
      if (label === '1366') {
        // A notification, with its close button.
        const ready = main.getByRole('region', { name: t.payments.sections.ready, exact: true });
        await ready.getByRole('row').filter({ hasText: BUYER.name }).getByRole('button', { name: t.payments.actions.createDraft }).click();
        await page.getByRole('alert').filter({ hasText: t.payments.notices.draftCreated }).first().waitFor();
        await audit(found, page, `${label} a notification`);
        // The new draft's 'Finalizar y generar enlace' confirmation.
        const drafts = main.getByRole('region', { name: t.payments.sections.drafts, exact: true });
        const finalize = await auditDialog(
          found,
          page,
          drafts.getByRole('row').filter({ hasText: 'Tocadiscos Dual' }).getByRole('button', { name: t.payments.actions.finalize }),
          t.payments.confirm.finalizeTitle,
          `${label} finalize a draft`,
        );
        await closeDialog(page, finalize);
      }

      const payments = await auditDialog(
        found,
        page,
        (await nav()).getByRole('button', { name: t.admin.nav.payments }),
        t.payments.modal.title,
        `${label} payments`,
      );
      await payments.getByRole('table').or(payments.getByRole('list')).first().waitFor();
      await audit(found, page, `${label} payments, loaded`);
      await closeDialog(page, payments);

      const profile = await auditDialog(found, page, (await nav()).getByRole('button', { name: t.admin.nav.profile }), t.profile.title, `${label} profile`);
      await closeDialog(page, profile);
      await page.context().close();
    }
    expect(found, formatFindings(found)).toEqual([]);
  });

  it("the platform admin's windows: categories, users, invitations, companies", { timeout: AUDIT_TIMEOUT_MS }, async () => {
    const found: A11yFinding[] = [];
    const page = await pageFor(admin);
    await page.goto(`${ctx.app.url}/admin`);
    const nav = page.getByRole('navigation');
    await nav.getByRole('button', { name: t.admin.nav.categories }).waitFor();
    await audit(found, page, 'admin panel');

    const categories = await auditDialog(found, page, nav.getByRole('button', { name: t.admin.nav.categories }), t.categories.title, 'categories');
    await categories.getByText('Relojes').waitFor();
    await audit(found, page, 'categories, loaded');
    await closeDialog(page, categories);

    const users = await auditDialog(found, page, nav.getByRole('button', { name: t.admin.nav.users }), t.users.title, 'users');
    await users.getByText(SELLER.email).waitFor();
    await audit(found, page, 'users, loaded');
    await users
      .getByRole('row', { name: new RegExp(SELLER.email.replace(/\./g, '\\.')) })
      .getByRole('button', { name: new RegExp(`^${t.users.editRoles}`) })
      .click();
    const roles = page.getByRole('dialog', { name: t.users.rolesTitle });
    await roles.waitFor();
    await audit(found, page, 'user roles');
    await closeDialog(page, roles);
    await users.waitFor();
    await users.getByRole('tab', { name: t.users.tabs.invitations }).click();
    await users.getByRole('tabpanel', { name: t.users.tabs.invitations }).waitFor();
    await audit(found, page, 'invitations');
    await closeDialog(page, users);

    const companies = await auditDialog(found, page, nav.getByRole('button', { name: t.admin.nav.companies }), t.companies.titleAll, 'companies');
    await companies.getByText('Bazar Accesible').first().waitFor();
    await audit(found, page, 'companies, loaded');
    await closeDialog(page, companies);
    await page.context().close();

    // A company's own admin: 'Empresa', and the users window with its invitations.
    const own = await pageFor(companyAdmin);
    await own.goto(`${ctx.app.url}/admin`);
    const ownNav = own.getByRole('navigation');
    const company = await auditDialog(found, own, ownNav.getByRole('button', { name: t.admin.nav.company }), t.companies.title, 'company, its admin');
    await closeDialog(own, company);
    const ownUsers = await auditDialog(found, own, ownNav.getByRole('button', { name: t.admin.nav.users }), t.users.title, 'users, company admin');
    await ownUsers.getByRole('tab', { name: t.users.tabs.invitations }).click();
    await ownUsers.getByRole('tabpanel', { name: t.users.tabs.invitations }).waitFor();
    await audit(found, own, 'invitations, company admin');
    await own.context().close();
    expect(found, formatFindings(found)).toEqual([]);
  });

  // Three viewports and five windows: longer than a minute on a busy two-core machine.
  it('the Live Hub, with a session loaded, and its windows', { timeout: AUDIT_TIMEOUT_MS }, async () => {
    const found: A11yFinding[] = [];
    for (const [label, opts] of VIEWPORTS) {
      const page = await pageFor(seller, opts);
      await page.goto(`${ctx.app.url}/admin/livehub`);
      // On a phone, with nothing loaded, the Hub lists the seller's shows (livehub/phone-shows/).
      if (label === 'phone') await page.getByTestId('phone-shows').getByText('Remate accesible').first().waitFor();
      else await page.getByText(t.livehub.bar.pickFirst).first().waitFor();
      await audit(found, page, `${label} Live Hub, nothing loaded`);
      if (label === 'phone') {
        await page.getByRole('button', { name: t.livehub.header.more }).click();
        await page.getByRole('menuitem', { name: t.livehub.header.createSession }).waitFor();
        await audit(found, page, `${label} Live Hub, 'Más' open`);
      }
      await page.goto(`${ctx.app.url}/admin/livehub?session=${sessionId}`);
      await page.getByRole('heading', { name: 'Remate accesible' }).first().waitFor();
      // On a phone a loaded session is the camera and the show's controls (livehub/phone/), its lots in a sheet.
      if (label === 'phone') await page.getByTestId('phone-lot-card').waitFor();
      else await page.getByText('Radio de bulbos').first().waitFor();
      await audit(found, page, `${label} Live Hub, session loaded`);
      await page.context().close();
    }

    const page = await pageFor(seller);
    await page.goto(`${ctx.app.url}/admin/livehub?session=${sessionId}`);
    await page.getByText('Radio de bulbos').first().waitFor();
    const header = page.getByRole('banner');
    const manage = await auditDialog(
      found,
      page,
      header.getByRole('button', { name: t.livehub.header.manageSessions }),
      t.livehub.manage.title,
      'sessions window',
    );
    await closeDialog(page, manage);
    const create = await auditDialog(
      found,
      page,
      header.getByRole('button', { name: t.livehub.header.createSession }),
      t.livehub.create.title,
      'create session',
    );
    await closeDialog(page, create);
    const auction = await auditDialog(
      found,
      page,
      header.getByRole('button', { name: t.livehub.header.addAuction }),
      t.auctionForm.titleCreate,
      'new auction from the hub',
    );
    await closeDialog(page, auction);
    const quick = await auditDialog(found, page, page.getByRole('button', { name: t.livehub.lots.quick }), t.livehub.quick.title, 'quick auction');
    await closeDialog(page, quick);
    const picker = await auditDialog(found, page, page.getByRole('button', { name: t.livehub.lots.add }), t.livehub.picker.title, 'lot picker');
    await closeDialog(page, picker);
    await page.context().close();
    expect(found, formatFindings(found)).toEqual([]);
  });
});
