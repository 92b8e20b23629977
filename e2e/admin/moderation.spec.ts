import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { companyBlocks, companyMutedWords } from '../../src/server/db/schema.js';
import { buildCompany } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

const ctx = setupAppAndBrowser();
const text = t.companies.moderation;

let platformAdmin: E2eUser;
let companyAdmin: E2eUser;
let seller: E2eUser;
let blocked: E2eUser;

beforeAll(async () => {
  await buildCompany(ctx.app.ctx.db, { id: 'luna', name: 'Tienda Luna' });
  platformAdmin = await prepareUser(ctx.app, { email: 'plataforma@ejemplo.mx', name: 'Paula Plataforma', roles: ['admin'] });
  companyAdmin = await prepareUser(ctx.app, { email: 'jefa@luna.mx', name: 'Julia Jefa', roles: ['admin', 'seller'], companyId: 'luna' });
  seller = await prepareUser(ctx.app, { email: 'vendedor@luna.mx', name: 'Víctor Vendedor', roles: ['seller'], companyId: 'luna' });
  const moderator = await prepareUser(ctx.app, { email: 'mod@ejemplo.mx', name: 'Marta Moderadora', roles: ['buyer'] });
  blocked = await prepareUser(ctx.app, { email: 'troll@ejemplo.mx', name: 'Tomás Troll', roles: ['buyer'] });
  // As a moderator leaves it from a show's chat.
  await ctx.app.ctx.db.insert(companyBlocks).values({ companyId: 'luna', userId: blocked.id, blockedBy: moderator.id });
  await ctx.app.ctx.db.insert(companyMutedWords).values({ companyId: 'luna', words: ['estafa'] });
});

async function openModeration(user: E2eUser): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, user);
  await page.goto(`${ctx.app.url}/admin`);
  await page.getByRole('button', { name: text.nav, exact: true }).click();
  return page;
}

async function expectAccessible(page: Page, screen: string) {
  const findings = await auditPage(page, screen);
  expect(findings, formatFindings(findings)).toEqual([]);
}

const storedWords = async () => (await ctx.app.ctx.db.select().from(companyMutedWords).where(eq(companyMutedWords.companyId, 'luna')))[0]?.words;

describe('Moderación', () => {
  it('a company admin sees who is blocked, by whom, and unblocks them after confirming', async () => {
    const page = await openModeration(companyAdmin);
    const dialog = page.getByRole('dialog', { name: text.title });
    const table = dialog.getByRole('table', { name: text.blocks.caption });
    const row = table.getByRole('row').filter({ hasText: blocked.email });
    await row.waitFor();
    // Their names as their profiles give them (first and last name), and when, in Mexico City time.
    const [name, , when, by] = await row.getByRole('cell').allInnerTexts();
    expect(name).toMatch(/^Tomás /);
    expect(by).toMatch(/^Marta /);
    expect(when).toMatch(/ de \d{4}, \d{2}:\d{2}$/);
    await expectAccessible(page, 'moderation, blocked users');

    await row.getByRole('button', { name: fill(text.blocks.unblockLabel, { name: name ?? '' }) }).click();
    const confirm = page.getByRole('dialog', { name: text.blocks.confirmTitle });
    await confirm.getByText(blocked.email).waitFor();
    // Cancelling changes nothing.
    await confirm.getByRole('button', { name: text.blocks.cancel }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await ctx.app.ctx.db.select().from(companyBlocks).where(eq(companyBlocks.userId, blocked.id))).toHaveLength(1);

    await row.getByRole('button', { name: fill(text.blocks.unblockLabel, { name: name ?? '' }) }).click();
    await confirm.getByRole('button', { name: text.blocks.confirm }).click();
    await dialog.getByText(text.blocks.empty).waitFor();
    expect(await ctx.app.ctx.db.select().from(companyBlocks).where(eq(companyBlocks.userId, blocked.id))).toEqual([]);
    await expectAccessible(page, 'moderation, no one blocked');
    await page.context().close();
  });

  it('a seller of the company edits the muted words, sees the word the server refuses, fixes it and saves', async () => {
    const page = await openModeration(seller);
    const dialog = page.getByRole('dialog', { name: text.title });
    await dialog.getByRole('tab', { name: text.tabs.mutedWords }).click();
    await dialog.getByRole('button', { name: fill(text.mutedWords.remove, { word: 'estafa' }) }).waitFor();

    const field = dialog.getByRole('textbox', { name: text.mutedWords.placeholder });
    await field.fill('Pésimo');
    await field.press('Enter');
    await field.fill('pesimo');
    await field.press('Enter');
    await dialog.getByRole('button', { name: text.mutedWords.save }).click();

    // The server's own words, naming the repeat; nothing saved.
    const refusal = dialog.getByRole('alert').filter({ hasText: text.mutedWords.refused });
    await refusal.getByText('La palabra 3 («pesimo») repite «Pésimo»: mayúsculas y acentos no cuentan. Deja sólo una.').waitFor();
    expect(await storedWords()).toEqual(['estafa']);
    await expectAccessible(page, 'moderation, muted word refused');

    await dialog.getByRole('button', { name: fill(text.mutedWords.remove, { word: 'pesimo' }) }).click();
    await refusal.waitFor({ state: 'hidden' });
    await dialog.getByRole('button', { name: text.mutedWords.save }).click();
    await page.getByText(text.mutedWords.saved).waitFor();
    expect(await storedWords()).toEqual(['estafa', 'Pésimo']);
    await page.context().close();
  });

  it('a platform admin picks the company first, then reads its moderation', async () => {
    const page = await openModeration(platformAdmin);
    const dialog = page.getByRole('dialog', { name: text.title });
    await dialog.getByText(text.chooseCompany).waitFor();
    await expectAccessible(page, 'moderation, platform admin before choosing');
    await dialog.getByLabel(text.companyLabel).fill('luna');
    await page.getByRole('option', { name: 'Tienda Luna' }).click();
    await dialog.getByRole('tab', { name: text.tabs.mutedWords }).click();
    await dialog.getByRole('button', { name: fill(text.mutedWords.remove, { word: 'estafa' }) }).waitFor();
    await page.context().close();
  });
});
