import { describe, expect, it } from 'vitest';
import { messages } from '../../src/server/messages.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';

const ctx = setupAppAndBrowser();

describe('development sign-in in the browser', () => {
  it('leads from the sign-in button to the marked form, and makes the first account admin', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(`${ctx.app.url}/admin`);
    await page.getByRole('button', { name: t.auth.signInWithGoogle }).click();
    await page.waitForURL(/\/auth\/dev\?returnTo=%2Fadmin/);
    await page.getByRole('heading', { name: messages.signIn.devTitle }).waitFor();
    expect(await page.getByText(messages.signIn.devBanner, { exact: false }).isVisible()).toBe(true);

    await page.getByRole('button', { name: messages.signIn.devSubmit }).click();
    await page.getByText(messages.fields.email).waitFor();

    await page.getByLabel(messages.signIn.devEmail).fill('primera@ejemplo.mx');
    await page.getByLabel(messages.signIn.devName).fill('Primera Admin');
    await page.getByRole('button', { name: messages.signIn.devSubmit }).click();
    await page.waitForURL(`${ctx.app.url}/admin`);
    await page.getByRole('dialog', { name: t.profile.title }).waitFor();
    await page.getByRole('banner').getByText(t.common.devMode).waitFor();
    expect(await page.getByRole('button', { name: t.admin.nav.categories }).isVisible()).toBe(true);
    await page.context().close();
  });
});
