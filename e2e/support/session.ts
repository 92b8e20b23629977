import type { Page } from 'playwright-core';
import { signInAs } from '../../test/support/actors.js';
import type { E2eApp } from './app.js';

export interface E2eUser {
  id: string;
  email: string;
  name: string;
}

/**
 * Creates (or reuses) an account through the development sign-in, then sets its roles, company
 * and a complete profile straight in the database, so specs start on the screen they test.
 */
export async function prepareUser(
  app: E2eApp,
  opts: { email: string; name: string; roles: ('admin' | 'seller' | 'buyer')[]; companyId?: string | null; companyName?: string | null },
): Promise<E2eUser> {
  const user = await signInAs(app, { ...opts, completeProfile: true });
  return { id: user.id, email: user.email, name: opts.name };
}

/** Signs the page's browser context in as `email` through the development form's API. */
export async function signInPage(page: Page, app: E2eApp, user: Pick<E2eUser, 'email' | 'name'>): Promise<void> {
  const res = await page.request.post(`${app.url}/auth/dev`, {
    form: { email: user.email, name: user.name, returnTo: '/admin' },
    headers: { origin: app.url },
    maxRedirects: 0,
  });
  if (res.status() >= 400) throw new Error(`dev sign-in failed: ${res.status()}`);
}
