import { eq } from 'drizzle-orm';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { liveSessions } from '../../src/server/db/schema.js';
import { buildCategory } from '../../test/support/actors.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { buildShow, hubApi } from './hub-show.js';

/**
 * An ended session in the Live Hub: when it becomes ended (the status dropdown, or another tab) the
 * Hub turns the camera off; 'Iniciar', 'Establecer actual' and a quick auction on it ask before
 * opening it again, and send `reopen: true` only once the seller agreed.
 */
const h = t.livehub;
const b = h.broadcast;
const SELLER = { email: 'fin.show@ejemplo.mx', name: 'Fina Show' };

let app: E2eApp;
let browser: Browser;
let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  app = await startE2eApp();
  browser = await launchBrowser({ camera: true });
  seller = await prepareUser(app, { ...SELLER, roles: ['seller'], companyId: 'fin-show', companyName: 'Fin Show' });
  categoryId = await buildCategory(app, 'Libros');
});
// Each test's pages close with it: left open, the earlier tests' Hubs (two had had the camera on) kept
// their sockets and renders going beside the last test's page, on a machine that is already loaded.
const opened: Page[] = [];
afterEach(async () => {
  for (const page of opened.splice(0)) await page.context().close();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function hubPage(): Promise<Page> {
  const page = await newPage(browser);
  opened.push(page);
  await signInPage(page, app, seller);
  return page;
}

/** The POSTs to a path ending in `suffix`, with their JSON bodies. */
function recordPosts(page: Page, suffix: string): Request[] {
  const seen: Request[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname.endsWith(suffix)) seen.push(req);
  });
  return seen;
}

async function previewOn(hub: Page): Promise<void> {
  await hub.getByRole('button', { name: b.preview, exact: true }).click();
  await hub.getByTestId('player-badge').getByText(b.previewBadge).waitFor();
  await expect.poll(() => hub.getByTestId('hub-video').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 10_000 }).toBeGreaterThan(0);
}

async function cameraIsOff(hub: Page): Promise<void> {
  await hub.getByText(b.playerIdle).waitFor();
  expect(await hub.getByTestId('hub-video').evaluate((v: HTMLVideoElement) => v.srcObject)).toBeNull();
}

