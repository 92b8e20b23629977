import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';
import { fileOf } from '../support/chunks.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

/**
 * The admin panel's weight: the first screen (the auctions list) does not fetch
 * the windows, the auction form or the billing workspace; each arrives when first opened, and one
 * whose code does not arrive says so in its own window with 'Reintentar' instead of blanking the panel.
 */

const ctx = setupAppAndBrowser();
let seller: E2eUser;

const FORM = 'src/web/components/auction-form/auction-form-modal.tsx';
const BILLING = 'src/web/admin/payments/billing-workspace.tsx';
const ON_DEMAND = [
  FORM,
  BILLING,
  'src/web/admin/payments/payments-modal.tsx',
  'src/web/admin/users/users-modal.tsx',
  'src/web/admin/categories/categories-modal.tsx',
];

beforeAll(async () => {
  seller = await prepareUser(ctx.app, {
    email: 'vendedora.ligera@ejemplo.mx',
    name: 'Vera Ligera',
    roles: ['seller'],
    companyId: 'tienda-ligera',
    companyName: 'Tienda Ligera',
  });
});

async function openPanel(scripts: string[]): Promise<Page> {
  const page = await newPage(ctx.browser);
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
  });
  await signInPage(page, ctx.app, seller);
  await page.goto(`${ctx.app.url}/admin`);
  await page.getByRole('main').getByRole('heading', { name: t.auctions.title, exact: true }).waitFor();
  return page;
}

describe('the admin panel loads its windows on demand', () => {
  it('the first screen fetches none of the windows; the auction form arrives when opened', async () => {
    const scripts: string[] = [];
    const page = await openPanel(scripts);
    await page.waitForLoadState('networkidle');
    const onDemand = ON_DEMAND.map(fileOf);
    expect(scripts.filter((s) => onDemand.includes(s))).toEqual([]);

    await page.getByRole('button', { name: t.admin.nav.addAuction }).click();
    const dialog = page.getByRole('dialog', { name: t.auctionForm.titleCreate });
    await dialog.getByLabel(t.auctionForm.fields.name).waitFor();
    expect(scripts).toContain(fileOf(FORM));
    await page.context().close();
  });

  it("a window whose code does not arrive says so in the window; 'Reintentar' loads it, and the list stays", async () => {
    const scripts: string[] = [];
    const page = await openPanel(scripts);
    const form = `**${fileOf(FORM)}`;
    await page.route(form, (route) => route.abort('internetdisconnected'));

    await page.getByRole('button', { name: t.admin.nav.addAuction }).click();
    const dialog = page.getByRole('dialog', { name: t.auctionForm.titleCreate });
    const failed = dialog.getByRole('alert').filter({ hasText: t.admin.windowLoadFailed });
    await failed.waitFor();
    // The panel behind is still there.
    expect(await page.getByRole('main').getByRole('heading', { name: t.auctions.title, exact: true }).count()).toBe(1);

    await page.unroute(form);
    await failed.getByRole('button', { name: t.common.retry }).click();
    await dialog.getByLabel(t.auctionForm.fields.name).waitFor();
    await page.context().close();
  });

  it("the billing workspace's code does not arrive: 'Resumen de ganadores' says so, and 'Reintentar' shows it", async () => {
    const scripts: string[] = [];
    const page = await openPanel(scripts);
    const billing = `**${fileOf(BILLING)}`;
    await page.route(billing, (route) => route.abort('internetdisconnected'));
    const main = page.getByRole('main');
    await main.getByRole('group', { name: t.auctions.filters.label }).getByRole('button', { name: t.auctions.filters.winners }).click();
    const failed = main.getByRole('alert').filter({ hasText: t.admin.windowLoadFailed });
    await failed.waitFor();
    // The filters are still there.
    expect(await main.getByRole('group', { name: t.auctions.filters.label }).count()).toBe(1);

    await page.unroute(billing);
    await failed.getByRole('button', { name: t.common.retry }).click();
    await main.getByRole('region', { name: t.payments.sections.ready, exact: true }).waitFor();
    await page.context().close();
  });
});
