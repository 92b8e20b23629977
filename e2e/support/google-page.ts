import type { Page } from 'playwright-core';
import { t } from './catalogue.js';

/** From the unauthorised screen, through the mock issuer's account chooser, back to the app. */
export async function signInThroughGoogle(page: Page, account: { email: string; name: string }): Promise<void> {
  await page.getByRole('button', { name: t.auth.signInWithGoogle }).click();
  await page.waitForURL(/\/account\?/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Name').fill(account.name);
  await page.getByRole('button', { name: 'Continue' }).click();
}
