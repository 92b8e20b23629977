import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvitationListResponse } from '../../src/domain/invitation-rules.js';
import { companies, userProfiles, users } from '../../src/server/db/schema.js';
import { type Actor, buildActor } from '../../test/support/actors.js';
import { type MockGoogle, startMockGoogle } from '../../test/support/mock-google.js';
import { injectAs } from '../../test/support/server.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { signInThroughGoogle } from '../support/google-page.js';

const COMPANY = 'Subastas Acme';

let google: MockGoogle;
let app: E2eApp;
let browser: Browser;
let companyAdmin: Actor;

beforeAll(async () => {
  google = await startMockGoogle({ chooser: true });
  app = await startE2eApp({ OIDC_ISSUER: google.issuer, GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CLIENT_SECRET: google.clientSecret });
  browser = await launchBrowser();
  companyAdmin = await buildActor(app, { email: 'jefa@acme.mx', name: 'Julia Jefa', roles: ['admin', 'seller'], companyId: 'acme' });
  await app.ctx.db.update(companies).set({ name: COMPANY }).where(eq(companies.id, 'acme'));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await google?.stop();
});

/** A buyer who has used Martillo before (a complete profile), then invited by Acme's admin. */
async function invitedBuyer(email: string, name: string): Promise<{ buyer: Actor; invitationId: string }> {
  const buyer = await buildActor(app, { email, name, roles: ['buyer'], completeProfile: true });
  const res = await injectAs(app, companyAdmin, 'POST', '/api/invitations', { email });
  expect(res.statusCode, res.body).toBe(201);
  return { buyer, invitationId: (res.json() as { id: string }).id };
}

async function accountOf(id: string) {
  const [row] = await app.ctx.db
    .select({ roles: userProfiles.roles, companyId: userProfiles.companyId })
    .from(userProfiles)
    .innerJoin(users, eq(users.id, userProfiles.userId))
    .where(eq(users.id, id));
  return row;
}

/** Nothing on the page is wider than the phone: no sideways scrolling. */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

describe('an invited buyer answers on a phone', () => {
  it('signs in at /admin, sees who invites them and as what, accepts, and is in the panel', async () => {
    const { buyer } = await invitedBuyer('carmen.compradora@gmail.com', 'Carmen Compradora');
    const page = await newPage(browser, { mobile: true });
    await page.goto(`${app.url}/admin`);
    await signInThroughGoogle(page, { email: 'carmen.compradora@gmail.com', name: 'Carmen Compradora' });
    await page.waitForURL(`${app.url}/admin`);

    // Instead of 'No autorizado': the invitation, and nothing changed until they answer.
    const card = page.getByRole('article', { name: fill(t.invitations.cardTitle, { company: COMPANY }) });
    await card.waitFor();
    expect(await page.getByRole('heading', { name: t.invitations.heading, level: 1 }).isVisible()).toBe(true);
    expect(await card.getByText(fill(t.invitations.role, { company: COMPANY })).isVisible()).toBe(true);
    expect(await card.getByText(fill(t.invitations.invitedBy, { name: 'Julia' })).isVisible()).toBe(true);
    expect(await card.getByText(fill(t.invitations.shares, { company: COMPANY })).isVisible()).toBe(true);
    expect(await page.getByText(t.auth.unauthorizedTitle).count()).toBe(0);
    expect(await accountOf(buyer.id)).toEqual({ roles: ['buyer'], companyId: null });
    expect(await fitsWidth(page)).toBe(true);
    const accept = card.getByRole('button', { name: fill(t.invitations.acceptFor, { company: COMPANY }) });
    const box = await accept.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    const findings = await auditPage(page, 'invitation, phone');
    expect(findings, formatFindings(findings)).toEqual([]);

    await accept.click();
    await page.getByText(t.invitations.accepted).first().waitFor();
    // The panel, for the company that invited them, without signing in again.
    await page.getByRole('button', { name: t.admin.liveHub }).waitFor();
    expect(await accountOf(buyer.id)).toEqual({ roles: ['buyer', 'seller'], companyId: 'acme' });
    await page.getByRole('button', { name: t.common.toggleNavigation }).click();
    // On a phone the company shows in the menu (the header's copy is for wide screens).
    await page
      .getByText(fill(t.admin.company, { name: COMPANY }))
      .filter({ visible: true })
      .waitFor();
    await page.context().close();
  });

  it('opens /invitaciones signed out, signs in, declines, and stays a buyer', async () => {
    const { buyer, invitationId } = await invitedBuyer('diego.declina@gmail.com', 'Diego Declina');
    const page = await newPage(browser, { mobile: true });
    await page.goto(`${app.url}/invitaciones`);
    await page.getByRole('heading', { name: t.invitations.signInTitle }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await signInThroughGoogle(page, { email: 'diego.declina@gmail.com', name: 'Diego Declina' });
    await page.waitForURL(`${app.url}/invitaciones`);

    const card = page.getByRole('article', { name: fill(t.invitations.cardTitle, { company: COMPANY }) });
    await card.waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await card.getByRole('button', { name: fill(t.invitations.declineFor, { company: COMPANY }) }).click();
    await page.getByText(fill(t.invitations.declinedMessage, { company: COMPANY })).waitFor();
    await page.getByText(t.invitations.empty).waitFor();
    await card.waitFor({ state: 'detached' });
    expect(await accountOf(buyer.id)).toEqual({ roles: ['buyer'], companyId: null });
    const list = (await injectAs(app, companyAdmin, 'GET', '/api/invitations')).json() as InvitationListResponse;
    expect(list.items.find((i) => i.id === invitationId)?.status).toBe('declined');

    // With nothing left to answer, the panel is closed to them as to any buyer.
    await page.goto(`${app.url}/admin`);
    await page.getByText(t.auth.unauthorizedTitle).waitFor();
    await page.context().close();
  });
});
