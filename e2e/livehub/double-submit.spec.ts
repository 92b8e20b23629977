import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionList } from '../../src/domain/live.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { buildShow, hubApi } from './hub-show.js';

/**
 * A double click on 'Crear' (Crear sesión) or 'Crear subasta' (Agregar subasta rápida) makes one
 * record: the form locks in the click that submits, and each POST carries an Idempotency-Key that
 * a retry of the same submission reuses. The two clicks are sent in one task, before any render
 * (a mutation's pending flag arrives a render late, which is what let the second one through).
 */
const ctx = setupAppAndBrowser();
const h = t.livehub;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SELLER = { email: 'diego.doble@ejemplo.mx', name: 'Diego Doble' };

let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'doble-clic', companyName: 'Doble Clic' });
  categoryId = await buildCategory(ctx.app, 'Juguetes');
});

async function hubPage(): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, seller);
  return page;
}

/** Every POST to `path` the page sends. */
function recordPosts(page: Page, path: RegExp): Request[] {
  const seen: Request[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && path.test(new URL(req.url()).pathname)) seen.push(req);
  });
  return seen;
}

describe('the Live Hub creating forms', () => {
  it("'Crear sesión' double-clicked creates one session, sent with an Idempotency-Key", async () => {
    const hub = await hubPage();
    const posts = recordPosts(hub, /^\/api\/live-sessions$/);
    await hub.goto(`${ctx.app.url}/admin/livehub`);
    await hub.getByRole('button', { name: h.header.createSession }).click();
    const create = hub.getByRole('dialog', { name: h.create.title });
    await create.getByRole('textbox', { name: h.create.name }).fill('Juguetes antiguos');
    await create.getByRole('button', { name: h.create.presetNow }).click();
    await create.getByRole('button', { name: h.create.submit, exact: true }).evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    await create.waitFor({ state: 'detached' });
    await hub.getByRole('heading', { name: 'Juguetes antiguos' }).waitFor();

    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers()['idempotency-key']).toMatch(UUID);
    const list = await hubApi(hub, ctx.app).get<LiveSessionList>('/api/live-sessions');
    expect(list.sessions.filter((s) => s.title === 'Juguetes antiguos')).toHaveLength(1);
  });

  it("'Agregar subasta rápida' double-clicked creates one auction and one lot; the next one gets a new key", async () => {
    const hub = await hubPage();
    const show = await buildShow(hub, ctx.app, { title: 'Rápidas', lots: [], categoryId });
    const posts = recordPosts(hub, /\/quick-auction$/);
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    await hub.getByRole('button', { name: h.lots.quick }).click();
    const quick = hub.getByRole('dialog', { name: h.quick.title });
    await quick.getByRole('textbox', { name: h.quick.name }).fill('Carrito de lámina');
    await quick.getByRole('textbox', { name: h.quick.price }).fill('150');
    await quick.getByRole('button', { name: h.quick.submit }).evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    // The window closes after its success, its form reset (SPEC §5).
    await quick.waitFor({ state: 'detached', timeout: 15_000 });
    expect(posts).toHaveLength(1);
    const firstKey = posts[0]?.headers()['idempotency-key'];
    expect(firstKey).toMatch(UUID);
    const lots = (await show.api.session(show.id)).lots.filter((l) => l.auction.name === 'Carrito de lámina');
    expect(lots).toHaveLength(1);

    // Another auction from the same form is a new submission: a new key.
    await hub.getByRole('button', { name: h.lots.quick }).click();
    expect(await quick.getByRole('textbox', { name: h.quick.name }).inputValue()).toBe('');
    await quick.getByRole('textbox', { name: h.quick.name }).fill('Trompo de madera');
    await quick.getByRole('textbox', { name: h.quick.price }).fill('80');
    await quick.getByRole('button', { name: h.quick.submit }).click();
    await expect.poll(() => posts.length, { timeout: 15_000 }).toBe(2);
    expect(posts[1]?.headers()['idempotency-key']).toMatch(UUID);
    expect(posts[1]?.headers()['idempotency-key']).not.toBe(firstKey);
  });

  it('a retry after a lost answer sends the same Idempotency-Key', async () => {
    const hub = await hubPage();
    const show = await buildShow(hub, ctx.app, { title: 'Respuesta perdida', lots: [], categoryId });
    const posts = recordPosts(hub, /\/quick-auction$/);
    // The first answer is lost on the way back (the server did create the auction).
    let dropped = false;
    await hub.route('**/quick-auction', async (route) => {
      if (dropped) return route.continue();
      dropped = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    await hub.getByRole('button', { name: h.lots.quick }).click();
    const quick = hub.getByRole('dialog', { name: h.quick.title });
    await quick.getByRole('textbox', { name: h.quick.name }).fill('Balero');
    await quick.getByRole('textbox', { name: h.quick.price }).fill('40');
    await quick.getByRole('button', { name: h.quick.submit }).click();
    await quick.getByText(t.common.networkError).waitFor();
    await quick.getByRole('button', { name: h.quick.submit }).click();
    await quick.waitFor({ state: 'detached', timeout: 15_000 });
    expect(posts).toHaveLength(2);
    expect(posts[1]?.headers()['idempotency-key']).toBe(posts[0]?.headers()['idempotency-key']);
  });
});
