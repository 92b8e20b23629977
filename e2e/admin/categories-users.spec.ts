import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { categories, userProfiles } from '../../src/server/db/schema.js';
import { messages } from '../../src/server/messages.js';
import { buildAuction } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

const ctx = setupAppAndBrowser();

let platformAdmin: E2eUser;
let seller: E2eUser;
let buyer: E2eUser;
let companyAdmin: E2eUser;

beforeAll(async () => {
  platformAdmin = await prepareUser(ctx.app, { email: 'plataforma@ejemplo.mx', name: 'Paula Plataforma', roles: ['admin'] });
  seller = await prepareUser(ctx.app, { email: 'vendedora@ejemplo.mx', name: 'Valeria Vendedora', roles: ['seller'], companyId: 'acme' });
  buyer = await prepareUser(ctx.app, { email: 'comprador@ejemplo.mx', name: 'Carlos Comprador', roles: ['buyer'] });
  companyAdmin = await prepareUser(ctx.app, { email: 'jefa@acme.mx', name: 'Julia Jefa', roles: ['admin'], companyId: 'acme' });
});

async function openPanel(user: E2eUser): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, user);
  await page.goto(`${ctx.app.url}/admin`);
  return page;
}

async function openModal(page: Page, navLabel: string, title: string): Promise<Locator> {
  await page.getByRole('button', { name: navLabel }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  return dialog;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** 'Empresa de {name}': the company field of one user's row. */
const COMPANY_LABEL = new RegExp(`^${escapeRegExp(t.users.companyIdLabel.split('{{')[0] as string)}`);

async function categoryNames(): Promise<string[]> {
  const rows = await ctx.app.ctx.db.select({ name: categories.name }).from(categories);
  return rows.map((r) => r.name).sort();
}

async function profileOf(user: E2eUser) {
  const [row] = await ctx.app.ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, user.id));
  if (!row) throw new Error(`no profile for ${user.email}`);
  return row;
}

