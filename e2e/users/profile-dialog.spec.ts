import { describe, expect, it } from 'vitest';
import { messages } from '../../src/server/messages.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';

const ctx = setupAppAndBrowser();

describe("the profile dialog (the browser's own dialog, with Mantine's country list inside)", () => {
  it('picks a country code from the list; Escape closes the list first, then the dialog, and gives focus back', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(`${ctx.app.url}/admin`);
    await page.getByRole('button', { name: t.auth.signInWithGoogle }).click();
    await page.getByRole('button', { name: messages.signIn.devSubmit }).click();
    await page.getByLabel(messages.signIn.devEmail).fill('perfil@ejemplo.mx');
    await page.getByLabel(messages.signIn.devName).fill('Paula Perfil');
    await page.getByRole('button', { name: messages.signIn.devSubmit }).click();
    await page.waitForURL(`${ctx.app.url}/admin`);

    // The profile is incomplete, so the dialog opens by itself.
    const dialog = page.getByRole('dialog', { name: t.profile.title });
    await dialog.waitFor();
    const countryCode = dialog.getByRole('combobox', { name: t.profile.fields.countryCode });
    await countryCode.click();
    await countryCode.fill('');
    await page.getByRole('option').first().waitFor();
    // The list renders inside the dialog (outside it, the page is inert): Escape closes the list only.
    await page.keyboard.press('Escape');
    await page.getByRole('option').first().waitFor({ state: 'hidden' });
    expect(await dialog.isVisible()).toBe(true);

    await countryCode.click();
    await countryCode.fill('Argent');
    await page.getByRole('option', { name: /Argentina/ }).click();
    expect(await countryCode.inputValue()).toMatch(/^\+54/);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Opened again from 'Mi perfil', it gives the focus back to that button on close.
    const profileButton = page.getByRole('button', { name: t.admin.nav.profile });
    await profileButton.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await profileButton.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.context().close();
  });
});
