import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { livePath } from '../../src/domain/live-public.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { tapToBid } from '../support/live-phone.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * The Live Hub's walkthrough: a seller runs a show from the Live Hub (create a session, three lots from
 * the picker, one current, a 15 s timer) while a buyer on a phone follows the public link, bids, and
 * sees 'Vendido' when the server closes the lot; the seller sees it move to 'Pasados'. Then the
 * header's 'Más' menu at 390 px.
 */
const ctx = setupAppAndBrowser();
const h = t.livehub;

const SELLER = { email: 'sofia.show@ejemplo.mx', name: 'Sofía Show' };
const BUYER = { email: 'bruno.show@ejemplo.mx', name: 'Bruno Show' };
const LOTS = ['Reloj Omega Seamaster', 'Cámara Pentax K1000', 'Disco de vinilo Soda Stereo'] as const;

let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'antiguedades-sofia', companyName: 'Antigüedades Sofía' });
  await prepareUser(ctx.app, { ...BUYER, roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Antigüedades');
});

async function signedIn(user: Pick<E2eUser, 'email' | 'name'>, opts: { mobile?: boolean } = {}): Promise<Page> {
  const page = await newPage(ctx.browser, opts);
  await signInPage(page, ctx.app, user);
  return page;
}

describe('a live show from the Live Hub', () => {
  it('runs a lot on a 15 s timer while a buyer on a phone bids and sees it sold', async () => {
    const hub = await signedIn(seller);
    for (const name of LOTS) await createAuctionAs(hub, ctx.app, { name, categoryId, startingPrice: 400, status: 'pending' });

    // 'Crear sesión': title and date; 'Crear' only once both are there.
    await hub.goto(`${ctx.app.url}/admin/livehub`);
    await hub.getByText(h.noSessions).waitFor();
    await hub.getByRole('button', { name: h.header.createSession }).click();
    const create = hub.getByRole('dialog', { name: h.create.title });
    await create.waitFor();
    expect(await create.getByRole('button', { name: h.create.submit, exact: true }).isDisabled()).toBe(true);
    await create.getByRole('textbox', { name: h.create.name }).fill('  Remate de antigüedades  ');
    await create.getByRole('button', { name: h.create.presetNow }).click();
    await create.getByRole('button', { name: h.create.submit, exact: true }).click();
    await create.waitFor({ state: 'detached' });
    await eventually(() => new URL(hub.url()).searchParams.get('session')).toMatch(/^[0-9a-f-]{36}$/);
    const sessionId = new URL(hub.url()).searchParams.get('session') as string;
    await hub.getByRole('heading', { name: 'Remate de antigüedades' }).waitFor();

    // Three lots from the picker.
    await hub.getByRole('button', { name: h.lots.add, exact: true }).click();
    const picker = hub.getByRole('dialog', { name: h.picker.title });
    await picker.waitFor();
    for (const name of LOTS) {
      await picker.getByRole('textbox', { name: h.picker.search }).fill(name.split(' ')[0] as string);
      const add = picker.getByRole('button', { name: `Añadir ${name} a la sesión` });
      await add.click();
      await hub.getByRole('listitem', { name }).waitFor();
    }
    await picker.getByRole('button', { name: h.picker.done }).click();
    const upcoming = hub.getByRole('region', { name: h.lots.upcoming });
    await eventually(() => upcoming.getByRole('listitem').count()).toBe(3);

    // One current (waiting for its timer, not 'Finalizado'), then 15 s left, run by the server.
    const first = upcoming.getByRole('listitem', { name: LOTS[0] });
    await first.getByRole('button', { name: fill(h.lots.setCurrentLabel, { name: LOTS[0] }) }).click();
    await first.getByText(h.lots.phase.ready).waitFor();
    expect(await hub.getByRole('timer').innerText()).toBe(h.timer.ready);
    await hub.getByRole('button', { name: fill(h.timer.set, { seconds: '15' }) }).click();
    await first.getByText(h.lots.current).waitFor();
    await eventually(() => hub.getByRole('timer').innerText()).toMatch(/En curso: 00:1\d/);

    // The buyer opens the public link on a phone: the lot, its countdown, and a bid.
    const detail = (await (await hub.request.get(`${ctx.app.url}/api/live-sessions/${sessionId}`)).json()) as LiveSessionDetail;
    const phone = await signedIn(BUYER, { mobile: true });
    await phone.goto(`${ctx.app.url}${livePath(detail.session)}`);
    await phone.getByRole('heading', { name: 'Remate de antigüedades', level: 1 }).waitFor();
    await phone.getByTestId('current-lot-name').getByText(LOTS[0]).waitFor();
    await eventually(() => phone.getByTestId('lot-countdown').innerText()).toMatch(/^00:\d\d$/);
    await tapToBid(phone, 400, { firstInShow: true });
    await phone.getByTestId('bid-state').getByText(t.bidding.leader.leading).waitFor();

    // The server closes it: 'Vendido' on the phone, and 'Pasados / Finalizados' in the Hub, without reloading.
    await phone.getByTestId('current-lot-outcome').getByText(t.live.results.sold).waitFor({ timeout: 30_000 });
    await eventually(() => hub.getByRole('timer').innerText()).toBe(h.timer.finished);
    // The next lot goes on air, and the sold one is past.
    await upcoming
      .getByRole('listitem', { name: LOTS[1] })
      .getByRole('button', { name: fill(h.lots.setCurrentLabel, { name: LOTS[1] }) })
      .click();
    await hub.getByRole('region', { name: h.lots.past }).getByRole('listitem', { name: LOTS[0] }).waitFor();
    await phone.getByTestId('current-lot-name').getByText(LOTS[1]).waitFor();
  });

  it('sets a 9:16 cover, reorders lots from the keyboard, and puts a quick auction on the block at once', async () => {
    const hub = await signedIn(seller);
    const post = async <T>(path: string, data: unknown): Promise<T> => {
      const res = await hub.request.post(`${ctx.app.url}${path}`, { data, headers: { origin: ctx.app.url } });
      expect(res.status(), await res.text()).toBeLessThan(300);
      return (await res.json()) as T;
    };
    const session = await post<LiveSessionDetail>('/api/live-sessions', { title: 'Joyería del domingo', scheduledAt: Date.now() + 3_600_000 });
    const id = session.session.id;
    for (const name of ['Anillo de oro', 'Pulsera de plata']) {
      const auction = await createAuctionAs(hub, ctx.app, { name, categoryId, startingPrice: 900, status: 'pending' });
      await post(`/api/live-sessions/${id}/lots`, { auctionId: auction.id });
    }
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${id}`);
    await hub.getByRole('heading', { name: 'Joyería del domingo' }).waitFor();

    // The cover: a file over 2 MB is refused with SPEC's message; a photo is cropped to 9:16 and saved as 720x1280.
    await hub.getByRole('button', { name: h.header.manageSessions }).click();
    await hub.getByRole('dialog', { name: h.manage.title }).getByRole('button', { name: `Editar Joyería del domingo` }).click();
    const edit = hub.getByRole('dialog', { name: h.edit.title });
    await edit.waitFor();
    const noise = await sharp(Buffer.from(Array.from({ length: 1100 * 1100 * 3 }, () => Math.floor(Math.random() * 256))), {
      raw: { width: 1100, height: 1100, channels: 3 },
    })
      .png()
      .toBuffer();
    expect(noise.byteLength).toBeGreaterThan(2 * 1024 * 1024);
    const pick = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
      const chooser = hub.waitForEvent('filechooser');
      await edit.getByRole('button', { name: h.edit.uploadCover }).click();
      await (await chooser).setFiles(file);
    };
    await pick({ name: 'enorme.png', mimeType: 'image/png', buffer: noise });
    await edit.getByText(h.edit.coverTooLarge).waitFor();
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 180, g: 140, b: 60 } } })
      .jpeg()
      .toBuffer();
    await pick({ name: 'portada.jpg', mimeType: 'image/jpeg', buffer: photo });
    const crop = hub.getByRole('dialog', { name: h.crop.title });
    await crop.waitFor();
    await crop.getByRole('button', { name: h.crop.save }).click();
    await crop.waitFor({ state: 'detached' });
    const read = async () => (await (await hub.request.get(`${ctx.app.url}/api/live-sessions/${id}`)).json()) as LiveSessionDetail;
    await eventually(async () => (await read()).session.coverImageUrl).toMatch(/^\/uploads\//);
    const cover = await hub.request.get(`${ctx.app.url}${(await read()).session.coverImageUrl}`);
    const { width, height } = await sharp(await cover.body()).metadata();
    expect([width, height]).toEqual([720, 1280]);
    await edit.getByRole('button', { name: h.edit.cancel }).first().click();
    await edit.waitFor({ state: 'detached' });
    // Back in 'Sesiones en vivo', which opened it.
    const manage = hub.getByRole('dialog', { name: h.manage.title });
    await hub.keyboard.press('Escape');
    await manage.waitFor({ state: 'detached' });

    // Keyboard reordering: 'Bajar' moves the first lot below the second, on the server too.
    await hub.getByRole('button', { name: 'Bajar Anillo de oro' }).click();
    await eventually(async () => (await read()).lots.sort((a, b) => a.order - b.order).map((l) => l.auction.name)).toEqual([
      'Pulsera de plata',
      'Anillo de oro',
    ]);

    // A quick auction with a 15 s preset becomes the current lot, its countdown running.
    await hub.getByRole('button', { name: h.lots.quick }).click();
    const quick = hub.getByRole('dialog', { name: h.quick.title });
    await quick.getByRole('textbox', { name: h.quick.name }).fill('Collar de perlas');
    await quick.getByRole('textbox', { name: h.quick.price }).fill('250');
    await quick.getByText('15 s', { exact: true }).click();
    await quick.getByRole('button', { name: h.quick.submit }).click();
    // The window closes after success; SPEC: its form resets, with status active.
    await quick.waitFor({ state: 'detached' });
    await hub.getByRole('button', { name: h.lots.quick }).click();
    expect(await quick.getByRole('textbox', { name: h.quick.name }).inputValue()).toBe('');
    expect(await quick.getByRole('radio', { name: h.quick.statuses.active }).isChecked()).toBe(true);
    await quick.getByRole('button', { name: h.quick.cancel }).first().click();
    await quick.waitFor({ state: 'detached' });
    const onAir = hub.getByRole('region', { name: h.lots.upcoming }).getByRole('listitem', { name: 'Collar de perlas' });
    await onAir.getByText(h.lots.current).waitFor();
    await eventually(() => hub.getByRole('timer').innerText()).toMatch(/En curso: 00:1\d/);
    expect((await read()).session.status).toBe('live');
  });

  it('offers pending auctions first, asks before adding one that runs with bids, and is a thumb-sized sheet on a phone', async () => {
    const hub = await signedIn(seller);
    const post = async <T>(page: Page, path: string, data: unknown): Promise<T> => {
      const res = await page.request.post(`${ctx.app.url}${path}`, { data, headers: { origin: ctx.app.url } });
      expect(res.status(), await res.text()).toBeLessThan(300);
      return (await res.json()) as T;
    };
    const session = await post<LiveSessionDetail>(hub, '/api/live-sessions', { title: 'Música de gala', scheduledAt: Date.now() + 3_600_000 });
    const id = session.session.id;
    const sombrero = await createAuctionAs(hub, ctx.app, { name: 'Sombrero de gala', categoryId, startingPrice: 300, status: 'pending' });
    // The newest, but running online with a buyer's bid: it comes after the pending one, and adding it asks first.
    const guitarra = await createAuctionAs(hub, ctx.app, { name: 'Guitarra de gala', categoryId, startingPrice: 800 });
    const buyer = await signedIn(BUYER);
    await post(buyer, `/api/auctions/${guitarra.id}/bids`, { amount: 800 });

    await hub.goto(`${ctx.app.url}/admin/livehub?session=${id}`);
    await hub.getByRole('heading', { name: 'Música de gala' }).waitFor();
    await hub.getByRole('button', { name: h.lots.add, exact: true }).click();
    const picker = hub.getByRole('dialog', { name: h.picker.title });
    await picker.getByRole('textbox', { name: h.picker.search }).fill('gala');
    const waiting = picker.getByRole('list', { name: h.picker.waitingGroup });
    const running = picker.getByRole('list', { name: h.picker.runningGroup });
    await waiting.getByText('Sombrero de gala').waitFor();
    await running.getByText('Guitarra de gala').waitFor();
    const names = await picker.getByRole('listitem').allInnerTexts();
    expect(names.findIndex((text) => text.includes('Sombrero'))).toBeLessThan(names.findIndex((text) => text.includes('Guitarra')));
    await running.getByText(fill(h.picker.endsOnItsOwn, { date: '' }).trim(), { exact: false }).waitFor();

    // 'Añadir' on the one with bids asks what will happen to it; 'No añadir' adds nothing.
    await picker.getByRole('button', { name: `Añadir Guitarra de gala a la sesión` }).click();
    const question = picker.getByRole('alertdialog', { name: fill(h.picker.withBids.title_one, { count: '1' }) });
    await question.waitFor();
    expect(await question.innerText()).toContain(h.picker.withBids.text.split(' (')[0]);
    await question.getByRole('button', { name: h.picker.withBids.cancel }).click();
    await question.waitFor({ state: 'detached' });
    const lotsNow = async () => ((await (await hub.request.get(`${ctx.app.url}/api/live-sessions/${id}`)).json()) as LiveSessionDetail).lots;
    expect(await lotsNow()).toEqual([]);
    await picker.getByRole('button', { name: `Añadir Guitarra de gala a la sesión` }).click();
    await picker.getByRole('button', { name: fill(h.picker.withBids.confirmLabel, { name: 'Guitarra de gala' }) }).click();
    await eventually(async () => (await lotsNow()).map((l) => l.auctionId)).toEqual([guitarra.id]);
    await picker.getByRole('button', { name: `Añadir Sombrero de gala a la sesión` }).click();
    await eventually(async () => (await lotsNow()).map((l) => l.auctionId).sort()).toEqual([guitarra.id, sombrero.id].sort());

    // On a phone the same picker fills the screen, and every row, field and button is at least 44 px tall.
    const other = await createAuctionAs(hub, ctx.app, { name: 'Tololoche de gala', categoryId, startingPrice: 500, status: 'pending' });
    await hub.setViewportSize({ width: 390, height: 844 });
    await picker.getByRole('textbox', { name: h.picker.search }).fill('tololoche');
    await picker.getByRole('button', { name: `Añadir Tololoche de gala a la sesión` }).waitFor();
    const sheet = await picker.boundingBox();
    expect(sheet?.width).toBe(390);
    const heights = async (locator: ReturnType<Page['getByRole']>) =>
      Promise.all((await locator.all()).map(async (el) => (await el.boundingBox())?.height ?? 0));
    for (const height of [
      ...(await heights(picker.getByRole('button'))),
      ...(await heights(picker.getByRole('listitem'))),
      ...(await heights(picker.getByRole('textbox'))),
    ]) {
      expect(height).toBeGreaterThanOrEqual(44);
    }
    await picker.getByRole('button', { name: `Añadir Tololoche de gala a la sesión` }).click();
    await eventually(async () => (await lotsNow()).map((l) => l.auctionId)).toContain(other.id);
    await picker.getByRole('button', { name: h.picker.done }).click();
    await picker.waitFor({ state: 'detached' });
  });

  it('folds the header into “Más” at 390 px, closed by a click outside', async () => {
    const phone = await signedIn(seller, { mobile: true });
    await phone.goto(`${ctx.app.url}/admin/livehub`);
    const more = phone.getByRole('button', { name: h.header.more });
    await more.waitFor();
    expect(await phone.getByRole('button', { name: h.header.manageSessions }).count()).toBe(0);
    await more.click();
    const menu = phone.getByRole('menu');
    for (const name of [h.backToAdmin, h.header.manageSessions, h.header.createSession, h.header.addAuction]) {
      await menu.getByRole('menuitem', { name }).waitFor();
    }
    await phone.mouse.click(5, 300);
    await menu.waitFor({ state: 'detached' });
  });
});
