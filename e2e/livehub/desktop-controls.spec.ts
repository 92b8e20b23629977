import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { AuctionDetail } from '../../src/domain/auctions.js';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs, uploadPhotoAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';
import { buildShow, hubApi } from './hub-show.js';

/**
 * The desktop Live Hub's controls: each 'Establecer actual' names its lot for screen readers, the
 * broadcast's controls fit a 1366x900 laptop screen without scrolling, 'Agregar subasta rápida'
 * closes once its auction is made, and a lot's photo picked as the cover is cropped like a file.
 */
const h = t.livehub;
const ctx = setupAppAndBrowser();
const SELLER = { email: 'dora.escritorio@ejemplo.mx', name: 'Dora Escritorio' };

let seller: E2eUser | null = null;
let categoryId = '';

async function hubPage(viewport?: { width: number; height: number }): Promise<Page> {
  seller ??= await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'escritorio-dora', companyName: 'Escritorio Dora' });
  if (!categoryId) categoryId = await buildCategory(ctx.app, 'Papelería');
  const page = await newPage(ctx.browser);
  if (viewport) await page.setViewportSize(viewport);
  await signInPage(page, ctx.app, seller);
  return page;
}

describe("the desktop Live Hub's controls", () => {
  it("names the lot of every 'Establecer actual' for screen readers, its visible words first", async () => {
    const hub = await hubPage();
    const lots = ['Pluma fuente', 'Tintero de cristal'];
    const show = await buildShow(hub, ctx.app, { title: 'Escritorio antiguo', lots, categoryId });
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    const upcoming = hub.getByRole('region', { name: h.lots.upcoming });
    for (const name of lots) {
      const button = upcoming.getByRole('listitem', { name }).getByRole('button', { name: fill(h.lots.setCurrentLabel, { name }), exact: true });
      await button.waitFor();
      // The name read out starts with the words on the button (WCAG 2.5.3, axe's label-content-name-mismatch).
      const visible = await button.innerText();
      expect(visible).toBe(h.lots.setCurrent);
      expect(fill(h.lots.setCurrentLabel, { name }).startsWith(visible)).toBe(true);
    }
  });

  it("shows 'Iniciar' and the camera and microphone selectors on a 1366x900 screen without scrolling", async () => {
    const hub = await hubPage({ width: 1366, height: 900 });
    const show = await buildShow(hub, ctx.app, { title: 'Cuadernos cosidos a mano', lots: ['Cuaderno de lino'], categoryId });
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    const panel = hub.getByTestId('transmission-panel');
    await panel.getByRole('heading', { name: 'Cuadernos cosidos a mano' }).waitFor();
    const controls = [
      panel.getByRole('button', { name: h.broadcast.start, exact: true }),
      panel.getByRole('button', { name: h.broadcast.preview, exact: true }),
      panel.getByLabel(h.broadcast.camera, { exact: true }),
      panel.getByLabel(h.broadcast.microphone, { exact: true }),
    ];
    for (const control of controls) {
      const box = await control.boundingBox();
      expect(box, await control.evaluate((el) => el.outerHTML)).not.toBeNull();
      if (!box) continue;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(900);
    }
    expect(await hub.evaluate(() => window.scrollY)).toBe(0);
    // The 9:16 player gives way, still big enough to check the framing.
    const player = await panel.getByRole('region', { name: h.transmission.playerLabel }).boundingBox();
    expect(player?.height).toBeGreaterThanOrEqual(240);
    expect((player?.width ?? 0) / (player?.height ?? 1)).toBeCloseTo(9 / 16, 2);
  });

  it("closes 'Agregar subasta rápida' after 'Crear subasta', with its toast, and opens it reset for the next one", async () => {
    const hub = await hubPage();
    const show = await buildShow(hub, ctx.app, { title: 'Papelería rápida', lots: [], categoryId });
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    await hub.getByRole('button', { name: h.lots.quick }).click();
    const quick = hub.getByRole('dialog', { name: h.quick.title });
    await quick.getByRole('textbox', { name: h.quick.name }).fill('Sacapuntas de latón');
    await quick.getByRole('textbox', { name: h.quick.price }).fill('120');
    const answer = hub.waitForResponse((res) => res.url().endsWith('/quick-auction') && res.request().method() === 'POST');
    await quick.getByRole('button', { name: h.quick.submit }).click();
    const made = (await (await answer).json()) as { auction: AuctionDetail };
    await quick.waitFor({ state: 'detached' });
    await hub.getByText(fill(h.quick.created, { id: made.auction.id })).waitFor();
    await hub.getByRole('region', { name: h.lots.upcoming }).getByRole('listitem', { name: 'Sacapuntas de latón' }).waitFor();

    await hub.getByRole('button', { name: h.lots.quick }).click();
    await quick.waitFor();
    expect(await quick.getByRole('textbox', { name: h.quick.name }).inputValue()).toBe('');
    expect(await quick.getByRole('radio', { name: h.quick.statuses.active }).isChecked()).toBe(true);
  });

  it("crops a lot's photo picked as the cover ('Elegir imagen existente' → 'Ajustar portada'), as an uploaded file", async () => {
    const hub = await hubPage();
    const photo = await uploadPhotoAs(hub, ctx.app, { name: 'secante.jpg', color: { r: 30, g: 90, b: 200 }, width: 1200, height: 900 });
    const api = hubApi(hub, ctx.app);
    const created = await api.post<LiveSessionDetail>('/api/live-sessions', { title: 'Secantes y sellos', scheduledAt: Date.now() + 3_600_000 });
    const id = created.session.id;
    const auction = await createAuctionAs(hub, ctx.app, { name: 'Secante de madera', categoryId, status: 'pending', images: [photo] });
    await api.post(`/api/live-sessions/${id}/lots`, { auctionId: auction.id });
    const covers: string[] = [];
    hub.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/uploads') covers.push(req.url());
    });

    await hub.goto(`${ctx.app.url}/admin/livehub?session=${id}`);
    await hub.getByRole('button', { name: h.header.manageSessions }).click();
    await hub
      .getByRole('dialog', { name: h.manage.title })
      .getByRole('button', { name: fill(h.manage.editLabel, { title: 'Secantes y sellos' }) })
      .click();
    const edit = hub.getByRole('dialog', { name: h.edit.title });
    await edit.getByRole('button', { name: h.edit.chooseExisting }).click();
    const existing = hub.getByRole('dialog', { name: h.existing.title });
    await existing.getByRole('button', { name: fill(h.existing.choose, { index: '1', name: 'Secante de madera' }) }).click();

    // The chooser gives way to the crop; nothing is saved until 'Guardar portada'.
    const crop = hub.getByRole('dialog', { name: h.crop.title });
    await crop.waitFor();
    await existing.waitFor({ state: 'detached' });
    expect((await api.session(id)).session.coverImageUrl).toBeNull();
    await crop.getByRole('button', { name: h.crop.save }).click();
    await crop.waitFor({ state: 'detached' });

    // Saved as a 720x1280 cut of the photo, uploaded as a new image: not the lot's own 4:3 photo.
    await eventually(async () => (await api.session(id)).session.coverImageUrl).toMatch(/^\/uploads\//);
    const cover = (await api.session(id)).session.coverImageUrl ?? '';
    expect(cover).not.toBe(photo);
    expect(covers).toHaveLength(1);
    const { width, height } = await sharp(await (await hub.request.get(`${ctx.app.url}${cover}`)).body()).metadata();
    expect([width, height]).toEqual([720, 1280]);
    await edit.getByRole('img', { name: h.edit.coverAlt }).waitFor();
  });
});
