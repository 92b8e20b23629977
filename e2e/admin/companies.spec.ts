import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../../src/server/db/schema.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

const ctx = setupAppAndBrowser();

let platformAdmin: E2eUser;
let companyAdmin: E2eUser;
let seller: E2eUser;

beforeAll(async () => {
  platformAdmin = await prepareUser(ctx.app, { email: 'plataforma@ejemplo.mx', name: 'Paula Plataforma', roles: ['admin'] });
  companyAdmin = await prepareUser(ctx.app, {
    email: 'jefa@luna.mx',
    name: 'Julia Jefa',
    roles: ['admin', 'seller'],
    companyId: 'luna',
    companyName: 'Tienda Luna',
  });
  seller = await prepareUser(ctx.app, { email: 'vendedor@luna.mx', name: 'Víctor Vendedor', roles: ['seller'], companyId: 'luna', companyName: 'Otro nombre' });
});

async function openPanel(user: E2eUser): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, user);
  await page.goto(`${ctx.app.url}/admin`);
  return page;
}

const header = (page: Page, name: string) => page.getByRole('banner').getByText(fill(t.admin.company, { name }), { exact: true });

describe('Empresa', () => {
  it('a company admin renames its company, with RFC and razón social, and the header shows the new name', async () => {
    const page = await openPanel(companyAdmin);
    await header(page, 'Tienda Luna').waitFor();
    await page.getByRole('button', { name: t.admin.nav.company, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t.companies.title });
    const name = dialog.getByLabel(t.companies.fields.name);
    await expect.poll(() => name.inputValue()).toBe('Tienda Luna');

    // A wrong homoclave is stopped in the browser, in Spanish, and nothing is saved.
    await name.fill('Luna Antigüedades');
    await dialog.getByLabel(t.companies.fields.rfc).fill('LAN150312K58');
    await dialog.getByRole('button', { name: t.companies.save }).click();
    await dialog.getByText(t.companies.errors.rfcCheckDigit).waitFor();
    expect((await ctx.app.ctx.db.select().from(companies).where(eq(companies.id, 'luna')))[0]?.name).toBe('Tienda Luna');

    await dialog.getByLabel(t.companies.fields.rfc).fill('eku-900317-3c9');
    await dialog.getByLabel(t.companies.fields.legalName).fill('Luna Antigüedades, S.A. de C.V.');
    await dialog.getByRole('button', { name: t.companies.save }).click();
    await dialog.waitFor({ state: 'hidden' });
    await header(page, 'Luna Antigüedades').waitFor();
    const [row] = await ctx.app.ctx.db.select().from(companies).where(eq(companies.id, 'luna'));
    expect([row?.name, row?.rfc, row?.legalName]).toEqual(['Luna Antigüedades', 'EKU9003173C9', 'Luna Antigüedades, S.A. de C.V.']);

    // A seller of the company reads the same name, whatever its own profile says; it has no 'Empresa' entry.
    const sellerPage = await openPanel(seller);
    await header(sellerPage, 'Luna Antigüedades').waitFor();
    expect(await sellerPage.getByRole('button', { name: t.admin.nav.company, exact: true }).count()).toBe(0);
    await sellerPage.context().close();
    await page.context().close();
  });

  it('a platform admin finds a company in Empresas and edits it', async () => {
    const page = await openPanel(platformAdmin);
    await page.getByRole('button', { name: t.admin.nav.companies, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t.companies.titleAll });
    await dialog.getByPlaceholder(t.companies.searchPlaceholder).fill('luna');
    await dialog.getByRole('button', { name: fill(t.companies.editLabel, { name: 'Luna Antigüedades' }) }).click();
    const name = dialog.getByLabel(t.companies.fields.name);
    await expect.poll(() => name.inputValue()).toBe('Luna Antigüedades');
    await name.fill('Luna y Sol');
    await dialog.getByRole('button', { name: t.companies.save }).click();
    // Back on the list, which shows the new name.
    await dialog.getByRole('button', { name: fill(t.companies.editLabel, { name: 'Luna y Sol' }) }).waitFor();
    await page.context().close();
  });
});
