import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/server/messages.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';

let app: E2eApp;
let browser: Browser;
beforeAll(async () => {
  app = await startE2eApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('development sign-in in the browser', () => {
  it('leads from the sign-in button to the marked form, and makes the first account admin', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/admin`);
    await page.getByRole('button', { name: t.auth.signInWithGoogle }).click();
    await page.waitForURL(/\/auth\/dev\?returnTo=%2Fadmin/);
    await page.getByRole('heading', { name: messages.signIn.devTitle }).waitFor();
    expect(await page.getByText(messages.signIn.devBanner, { exact: false }).isVisible()).toBe(true);

    await page.getByRole('button', { name: messages.signIn.devSubmit }).click();
    await page.getByText(messages.fields.email).waitFor();

    await page.getByLabel(messages.signIn.devEmail).fill('primera@ejemplo.mx');
    await page.getByLabel(messages.signIn.devName).fill('Primera Admin');
    await page.getByRole('button', { name: messages.signIn.devSubmit }).click();
    await page.waitForURL(`${app.url}/admin`);
    await page.getByRole('dialog', { name: t.profile.title }).waitFor();
    await page.getByRole('banner').getByText(t.common.devMode).waitFor();
    expect(await page.getByRole('button', { name: t.admin.nav.categories }).isVisible()).toBe(true);
    await page.context().close();
  });
});
