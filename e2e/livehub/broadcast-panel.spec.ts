import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMERA_STORAGE_KEY } from '../../src/domain/video.js';
import { buildSession } from '../../test/support/factories.js';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';

/**
 * The transmission panel's failures, each with SPEC's words, no media needed:
 * 'Iniciar' without a loaded session, a camera the browser refuses, and Agora without its keys
 * (the Hub says broadcasting is disabled). Also the remembered camera (`livehub.cameraId`).
 */

const b = t.livehub.broadcast;
const SELLER = { email: 'panel.video@ejemplo.mx', name: 'Paula Panel' };

async function signedInHub(browser: Browser, app: E2eApp, path: string): Promise<Page> {
  const page = await newPage(browser);
  await signInPage(page, app, SELLER);
  await page.goto(`${app.url}${path}`);
  await page.getByTestId('transmission-panel').waitFor();
  return page;
}

describe('with the default provider', () => {
  let app: E2eApp;
  let camera: Browser;
  let noCamera: Browser;
  let seller: E2eUser;

  beforeAll(async () => {
    app = await startE2eApp();
    camera = await launchBrowser({ camera: true });
    // Without the fake permission prompt, headless Chromium refuses the camera.
    noCamera = await launchBrowser();
    seller = await prepareUser(app, { ...SELLER, roles: ['seller'], companyId: 'panel-co', companyName: 'Panel Co' });
  });
  afterAll(async () => {
    await camera?.close();
    await noCamera?.close();
    await app?.close();
  });

  it('asks for a loaded session before starting, and previews the camera without one', async () => {
    const hub = await signedInHub(camera, app, '/admin/livehub');
    await hub.getByRole('heading', { name: b.noSession }).waitFor();
    await hub.getByRole('button', { name: b.start, exact: true }).click();
    await hub.getByRole('alert').getByText(b.needSession).waitFor();
    await hub.getByRole('button', { name: b.preview, exact: true }).click();
    await hub.getByTestId('player-badge').getByText(b.previewBadge).waitFor();
    await expect.poll(() => hub.locator('[data-testid="hub-video"]').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 10_000 }).toBeGreaterThan(0);
    await hub.getByRole('button', { name: b.stopPreview }).click();
    await hub.getByText(b.playerIdle).waitFor();
  });

  it('says to allow the camera when the browser refuses it', async () => {
    const session = await buildSession(app.ctx.db, { sellerId: seller.id, companyId: 'panel-co', title: 'Sin cámara' });
    const hub = await signedInHub(noCamera, app, `/admin/livehub?session=${session.id}`);
    await hub.getByRole('button', { name: b.preview, exact: true }).click();
    await hub.getByRole('alert').getByText(b.previewFailed).waitFor();
    // Nothing went live on the server.
    const row = await app.ctx.db.query.liveSessions.findFirst({ where: (s, { eq }) => eq(s.id, session.id) });
    expect(row?.lastStreamStart).toBeNull();
  });

  it('remembers the chosen camera across reloads', async () => {
    const session = await buildSession(app.ctx.db, { sellerId: seller.id, companyId: 'panel-co', title: 'Cámara recordada' });
    const hub = await signedInHub(camera, app, `/admin/livehub?session=${session.id}`);
    // Labels appear once the page may use the camera.
    await hub.getByRole('button', { name: b.preview, exact: true }).click();
    await hub.getByTestId('player-badge').waitFor();
    await hub.getByRole('combobox', { name: b.camera }).click();
    const option = hub.getByRole('listbox').getByRole('option').first();
    const label = (await option.textContent()) ?? '';
    await option.click();
    const stored = await hub.evaluate((key) => window.localStorage.getItem(key), CAMERA_STORAGE_KEY);
    expect(stored).toBeTruthy();
    await hub.reload();
    await hub.getByTestId('transmission-panel').waitFor();
    await hub.getByRole('button', { name: b.preview, exact: true }).click();
    await expect.poll(() => hub.getByRole('combobox', { name: b.camera }).inputValue(), { timeout: 10_000 }).toBe(label);
  });
});

describe('with Agora and no keys', () => {
  let app: E2eApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startE2eApp({ VIDEO_PROVIDER: 'agora' });
    browser = await launchBrowser({ camera: true });
    await prepareUser(app, { ...SELLER, roles: ['seller'], companyId: 'panel-co', companyName: 'Panel Co' });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('says broadcasting is disabled and does not offer to start', async () => {
    const hub = await signedInHub(browser, app, '/admin/livehub');
    await hub.getByTestId('broadcast-disabled').getByText(b.disabled).waitFor();
    expect(await hub.getByRole('button', { name: b.start, exact: true }).isDisabled()).toBe(true);
  });
});
