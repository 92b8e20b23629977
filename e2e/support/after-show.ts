import { sql } from 'drizzle-orm';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { payments } from '../../src/server/db/schema.js';
import { expireDuePayments } from '../../src/server/features/payments/unpaid/expiry.js';
import type { E2eApp } from './app.js';
import { newPage } from './browser.js';
import { t } from './catalogue.js';

/**
 * What the after-show walkthrough shares: pages signed in with a session made in the database, the
 * sandbox checkout, a stat card's figure, and the payment deadline passing for real.
 */

/**
 * A page signed in as an account made with test/support/actors.ts buildActor, by its session cookie:
 * the development sign-in is rate-limited per address, and buyers made this way keep their own WhatsApp.
 */
export async function pageAs(browser: Browser, app: E2eApp, actor: { cookie: string }, opts: { mobile?: boolean } = {}): Promise<Page> {
  const page = await newPage(browser, opts);
  const at = actor.cookie.indexOf('=');
  await page.context().addCookies([{ name: actor.cookie.slice(0, at), value: actor.cookie.slice(at + 1), url: app.url }]);
  return page;
}

/** Pays a bill on the sandbox's checkout (/pay/{id}) as a buyer would: 'Pagar', then the approval. */
export async function payInSandbox(page: Page, link: string): Promise<void> {
  if (!page.url().endsWith(new URL(link).pathname)) await page.goto(link);
  await page.getByRole('heading', { name: t.checkout.title, level: 1 }).waitFor();
  await page.getByRole('button', { name: t.checkout.approve, exact: true }).click();
  await page.getByRole('status').filter({ hasText: t.checkout.approvedTitle }).waitFor();
}

/** The figure of the summary's stat card labelled `label` (the label is a <p>, its figure the next one). */
export function statValue(scope: Locator, label: string): Locator {
  return scope.locator(`xpath=.//p[normalize-space(.)="${label}"]/following-sibling::p[1]`);
}

/**
 * The deadline passes: the buyer's pending bills get a deadline a minute ago, and one pass of the
 * app's own expiry job (with its provider and accounts) expires them; its events go out as the
 * job's would, so open panels hear it. Answers the ids the pass expired.
 */
export async function passDeadline(app: E2eApp, winnerId: string): Promise<string[]> {
  const db = app.ctx.db;
  const moved = await db
    .update(payments)
    .set({ deadlineAt: sql`now() - interval '1 minute'` })
    .where(sql`${payments.winnerId} = ${winnerId}::uuid and ${payments.paymentStatus} = 'pending'`)
    .returning({ id: payments.id });
  expect(moved.length, 'the buyer has pending bills to let expire').toBeGreaterThan(0);
  const pass = await expireDuePayments(db, { provider: app.ctx.payments.provider, accounts: app.ctx.payments.accounts });
  if (pass.events.length > 0) await app.ctx.publisher.publish(pass.events);
  return pass.expired;
}
