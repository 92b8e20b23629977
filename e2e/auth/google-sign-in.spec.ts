import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/server/messages.js';
import { type MockGoogle, startMockGoogle } from '../../test/support/mock-google.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { signInThroughGoogle } from '../support/google-page.js';

let google: MockGoogle;
let app: E2eApp;
let browser: Browser;

beforeAll(async () => {
  google = await startMockGoogle({ chooser: true });
  app = await startE2eApp({
    OIDC_ISSUER: google.issuer,
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    ADMIN_EMAILS: 'lucia@subastaslucia.mx',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await google?.stop();
});

const modal = (page: Page) => page.getByRole('dialog', { name: t.profile.title });

describe('Google sign-in in the browser', () => {
  it('takes an admin from the unauthorised screen through Google to the panel, the profile, and out', async () => {
    const page = await newPage(browser);
    // Hold /api/me back until the loading state has been seen.
    let seenLoading: () => void = () => {};
    const loadingSeen = new Promise<void>((resolve) => {
      seenLoading = resolve;
    });
    await page.route('**/api/me', async (route) => {
      await loadingSeen;
      await route.continue();
    });
    await page.goto(`${app.url}/admin`);
    await expect.poll(() => page.getByText(t.common.loading).isVisible()).toBe(true);
    seenLoading();
    await page.getByRole('heading', { name: t.auth.loginHeading }).waitFor();
    expect(await page.getByText(t.auth.unauthorizedTitle).isVisible()).toBe(true);
    expect(await page.getByText(t.auth.unauthorizedMessage).isVisible()).toBe(true);
    await page.unroute('**/api/me');

    await signInThroughGoogle(page, { email: 'lucia@subastaslucia.mx', name: 'Lucía Ramírez' });
    await page.waitForURL(`${app.url}/admin`);

    // The profile is incomplete, so the modal opens by itself.
    const dialog = modal(page);
    await dialog.waitFor();
    expect(await dialog.getByLabel(t.profile.fields.firstName, { exact: true }).inputValue()).toBe('Lucía');
    expect(await dialog.getByLabel(t.profile.fields.firstName, { exact: true }).getAttribute('readonly')).not.toBeNull();
    expect(await dialog.getByLabel(t.profile.fields.email, { exact: true }).inputValue()).toBe('lucia@subastaslucia.mx');
    expect(await dialog.getByRole('combobox', { name: t.profile.fields.countryCode }).inputValue()).toMatch(/^\+52/);

    // Nothing filled in: every required field says what is missing, and nothing is sent.
    await dialog.getByLabel(t.profile.fields.lastName).fill('');
    let puts = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().endsWith('/api/profile')) puts++;
    });
    await dialog.getByRole('button', { name: t.profile.save }).click();
    await dialog.getByText(t.profile.errors.lastNameRequired).waitFor();
    expect(await dialog.getByText(t.profile.errors.whatsappRequired).isVisible()).toBe(true);
    expect(await dialog.getByText(t.profile.errors.consentRequired).isVisible()).toBe(true);
    expect(puts).toBe(0);

    // A number that is too short for Mexico.
    await dialog.getByLabel(t.profile.fields.lastName).fill('Ramírez');
    await dialog.getByLabel(t.profile.fields.whatsappLocal).fill('33 1234');
    await dialog.getByLabel(t.profile.fields.consent).check();
    await dialog.getByRole('button', { name: t.profile.save }).click();
    await dialog.getByText(t.profile.errors.whatsappInvalid).waitFor();
    expect(puts).toBe(0);

    await dialog.getByLabel(t.profile.fields.whatsappLocal).fill('33 1234 5678');
    await dialog.getByLabel(t.profile.fields.companyName).fill('Subastas Lucía');
    await dialog.getByRole('button', { name: t.profile.save }).click();
    await page.getByText(t.profile.saved).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(puts).toBe(1);

    // The panel: company in the header, the admin-only actions, the footer.
    await page
      .getByRole('banner')
      .getByText(fill(t.admin.company, { name: 'Subastas Lucía' }))
      .waitFor();
    const me = await (await page.request.get(`${app.url}/api/me`)).json();
    expect(me.profile.whatsapp).toBe('+523312345678');
    expect(
      await page
        .getByRole('banner')
        .getByText(fill(t.admin.companyId, { id: me.companyId }))
        .isVisible(),
    ).toBe(true);
    expect(await page.getByRole('heading', { name: t.admin.actionsTitle }).isVisible()).toBe(true);
    for (const item of [t.admin.nav.addAuction, t.admin.nav.categories, t.admin.nav.users, t.admin.nav.payments, t.admin.nav.profile]) {
      expect(await page.getByRole('button', { name: item }).isVisible(), item).toBe(true);
    }
    expect(await page.getByRole('link', { name: t.footer.privacy }).getAttribute('href')).toBe('/privacy-policy.html');

    // A complete profile does not reopen the modal; 'Mi perfil' does, with the saved values. The page
    // notes each dialog it shows and each click, so the order proves no dialog came before the click.
    // A dialog is Mantine's (the window's loading frame) or the browser's own <dialog> once open (the profile).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { dialogsSeen: string[] }).dialogsSeen = seen;
      let shown = false;
      new MutationObserver(() => {
        const now = document.querySelector('[role="dialog"], dialog[open]') !== null;
        if (now !== shown) seen.push(now ? 'dialog shown' : 'dialog hidden');
        shown = now;
      }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['open'] });
      document.addEventListener('click', () => seen.push('click'), true);
    });
    await page.reload();
    await page.getByRole('heading', { name: t.admin.actionsTitle }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { dialogsSeen: string[] }).dialogsSeen)).toEqual([]);
    await page.getByRole('button', { name: t.admin.nav.profile }).click();
    await modal(page).waitFor();
    expect(await page.evaluate(() => (window as unknown as { dialogsSeen: string[] }).dialogsSeen)).toEqual(['click', 'dialog shown']);
    expect(await modal(page).getByLabel(t.profile.fields.lastName).inputValue()).toBe('Ramírez');
    expect(await modal(page).getByLabel(t.profile.fields.consent).isChecked()).toBe(true);
    await modal(page).getByRole('button', { name: t.profile.cancel }).click();
    await modal(page).waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: t.auth.signOut }).click();
    await page.getByRole('heading', { name: t.auth.loginHeading }).waitFor();
    expect(await (await page.request.get(`${app.url}/api/me`)).json()).toEqual({ user: null });
    await page.context().close();
  });

  it('shows a buyer the unauthorised screen, with who is signed in and a way out', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/admin`);
    await signInThroughGoogle(page, { email: 'comprador@gmail.com', name: 'Pedro Comprador' });
    await page.waitForURL(`${app.url}/admin`);
    await page.getByText(t.auth.unauthorizedTitle).waitFor();
    expect(await page.getByText(t.auth.unauthorizedMessage).isVisible()).toBe(true);
    expect(await page.getByText(fill(t.auth.signedInAs, { name: 'Pedro Comprador', email: 'comprador@gmail.com' })).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: t.admin.actionsTitle }).count()).toBe(0);
    expect(await modal(page).count()).toBe(0);
    await page.getByRole('button', { name: t.auth.signOut }).click();
    await page.getByRole('button', { name: t.auth.signInWithGoogle }).waitFor();
    await page.context().close();
  });

  it('shows a seller the panel without the admin-only actions, and comes back to the Live Hub', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/admin/livehub`);
    await page.getByRole('heading', { name: t.auth.loginHeading }).waitFor();
    await signInThroughGoogle(page, { email: 'vendedor@gmail.com', name: 'Vero Vendedora' });
    await page.waitForURL(`${app.url}/admin/livehub`);
    // Signed in as a buyer first; an admin makes this account a seller with a complete profile.
    await app.ctx.db.execute(
      sql`update user_profiles set roles = array['seller'], last_name = 'V', whatsapp = '+523312345679', whatsapp_consent_given = true where email = 'vendedor@gmail.com'`,
    );
    await page.reload();
    await page.getByRole('heading', { name: t.livehub.title }).waitFor();
    await page.getByRole('button', { name: t.livehub.backToAdmin }).click();
    await page.waitForURL(`${app.url}/admin`);
    await page.getByRole('heading', { name: t.admin.actionsTitle }).waitFor();
    expect(await page.getByRole('button', { name: t.admin.nav.profile }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: t.admin.nav.categories }).count()).toBe(0);
    expect(await page.getByRole('button', { name: t.admin.nav.users }).count()).toBe(0);
    await page.getByRole('button', { name: t.admin.liveHub }).click();
    await page.waitForURL(`${app.url}/admin/livehub`);
    await page.context().close();
  });

  it('ends on a Spanish page with a way back when the sign-in link is replayed', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/admin`);
    let callback = '';
    page.on('request', (r) => {
      if (r.url().includes('/auth/google/callback')) callback = r.url();
    });
    await signInThroughGoogle(page, { email: 'replay@gmail.com', name: 'Replay' });
    await page.waitForURL(`${app.url}/admin`);
    await page.goto(callback);
    expect(await page.locator('html').getAttribute('lang')).toBe('es-MX');
    await page.getByRole('link', { name: messages.signIn.back }).waitFor();
    expect(await page.getByText(messages.signIn.stateMismatch).isVisible()).toBe(true);
    expect(await page.content()).not.toMatch(/at .*\.ts:\d+/);
    await page.context().close();
  });
});
