import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { buildShow } from './hub-show.js';

/**
 * Windows over windows in the Live Hub: one Escape closes the top one only ('Gestionar sesiones' →
 * 'Editar' → 'Elegir imagen existente'), and a form with unsaved edits asks before it closes,
 * whether by Escape, its close button or a click outside.
 */
const ctx = setupAppAndBrowser();
const h = t.livehub;
const SELLER = { email: 'vero.ventanas@ejemplo.mx', name: 'Vero Ventanas' };
let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'ventanas', companyName: 'Ventanas' });
  categoryId = await buildCategory(ctx.app, 'Arte');
});

async function hubPage(path = '/admin/livehub'): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, seller);
  await page.goto(`${ctx.app.url}${path}`);
  return page;
}

/** Open windows, the ones under the top included. */
const openWindows = (page: Page) => page.locator('[role="dialog"]').count();

describe('the Live Hub windows', () => {
  it('close one at a time on Escape, and ask before unsaved edits are lost', async () => {
    const hub = await hubPage();
    const show = await buildShow(hub, ctx.app, { title: 'Acuarelas', lots: ['Acuarela del puerto'], categoryId });
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    await hub.getByRole('heading', { name: 'Acuarelas' }).waitFor();

    await hub.getByRole('button', { name: h.header.manageSessions }).click();
    const manage = hub.getByRole('dialog', { name: h.manage.title });
    await manage.getByRole('button', { name: 'Editar Acuarelas' }).click();
    const edit = hub.getByRole('dialog', { name: h.edit.title });
    await edit.getByRole('button', { name: h.edit.chooseExisting }).click();
    const existing = hub.getByRole('dialog', { name: h.existing.title });
    await existing.waitFor();
    expect(await openWindows(hub)).toBe(3);

    // One Escape: the picture window only.
    await hub.keyboard.press('Escape');
    await existing.waitFor({ state: 'detached' });
    expect(await openWindows(hub)).toBe(2);
    await edit.waitFor();
    await manage.waitFor({ state: 'attached' });

    // An unsaved title: Escape asks, 'Seguir editando' keeps the edit.
    const title = edit.getByRole('textbox', { name: h.create.name });
    await title.fill('Acuarelas y óleos');
    await hub.keyboard.press('Escape');
    const discard = hub.getByRole('dialog', { name: h.discard.title });
    await discard.getByRole('button', { name: h.discard.keepEditing }).click();
    await discard.waitFor({ state: 'detached' });
    expect(await title.inputValue()).toBe('Acuarelas y óleos');

    // The close button asks too; 'Descartar cambios' closes 'Editar Sesión' only.
    await edit.getByRole('button', { name: t.common.close }).first().click();
    await discard.getByRole('button', { name: h.discard.confirm }).click();
    await edit.waitFor({ state: 'detached' });
    await manage.getByRole('button', { name: 'Editar Acuarelas' }).waitFor();
    expect(await openWindows(hub)).toBe(1);
    await hub.keyboard.press('Escape');
    await manage.waitFor({ state: 'detached' });
  });

  it("asks before a click outside closes 'Crear sesión' or 'Agregar subasta rápida' with input", async () => {
    const hub = await hubPage();
    const show = await buildShow(hub, ctx.app, { title: 'Grabados', lots: [], categoryId });
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    await hub.getByRole('heading', { name: 'Grabados' }).waitFor();

    await hub.getByRole('button', { name: h.header.createSession }).click();
    const create = hub.getByRole('dialog', { name: h.create.title });
    await create.getByRole('textbox', { name: h.create.name }).fill('Grabados del sábado');
    await hub.mouse.click(5, 5);
    const discard = hub.getByRole('dialog', { name: h.discard.title });
    await discard.getByRole('button', { name: h.discard.keepEditing }).click();
    expect(await create.getByRole('textbox', { name: h.create.name }).inputValue()).toBe('Grabados del sábado');
    await hub.keyboard.press('Escape');
    await discard.getByRole('button', { name: h.discard.confirm }).click();
    await create.waitFor({ state: 'detached' });

    // An untouched form closes at once.
    await hub.getByRole('button', { name: h.lots.quick }).click();
    const quick = hub.getByRole('dialog', { name: h.quick.title });
    await quick.waitFor();
    await hub.keyboard.press('Escape');
    await quick.waitFor({ state: 'detached' });
    await hub.getByRole('button', { name: h.lots.quick }).click();
    await quick.getByRole('textbox', { name: h.quick.name }).fill('Grabado en madera');
    await hub.keyboard.press('Escape');
    await discard.getByRole('button', { name: h.discard.confirm }).click();
    await quick.waitFor({ state: 'detached' });
  });
});
