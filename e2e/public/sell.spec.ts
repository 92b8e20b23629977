import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { userProfiles } from '../../src/server/db/schema.js';
import { setupAppAndBrowser } from '../support/app.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { prepareUser, signInPage } from '../support/session.js';

/**
 * *Quiero vender* on a phone (390 × 844): a buyer who opens the panel is offered to sell, sends the
 * short form, the platform admin approves in the panel's *Solicitudes*, and the buyer's next visit
 * to /admin is the panel. A declined applicant reads the reason and the date to apply again.
 */
const ctx = setupAppAndBrowser();
const s = t.sell;
const a = t.admin.applications;

const ADMIN = { email: 'plataforma@martillo.mx', name: 'Paula Plataforma' };

beforeAll(async () => {
  await prepareUser(ctx.app, { ...ADMIN, roles: ['admin'] });
});

async function phoneAs(user: { email: string; name: string }): Promise<Page> {
  const page = await newPage(ctx.browser, { mobile: true });
  await signInPage(page, ctx.app, user);
  return page;
}

async function fillForm(page: Page, values: { businessName: string; city: string; whatsapp: string; description: string }) {
  const form = page.getByTestId('sell-form');
  await form.getByLabel(s.fields.businessName).fill(values.businessName);
  await form.getByLabel(s.fields.city).fill(values.city);
  await form.getByLabel(s.fields.whatsapp).fill(values.whatsapp);
  await form.getByLabel(s.fields.description).fill(values.description);
  await form.getByRole('button', { name: s.send }).click();
}

/** The admin's panel on a phone, at the requests window, and the card of one business. */
async function openRequests(page: Page, businessName: string) {
  await page.goto(`${ctx.app.url}/admin?window=applications`);
  const card = page.getByRole('article', { name: businessName });
  await card.waitFor();
  return card;
}