describe('an ended session in the Live Hub', () => {
  it("turns the camera off when set to 'Finalizada' from the sessions table", async () => {
    const hub = await hubPage();
    const show = await buildShow(hub, app, { title: 'Libros viejos', lots: [], categoryId });
    await hub.goto(`${app.url}/admin/livehub?session=${show.id}`);
    await previewOn(hub);
    await hub.getByRole('button', { name: h.header.manageSessions }).click();
    const manage = hub.getByRole('dialog', { name: h.manage.title });
    await manage.getByRole('combobox', { name: fill(h.manage.statusLabel, { title: 'Libros viejos' }) }).selectOption('ended');
    await hub.keyboard.press('Escape');
    await cameraIsOff(hub);
  });

  it('turns the camera off when another tab ends the session', async () => {
    const hub = await hubPage();
    const show = await buildShow(hub, app, { title: 'Cómics', lots: [], categoryId });
    await hub.goto(`${app.url}/admin/livehub?session=${show.id}`);
    await previewOn(hub);
    const otherTab = await hubPage();
    await hubApi(otherTab, app).put(`/api/live-sessions/${show.id}`, { status: 'ended' });
    await cameraIsOff(hub);
  });

  it("asks before 'Iniciar', 'Establecer actual' or a quick auction open it again", async () => {
    const hub = await hubPage();
    const show = await buildShow(hub, app, { title: 'Primeras ediciones', lots: ['Rayuela, 1963'], categoryId });
    await show.api.put(`/api/live-sessions/${show.id}`, { status: 'ended' });
    const starts = recordPosts(hub, '/stream/start');
    const currents = recordPosts(hub, '/current');
    const quicks = recordPosts(hub, '/quick-auction');
    await hub.goto(`${app.url}/admin/livehub?session=${show.id}`);
    await hub.getByRole('heading', { name: 'Primeras ediciones' }).waitFor();
    const reopen = hub.getByRole('dialog', { name: h.reopen.title });

    // 'Iniciar': asked, and 'Cancelar' sends nothing.
    await hub.getByRole('button', { name: b.start, exact: true }).click();
    await reopen.getByText(h.reopen.text).waitFor();
    await reopen.getByRole('button', { name: h.reopen.cancel }).click();
    await reopen.waitFor({ state: 'detached' });
    expect(starts).toHaveLength(0);

    // 'Establecer actual': asked; 'Cancelar' sends nothing, 'Abrir de nuevo' sends reopen: true.
    const row = hub.getByRole('listitem', { name: 'Rayuela, 1963' });
    await row.getByRole('button', { name: fill(h.lots.setCurrentLabel, { name: 'Rayuela, 1963' }) }).click();
    await reopen.getByRole('button', { name: h.reopen.cancel }).click();
    await reopen.waitFor({ state: 'detached' });
    expect(currents).toHaveLength(0);
    await row.getByRole('button', { name: fill(h.lots.setCurrentLabel, { name: 'Rayuela, 1963' }) }).click();
    await reopen.getByRole('button', { name: h.reopen.confirm }).click();
    await row.getByTestId('current-lot-phase').waitFor();
    expect(currents).toHaveLength(1);
    expect(currents[0]?.postDataJSON()).toMatchObject({ reopen: true });

    // A quick auction added to it, once ended again.
    await show.api.put(`/api/live-sessions/${show.id}`, { status: 'ended' });
    await hub.getByTestId('transmission-panel').getByText(h.status.ended).waitFor();
    await hub.getByRole('button', { name: h.lots.quick }).click();
    const quick = hub.getByRole('dialog', { name: h.quick.title });
    await quick.getByRole('textbox', { name: h.quick.name }).fill('Pedro Páramo, 1955');
    await quick.getByRole('textbox', { name: h.quick.price }).fill('900');
    await quick.getByRole('button', { name: h.quick.submit }).click();
    await reopen.getByRole('button', { name: h.reopen.cancel }).click();
    expect(quicks).toHaveLength(0);
    expect(await quick.getByRole('textbox', { name: h.quick.name }).inputValue()).toBe('Pedro Páramo, 1955');
    await quick.getByRole('button', { name: h.quick.submit }).click();
    await reopen.getByRole('button', { name: h.reopen.confirm }).click();
    await quick.waitFor({ state: 'detached', timeout: 15_000 });
    expect(quicks).toHaveLength(1);
    expect(quicks[0]?.postDataJSON()).toMatchObject({ name: 'Pedro Páramo, 1955', reopen: true });
  });

  // Needs the server's SESSION_ENDED answer (POST .../current on an ended session without `reopen`).
  it('asks when the server says the session ended meanwhile, then sends reopen: true', async () => {
    const hub = await hubPage();
    const show = await buildShow(hub, app, { title: 'Poesía', lots: ['Piedra de sol, 1957'], categoryId });
    const currents = recordPosts(hub, '/current');
    await hub.goto(`${app.url}/admin/livehub?session=${show.id}`);
    await hub.getByRole('heading', { name: 'Poesía' }).waitFor();
    // Ended behind the Hub's back: no event reaches it.
    await app.ctx.db.update(liveSessions).set({ status: 'ended' }).where(eq(liveSessions.id, show.id));
    const row = hub.getByRole('listitem', { name: 'Piedra de sol, 1957' });
    await row.getByRole('button', { name: fill(h.lots.setCurrentLabel, { name: 'Piedra de sol, 1957' }) }).click();
    const reopen = hub.getByRole('dialog', { name: h.reopen.title });
    await reopen.getByRole('button', { name: h.reopen.confirm }).click();
    await row.getByTestId('current-lot-phase').waitFor();
    expect(currents.map((r) => r.postDataJSON()?.reopen ?? false)).toEqual([false, true]);
  });
});