describe('Categorías modal', () => {
  it('adds, refuses duplicates, renames and deletes with confirmation, and refuses a category in use', async () => {
    const page = await openPanel(platformAdmin);
    const dialog = await openModal(page, t.admin.nav.categories, t.categories.title);
    const list = dialog.getByRole('list', { name: t.categories.listLabel });
    const row = (name: string) => list.getByRole('listitem', { name, exact: true });
    const nameInput = dialog.getByLabel(t.categories.newLabel);
    const addButton = dialog.getByRole('button', { name: t.categories.add, exact: true });

    // A fresh database has no categories.
    await dialog.getByText(t.categories.empty).waitFor();

    // A blank name is stopped in the browser, with the schema's message.
    await nameInput.fill('   ');
    await addButton.click();
    await dialog.getByText(t.categories.errors.categoryNameRequired).waitFor();
    expect(await categoryNames()).toEqual([]);

    // Enter submits; the name is trimmed and shows with its auction count.
    await nameInput.fill('  Relojes ');
    await nameInput.press('Enter');
    await row('Relojes').waitFor();
    expect(
      await row('Relojes')
        .getByText(fill(t.categories.auctionCount_other, { count: '0' }))
        .isVisible(),
    ).toBe(true);
    expect(await nameInput.inputValue()).toBe('');
    expect(await categoryNames()).toEqual(['Relojes']);

    // Same name with other case and accents: SPEC's message plus the server's reason.
    await nameInput.fill('RELÓJES');
    await addButton.click();
    await dialog.getByText(`${t.categories.addFailed} ${messages.categories.duplicate}`).waitFor();
    expect(await categoryNames()).toEqual(['Relojes']);

    // Inline rename: Escape cancels without closing the window, Enter saves.
    await row('Relojes')
      .getByRole('button', { name: fill(t.categories.editNamed, { name: 'Relojes' }) })
      .click();
    const renameInput = dialog.getByLabel(fill(t.categories.renameLabel, { name: 'Relojes' }));
    await renameInput.fill('Otra cosa');
    await renameInput.press('Escape');
    await renameInput.waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);
    await row('Relojes').waitFor();

    await row('Relojes')
      .getByRole('button', { name: fill(t.categories.editNamed, { name: 'Relojes' }) })
      .click();
    await renameInput.fill('Relojes de bolsillo');
    await renameInput.press('Enter');
    await row('Relojes de bolsillo').waitFor();
    expect(await row('Relojes').count()).toBe(0);
    expect(await categoryNames()).toEqual(['Relojes de bolsillo']);

    // A category some auction uses: the count says so and the server refuses the delete.
    await nameInput.fill('Bicicletas');
    await addButton.click();
    await row('Bicicletas').waitFor();
    const [bikes] = await ctx.app.ctx.db.select().from(categories).where(eq(categories.name, 'Bicicletas'));
    if (!bikes) throw new Error('Bicicletas was not saved');
    await buildAuction(ctx.app.ctx.db, { categoryId: bikes.id });

    await row('Bicicletas')
      .getByRole('button', { name: fill(t.categories.deleteNamed, { name: 'Bicicletas' }) })
      .click();
    const confirm = page.getByRole('dialog', { name: t.categories.confirmDeleteTitle });
    await confirm.getByText(t.categories.confirmDelete).waitFor();
    await confirm.getByRole('button', { name: t.categories.delete, exact: true }).click();
    const refusal = dialog.getByRole('alert').filter({ hasText: t.categories.deleteFailed });
    await refusal.getByText(messages.categories.inUseOne).waitFor();
    await row('Bicicletas')
      .getByText(fill(t.categories.auctionCount_one, { count: '1' }))
      .waitFor();
    expect(await categoryNames()).toEqual(['Bicicletas', 'Relojes de bolsillo']);

    // Delete asks first: Cancelar keeps it, Eliminar removes it.
    const deleteWatches = () => row('Relojes de bolsillo').getByRole('button', { name: fill(t.categories.deleteNamed, { name: 'Relojes de bolsillo' }) });
    await deleteWatches().click();
    await confirm.getByText(t.categories.confirmDelete).waitFor();
    await confirm.getByRole('button', { name: t.categories.cancel }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await row('Relojes de bolsillo').isVisible()).toBe(true);

    await deleteWatches().click();
    await confirm.getByRole('button', { name: t.categories.delete, exact: true }).click();
    await row('Relojes de bolsillo').waitFor({ state: 'detached' });
    expect(await categoryNames()).toEqual(['Bicicletas']);
    await page.context().close();
  });

  it('shows a company admin the shared list read-only, saying why', async () => {
    const page = await openPanel(companyAdmin);
    const dialog = await openModal(page, t.admin.nav.categories, t.categories.title);
    const list = dialog.getByRole('list', { name: t.categories.listLabel });
    await list.getByRole('listitem', { name: 'Bicicletas', exact: true }).waitFor();
    await dialog.getByText(t.categories.readOnly).waitFor();
    // No add field, and no rename or delete button on any row.
    expect(await dialog.getByLabel(t.categories.newLabel).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: t.categories.add, exact: true }).count()).toBe(0);
    expect(await list.getByRole('button').count()).toBe(0);
    await page.context().close();
  });
});

