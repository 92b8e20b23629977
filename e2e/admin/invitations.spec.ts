import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, userProfiles, users } from '../../src/server/db/schema.js';
import { messages } from '../../src/server/messages.js';
import { type Actor, buildActor } from '../../test/support/actors.js';
import { type MockGoogle, startMockGoogle } from '../../test/support/mock-google.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { signInThroughGoogle } from '../support/google-page.js';

let google: MockGoogle;
let app: E2eApp;
let browser: Browser;
let companyAdmin: Actor;

beforeAll(async () => {
  google = await startMockGoogle({ chooser: true });
  app = await startE2eApp({ OIDC_ISSUER: google.issuer, GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CLIENT_SECRET: google.clientSecret });
  browser = await launchBrowser();
  // With Google configured there is no development sign-in: the admin gets its session straight in the database.
  companyAdmin = await buildActor(app, {
    email: 'jefa@acme.mx',
    name: 'Julia Jefa',
    roles: ['admin', 'seller'],
    companyId: 'acme',
    completeProfile: true,
    whatsapp: '+525512345678',
  });
  await app.ctx.db.update(companies).set({ name: 'Subastas Acme' }).where(eq(companies.id, 'acme'));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await google?.stop();
});

async function openPanelAs(actor: Actor): Promise<Page> {
  const page = await newPage(browser);
  const [name, value] = actor.cookie.split('=') as [string, string];
  await page.context().addCookies([{ name, value, url: app.url }]);
  await page.goto(`${app.url}/admin`);
  return page;
}

async function accountOf(email: string) {
  const [row] = await app.ctx.db
    .select({ roles: userProfiles.roles, companyId: userProfiles.companyId })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.email, email));
  return row;
}