describe('becoming a seller on a phone', () => {
  it('a buyer is offered to sell at /admin, applies, the platform admin approves, and the buyer is in the panel', async () => {
    const buyer = { email: 'chucho.relojes@gmail.com', name: 'Chucho Relojes' };
    const { id } = await prepareUser(ctx.app, { ...buyer, roles: ['buyer'] });
    const page = await phoneAs(buyer);

    // 'No autorizado' now explains and offers the way in.
    await page.goto(`${ctx.app.url}/admin`);
    await page.getByText(t.auth.unauthorizedTitle).waitFor();
    expect(await page.getByRole('link', { name: t.auth.goHome }).getAttribute('href')).toBe('/');
    expect(await page.getByRole('button', { name: t.auth.signOut }).isVisible()).toBe(true);
    await page.getByRole('link', { name: t.auth.wantToSell }).click();
    await page.waitForURL(`${ctx.app.url}/vender`);
    await page.getByTestId('sell-form').waitFor();
    // The buyers' pages offer it in the header too, and it fits the phone beside 'Mis compras'.
    await page.goto(`${ctx.app.url}/compras`);
    await page.getByTestId('purchases-link').or(page.getByTestId('purchases-empty')).first().waitFor();
    const headerLink = page.getByTestId('sell-link');
    await headerLink.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await headerLink.click();
    await page.waitForURL(`${ctx.app.url}/vender`);
    await page.getByTestId('sell-form').waitFor();

    const findings = await auditPage(page, 'Quiero vender, phone');
    expect(findings, formatFindings(findings)).toEqual([]);

    // A bad number is refused on its field, in the server's words.
    await fillForm(page, { businessName: 'Relojes Don Chucho', city: 'Guadalajara', whatsapp: '1234', description: 'Relojes antiguos y de colección.' });
    await page.getByText(/El número de WhatsApp no es válido/).waitFor();
    await page.getByTestId('sell-form').getByLabel(s.fields.whatsapp).fill('33 1234 5678');
    await page.getByTestId('sell-form').getByRole('button', { name: s.send }).click();
    await page.getByText(s.sentTitle).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // The platform admin decides in the panel.
    const admin = await phoneAs(ADMIN);
    const card = await openRequests(admin, 'Relojes Don Chucho');
    expect(await card.getByText('+52 33 1234 5678').isVisible()).toBe(true);
    await card.getByRole('button', { name: a.approve }).click();
    await admin.getByText(a.approved, { exact: true }).waitFor();
    await admin.context().close();

    const [profile] = await ctx.app.ctx.db
      .select({ roles: userProfiles.roles, companyId: userProfiles.companyId })
      .from(userProfiles)
      .where(eq(userProfiles.userId, id));
    expect(profile).toEqual({ roles: ['admin', 'seller', 'buyer'], companyId: 'relojes-don-chucho' });

    // The same signed-in phone: /vender says what is next, and /admin is the panel.
    await page.goto(`${ctx.app.url}/vender`);
    await page.getByText(s.approvedTitle).waitFor();
    expect(await page.getByRole('link', { name: s.stepConnect }).getAttribute('href')).toBe('/admin?window=payments');
    await page.getByRole('link', { name: s.goPanel }).click();
    await page.waitForURL(`${ctx.app.url}/admin`);
    await page.getByRole('heading', { name: t.admin.actionsTitle }).waitFor({ state: 'attached' });
    expect(await page.getByText(t.auth.unauthorizedTitle).count()).toBe(0);
    // A seller is not offered to sell.
    await page.goto(`${ctx.app.url}/compras`);
    await page.getByTestId('purchases-empty').waitFor();
    expect(await page.getByTestId('sell-link').count()).toBe(0);
    await page.context().close();
  });

  it('a declined applicant reads the reason and the date they may apply again', async () => {
    const buyer = { email: 'lupe.juguetes@gmail.com', name: 'Lupe Juguetes' };
    await prepareUser(ctx.app, { ...buyer, roles: ['buyer'] });
    const page = await phoneAs(buyer);
    await page.goto(`${ctx.app.url}/vender`);
    await fillForm(page, { businessName: 'Juguetes Retro Lupe', city: 'Puebla', whatsapp: '222 123 4567', description: 'Juguetes de los 80 y 90, en caja.' });
    await page.getByText(s.sentTitle).waitFor();

    const admin = await phoneAs(ADMIN);
    const card = await openRequests(admin, 'Juguetes Retro Lupe');
    await card.getByRole('button', { name: a.decline }).click();
    const dialog = admin.getByRole('dialog', { name: fill(a.declineTitle, { name: 'Juguetes Retro Lupe' }) });
    await dialog.getByRole('button', { name: a.confirmDecline }).click();
    // The reason is required: the server's words sit on the field.
    await dialog.getByText('Escribe el motivo del rechazo.').waitFor();
    await dialog.getByLabel(a.reasonLabel).fill('Necesitamos fotos de tu inventario.');
    await dialog.getByRole('button', { name: a.confirmDecline }).click();
    await admin.getByText(a.declined, { exact: true }).waitFor();
    await admin.context().close();

    await page.reload();
    const declined = page.getByTestId('sell-declined');
    await declined.waitFor();
    expect(await declined.getByText(fill(s.declinedReason, { reason: 'Necesitamos fotos de tu inventario.' })).isVisible()).toBe(true);
    expect(await declined.getByText(/Podrás enviar una nueva solicitud a partir del \d{1,2} de \p{L}+ de \d{4}\./u).isVisible()).toBe(true);
    expect(await page.getByTestId('sell-form').count()).toBe(0);
    const findings = await auditPage(page, 'Quiero vender declined, phone');
    expect(findings, formatFindings(findings)).toEqual([]);
    await page.context().close();
  });

  it('signed out, /vender asks to sign in first', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    await page.goto(`${ctx.app.url}/vender`);
    await page.getByTestId('sell-sign-in').waitFor();
    expect(await page.getByRole('button', { name: s.signIn }).isVisible()).toBe(true);
    const findings = await auditPage(page, 'Quiero vender signed out, phone');
    expect(findings, formatFindings(findings)).toEqual([]);
    await page.context().close();
  });
});
