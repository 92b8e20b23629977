import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCategory } from '../../test/support/actors.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { embeddedProvider, launchVideoBrowser } from '../support/video.js';
import { eventually } from '../support/wait.js';
import { buildShow } from './hub-show.js';

/**
 * The desktop Hub on the air: loading another show or 'Volver a Admin' would stop the broadcast,
 * so each asks first (the phone's question); 'Seguir transmitiendo' keeps it on the air, and leaving
 * anyway stops it for the buyers.
 */
const h = t.livehub;
const p = t.livehub.phone;
const SELLER = { email: 'lina.escritorio@ejemplo.mx', name: 'Lina Escritorio' };

let app: E2eApp;
let browser: Browser;
let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  app = await startE2eApp(await embeddedProvider.env());
  browser = await launchVideoBrowser();
  seller = await prepareUser(app, { ...SELLER, roles: ['seller'], companyId: 'escritorio-lina', companyName: 'Escritorio Lina' });
  categoryId = await buildCategory(app, 'Juguetes');
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('leaving the desktop Hub while on the air', () => {
  it('asks before loading another show or going back to the panel, and leaving stops the broadcast', { timeout: 90_000 }, async () => {
    const hub: Page = await newPage(browser);
    await signInPage(hub, app, seller);
    const first = await buildShow(hub, app, { title: 'Juguetes de hojalata', lots: ['Carrito de hojalata'], categoryId });
    const second = await buildShow(hub, app, { title: 'Trompos y baleros', lots: ['Trompo de madera'], categoryId });
    await hub.goto(`${app.url}/admin/livehub?session=${first.id}`);
    const panel = hub.getByTestId('transmission-panel');
    await panel.getByRole('button', { name: h.broadcast.start, exact: true }).click();
    await panel.getByTestId('player-badge').getByText(h.broadcast.liveBadge).waitFor({ timeout: 20_000 });
    await eventually(async () => (await first.api.session(first.id)).session.broadcasting).toBe(true);

    // Another show from the session bar: the question first; staying keeps the broadcast.
    await hub.getByRole('combobox', { name: h.bar.label }).selectOption(second.id);
    await hub.getByRole('button', { name: h.bar.load, exact: true }).click();
    const question = hub.getByRole('dialog', { name: p.leaveTitle });
    await question.getByText(p.leaveText).waitFor();
    await question.getByRole('button', { name: p.leaveCancel }).click();
    await question.waitFor({ state: 'detached' });
    expect(new URL(hub.url()).searchParams.get('session')).toBe(first.id);
    await panel.getByTestId('player-badge').getByText(h.broadcast.liveBadge).waitFor();

    // 'Volver a Admin' asks too; leaving stops the broadcast for the buyers.
    await hub.getByRole('button', { name: h.backToAdmin }).click();
    await question.getByRole('button', { name: p.leaveConfirm }).click();
    await eventually(() => new URL(hub.url()).pathname).toBe('/admin');
    await eventually(async () => (await first.api.session(first.id)).session.broadcasting).toBe(false);
  });
});