describe('company admins onboard their own sellers', () => {
  it('invites, lists and revokes; the invited person accepts after their first Google sign-in and lands in the company as a seller', async () => {
    const page = await openPanelAs(companyAdmin);
    await page.getByRole('button', { name: t.admin.nav.users }).click();
    const dialog = page.getByRole('dialog', { name: t.users.title });
    await dialog.waitFor();

    // The users list says 'Empresa' and shows WhatsApp numbers as people write them.
    const adminRow = dialog.getByRole('row', { name: /jefa@acme\.mx/ });
    await adminRow.waitFor();
    expect(await dialog.getByRole('columnheader', { name: t.users.columns.companyId, exact: true }).isVisible()).toBe(true);
    expect(t.users.columns.companyId).toBe('Empresa');
    expect(await adminRow.getByText('+52 55 1234 5678', { exact: true }).isVisible()).toBe(true);
    expect(await dialog.getByText('companyId').count()).toBe(0);

    await dialog.getByRole('tab', { name: t.users.tabs.invitations }).click();
    await dialog.getByText(t.users.invitations.empty).waitFor();
    expect(await dialog.getByText(fill(t.users.invitations.ownCompany, { company: 'Subastas Acme' })).isVisible()).toBe(true);
    // Martillo sends nothing itself: the admin is told where the person answers.
    expect(await dialog.getByText(fill(t.users.invitations.help, { link: `${app.url}/invitaciones` })).isVisible()).toBe(true);
    const email = dialog.getByLabel(t.users.invitations.emailLabel);
    const send = dialog.getByRole('button', { name: t.users.invitations.send });

    // A bad address is stopped with a Spanish message, and what was typed stays.
    await email.fill('no-es-correo');
    await send.click();
    await dialog.getByText(t.users.invitations.errors.email).waitFor();
    expect(await email.inputValue()).toBe('no-es-correo');

    await email.fill('  Nueva.Vendedora@Gmail.com ');
    await send.click();
    const list = dialog.getByRole('table', { name: t.users.invitations.listLabel });
    const invitationRow = (address: string) => list.getByRole('row', { name: new RegExp(address.replace(/\./g, '\\.')) });
    await invitationRow('nueva.vendedora@gmail.com').waitFor();
    expect(await email.inputValue()).toBe('');
    expect(await invitationRow('nueva.vendedora@gmail.com').getByText(t.users.invitations.status.pending).isVisible()).toBe(true);
    expect(await invitationRow('nueva.vendedora@gmail.com').getByText('Subastas Acme').isVisible()).toBe(true);

    // A duplicate is refused with the server's reason under the field.
    await email.fill('nueva.vendedora@gmail.com');
    await send.click();
    await dialog.getByText(fill(messages.invitations.duplicate, { email: 'nueva.vendedora@gmail.com' })).waitFor();

    // A second invitation, revoked after confirming.
    await email.fill('arrepentido@gmail.com');
    await send.click();
    await invitationRow('arrepentido@gmail.com').waitFor();
    await invitationRow('arrepentido@gmail.com')
      .getByRole('button', { name: fill(t.users.invitations.revokeFor, { email: 'arrepentido@gmail.com' }) })
      .click();
    const confirm = page.getByRole('dialog', { name: t.users.invitations.revokeTitle });
    await confirm.getByText(fill(t.users.invitations.revokeConfirm, { email: 'arrepentido@gmail.com' })).waitFor();
    await confirm.getByRole('button', { name: t.users.invitations.revoke, exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await invitationRow('arrepentido@gmail.com').waitFor({ state: 'detached' });
    expect(await invitationRow('nueva.vendedora@gmail.com').isVisible()).toBe(true);
    await page.context().close();

    // The invited person signs in with Google for the first time: a buyer until they accept, then the panel opens, in the company, as a seller.
    const invited = await newPage(browser);
    await invited.goto(`${app.url}/admin`);
    await signInThroughGoogle(invited, { email: 'nueva.vendedora@gmail.com', name: 'Nadia Nueva' });
    await invited.waitForURL(`${app.url}/admin`);
    const invitation = invited.getByRole('article', { name: fill(t.invitations.cardTitle, { company: 'Subastas Acme' }) });
    await invitation.waitFor();
    expect(await accountOf('nueva.vendedora@gmail.com')).toEqual({ roles: ['buyer'], companyId: null });
    await invitation.getByRole('button', { name: fill(t.invitations.acceptFor, { company: 'Subastas Acme' }) }).click();
    await invited.getByRole('dialog', { name: t.profile.title }).waitFor();
    await invited
      .getByText(fill(t.admin.company, { name: 'Subastas Acme' }))
      .first()
      .waitFor();
    expect(await accountOf('nueva.vendedora@gmail.com')).toEqual({ roles: ['buyer', 'seller'], companyId: 'acme' });
    await invited.context().close();

    // The revoked one signs in as a plain buyer: no panel.
    const revoked = await newPage(browser);
    await revoked.goto(`${app.url}/admin`);
    await signInThroughGoogle(revoked, { email: 'arrepentido@gmail.com', name: 'Arturo Arrepentido' });
    await revoked.waitForURL(`${app.url}/admin`);
    await revoked.getByText(t.auth.unauthorizedTitle).waitFor();
    expect(await accountOf('arrepentido@gmail.com')).toEqual({ roles: ['buyer'], companyId: null });
    await revoked.context().close();

    // Back in the panel, the used invitation is no longer pending and the seller is in the users list.
    const again = await openPanelAs(companyAdmin);
    await again.getByRole('button', { name: t.admin.nav.users }).click();
    const usersDialog = again.getByRole('dialog', { name: t.users.title });
    const sellerRow = usersDialog.getByRole('row', { name: /nueva\.vendedora@gmail\.com/ });
    await sellerRow.waitFor();
    expect(await sellerRow.getByText(t.users.roles.seller, { exact: true }).isVisible()).toBe(true);
    await usersDialog.getByRole('tab', { name: t.users.tabs.invitations }).click();
    await usersDialog.getByText(t.users.invitations.empty).waitFor();
    await again.context().close();
  });
});