describe('Usuarios modal', () => {
  it('filters by role and searches, and shows a retry after a failed load', async () => {
    const page = await openPanel(platformAdmin);
    // The first load fails (server unreachable), then 'Reintentar' loads the list.
    await page.route('**/api/users?**', (route) => route.abort());
    const dialog = await openModal(page, t.admin.nav.users, t.users.title);
    const failure = dialog.getByRole('alert').filter({ hasText: t.users.loadFailed });
    await failure.waitFor();
    await page.unroute('**/api/users?**');
    await failure.getByRole('button', { name: t.common.retry }).click();

    const row = (user: E2eUser) => dialog.getByRole('row', { name: new RegExp(escapeRegExp(user.email)) });
    await row(seller).waitFor();
    await row(buyer).waitFor();
    expect(await row(platformAdmin).isVisible()).toBe(true);

    await dialog.getByText(t.users.filters.seller, { exact: true }).click();
    await row(buyer).waitFor({ state: 'detached' });
    expect(await row(seller).isVisible()).toBe(true);
    expect(await row(platformAdmin).count()).toBe(0);

    await dialog.getByText(t.users.filters.admin, { exact: true }).click();
    await row(seller).waitFor({ state: 'detached' });
    await row(platformAdmin).waitFor();
    await row(companyAdmin).waitFor();

    await dialog.getByText(t.users.filters.buyer, { exact: true }).click();
    await row(buyer).waitFor();
    expect(await row(platformAdmin).count()).toBe(0);

    await dialog.getByText(t.users.filters.all, { exact: true }).click();
    const search = dialog.getByRole('searchbox', { name: t.users.searchLabel });
    await search.fill('comprador');
    await row(seller).waitFor({ state: 'detached' });
    expect(await row(buyer).isVisible()).toBe(true);

    await search.fill('nadie-con-este-nombre');
    await dialog.getByText(t.users.empty).waitFor();

    await search.fill('');
    await row(seller).waitFor();
    await page.context().close();
  });

  it('saves roles with the checkboxes and a company, and explains the last-admin refusal', async () => {
    const page = await openPanel(platformAdmin);
    const dialog = await openModal(page, t.admin.nav.users, t.users.title);
    const row = (user: E2eUser) => dialog.getByRole('row', { name: new RegExp(escapeRegExp(user.email)) });
    const rolesDialog = page.getByRole('dialog', { name: t.users.rolesTitle });
    const editRoles = (user: E2eUser) => row(user).getByRole('button', { name: new RegExp(`^${escapeRegExp(t.users.editRoles)}`) });

    // Roles: the buyer becomes a seller too.
    await editRoles(buyer).click();
    await rolesDialog.getByRole('checkbox', { name: t.users.roles.seller }).check();
    await rolesDialog.getByRole('button', { name: t.users.save }).click();
    await rolesDialog.waitFor({ state: 'detached' });
    await row(buyer).getByText(t.users.roles.seller, { exact: true }).waitFor();
    expect((await profileOf(buyer)).roles).toEqual(['seller', 'buyer']);

    // Company: a bad value is stopped in the browser; Enter saves a good one; empty clears it.
    const companyInput = row(buyer).getByRole('textbox', { name: COMPANY_LABEL });
    await companyInput.fill('con espacio');
    await companyInput.press('Enter');
    await row(buyer).getByText(t.users.errors.companyIdInvalid).waitFor();
    await companyInput.fill('acme');
    await companyInput.press('Enter');
    await page.getByText(t.users.companyIdSaved).first().waitFor();
    await expect.poll(async () => (await profileOf(buyer)).companyId).toBe('acme');

    await row(buyer).getByRole('textbox', { name: COMPANY_LABEL }).fill('');
    await row(buyer).getByRole('textbox', { name: COMPANY_LABEL }).press('Enter');
    await expect.poll(async () => (await profileOf(buyer)).companyId).toBeNull();

    // The roles survive a reload (read back from the server); the open window is in the URL, so it reopens by itself.
    await page.reload();
    const reloaded = page.getByRole('dialog', { name: t.users.title });
    await reloaded.waitFor();
    await reloaded
      .getByRole('row', { name: new RegExp(escapeRegExp(buyer.email)) })
      .getByText(t.users.roles.seller, { exact: true })
      .waitFor();

    // The only admin of the system removes its own admin role: a warning first, then the server's refusal.
    await reloaded
      .getByRole('row', { name: new RegExp(escapeRegExp(platformAdmin.email)) })
      .getByRole('button', { name: new RegExp(`^${escapeRegExp(t.users.editRoles)}`) })
      .click();
    // Two admins exist (the company admin too), so make the platform admin the last one first.
    await ctx.app.ctx.db
      .update(userProfiles)
      .set({ roles: ['seller'] })
      .where(eq(userProfiles.userId, companyAdmin.id));
    await rolesDialog.getByRole('checkbox', { name: t.users.roles.admin }).uncheck();
    await rolesDialog.getByText(t.users.selfLosePanel).waitFor();
    const save = rolesDialog.getByRole('button', { name: t.users.save });
    expect(await save.isDisabled()).toBe(true);
    await rolesDialog.getByRole('checkbox', { name: t.users.selfAcknowledge }).check();
    await save.click();
    await rolesDialog.getByText(`${t.users.rolesFailed} ${messages.users.lastAdmin}`).waitFor();
    expect((await profileOf(platformAdmin)).roles).toEqual(['admin']);
    await rolesDialog.getByRole('button', { name: t.users.cancel }).click();
    await rolesDialog.waitFor({ state: 'detached' });
    await ctx.app.ctx.db
      .update(userProfiles)
      .set({ roles: ['admin'] })
      .where(eq(userProfiles.userId, companyAdmin.id));
    await page.context().close();
  });

  it("shows a company admin only its company's users, with the company read-only", async () => {
    const page = await openPanel(companyAdmin);
    const dialog = await openModal(page, t.admin.nav.users, t.users.title);
    const row = (user: E2eUser) => dialog.getByRole('row', { name: new RegExp(escapeRegExp(user.email)) });
    await row(seller).waitFor();
    expect(await row(platformAdmin).count()).toBe(0);
    expect(await row(seller).getByText('acme', { exact: true }).isVisible()).toBe(true);
    expect(await dialog.getByRole('textbox', { name: COMPANY_LABEL }).count()).toBe(0);
    await page.context().close();
  });
});
