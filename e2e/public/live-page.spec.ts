import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { formatMoney } from '../../src/domain/money.js';
import { buildCategory, signInAs } from '../../test/support/actors.js';
import { connected, connectSocket } from '../../test/support/sockets.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { closeSheet, oneTapButton, openSheet, tapToBid } from '../support/live-phone.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

const ctx = setupAppAndBrowser();
const SELLER = { email: 'vendedora.live@ejemplo.mx', name: 'Vera Live' };
const ANA = { email: 'ana.live@ejemplo.mx', name: 'Ana Live' };
let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'tienda-live', companyName: 'Tienda Live' });
  await prepareUser(ctx.app, { ...ANA, roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Relojes');
});

async function api<T>(page: Page, method: 'post' | 'put', path: string, data: unknown): Promise<T> {
  const res = await page.request[method](`${ctx.app.url}${path}`, { data, headers: { origin: ctx.app.url } });
  if (res.status() >= 300) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

describe('the public live page', () => {
  it('follows the show: current lot, bid, sold, next lot, pause, end', async () => {
    const sp = await newPage(ctx.browser);
    await signInPage(sp, ctx.app, seller);
    const a1 = await createAuctionAs(sp, ctx.app, { name: 'Reloj Omega', categoryId, startingPrice: 500, status: 'pending' });
    const a2 = await createAuctionAs(sp, ctx.app, { name: 'Reloj Seiko', categoryId, startingPrice: 300, status: 'pending' });
    let d = await api<LiveSessionDetail>(sp, 'post', '/api/live-sessions', {
      title: 'Relojes del sábado',
      scheduledAt: Date.now() + 3600_000,
      sellerSlug: 'Tienda Live',
      whatsappLink: 'https://chat.whatsapp.com/abc123',
      biddingConfig: { minIncrement: 50, antiSnipeSeconds: 5, timerSecondsDefault: 60 },
    });
    const id = d.session.id;
    d = await api(sp, 'post', `/api/live-sessions/${id}/lots`, { auctionId: a1.id });
    d = await api(sp, 'post', `/api/live-sessions/${id}/lots`, { auctionId: a2.id });
    const [lot1, lot2] = d.lots;

    // A buyer on a phone opens a link with a wrong slug, before the show.
    const bp = await newPage(ctx.browser, { mobile: true });
    await signInPage(bp, ctx.app, ANA);
    await bp.goto(`${ctx.app.url}/live/otro-slug/${id}`);
    await bp.getByRole('heading', { name: 'Relojes del sábado', level: 1 }).waitFor();
    await eventually(() => new URL(bp.url()).pathname).toBe(`/live/tienda-live/${id}`);
    await bp.getByText(t.live.scheduled.startsIn).waitFor();
    expect(await bp.getByRole('link', { name: t.live.whatsapp }).getAttribute('href')).toBe('https://chat.whatsapp.com/abc123');
    // The phone is the show: the lots to come are one tap away, in the sheet.
    let sheet = await openSheet(bp);
    expect(await sheet.getByTestId('upcoming-lot').count()).toBe(2);
    await closeSheet(bp);

    // The seller sets lot 1 current and a 15 s timer: the phone follows without reloading.
    await api(sp, 'post', `/api/live-sessions/${id}/current`, { lotId: lot1?.id });
    await api(sp, 'post', `/api/live-sessions/${id}/timer`, { seconds: 15 });
    await bp.getByTestId('current-lot-name').getByText('Reloj Omega').waitFor();
    await eventually(() => bp.getByTestId('lot-countdown').innerText()).toMatch(/^00:\d\d$/);
    await eventually(() => bp.getByTestId('live-status').textContent()).toBe(t.live.status.live);
    await eventually(() => bp.getByTestId('viewer-count').getAttribute('data-count')).toBe('1');

    // The sheet's quick amounts step by the session's increment ($500, $550, $600); she bids the minimum with one tap.
    sheet = await openSheet(bp);
    expect(await sheet.getByRole('button', { name: fill(t.bidding.form.quickAddLabel, { amount: formatMoney(550) }) }).count()).toBe(1);
    await closeSheet(bp);
    await tapToBid(bp, 500, { firstInShow: true });
    await bp.getByTestId('bid-state').getByText(t.bidding.leader.leading).waitFor();
    await eventually(() => bp.getByTestId('current-price').innerText()).toBe(formatMoney(500));

    // The lot closes on the server: 'Vendido', and she won it.
    await bp.getByTestId('current-lot-outcome').getByText(t.live.results.sold).waitFor({ timeout: 30_000 });
    await bp.getByTestId('bid-state').getByText(t.live.phone.won).waitFor();

    // Next lot: lot 1 moves to the results with its price.
    await api(sp, 'post', `/api/live-sessions/${id}/current`, { lotId: lot2?.id });
    await bp.getByTestId('current-lot-name').getByText('Reloj Seiko').waitFor();
    sheet = await openSheet(bp);
    const sold = sheet.getByTestId('result-lot').filter({ hasText: 'Reloj Omega' });
    await sold.getByText(t.live.results.sold).waitFor();
    expect(await sold.getByTestId('sold-price').innerText()).toBe(formatMoney(500));
    await closeSheet(bp);

    // The seller asks the viewers to turn the sound on: a banner they can close.
    const sellerSocket = connectSocket(ctx.app.url, {
      cookie: (await signInAs(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'tienda-live', companyName: 'Tienda Live', completeProfile: true })).cookie,
      origin: ctx.app.url,
    });
    await connected(sellerSocket);
    sellerSocket.emit('promptUnmute', { sessionId: id });
    const banner = bp.getByTestId('unmute-banner');
    await banner.getByText(t.live.unmute.title).waitFor();

    await banner.getByRole('button', { name: t.live.unmute.dismiss }).click();
    await eventually(() => banner.count()).toBe(0);
    sellerSocket.close();

    // Pause, then end.
    await api(sp, 'put', `/api/live-sessions/${id}`, { status: 'paused' });
    await bp.getByText(t.live.paused).waitFor();
    await api(sp, 'put', `/api/live-sessions/${id}`, { status: 'ended' });
    await bp.getByRole('heading', { name: t.live.ended.title }).waitFor();
    sheet = await openSheet(bp);
    await sheet.getByText(fill(t.live.results.total, { total: formatMoney(500) })).waitFor();
    await closeSheet(bp);

    // Signed out: the same page, with the sign-in prompt on a running lot.
    const a3 = await createAuctionAs(sp, ctx.app, { name: 'Reloj Citizen', categoryId, startingPrice: 800, status: 'pending' });
    d = await api(sp, 'put', `/api/live-sessions/${id}`, { status: 'live' });
    d = await api(sp, 'post', `/api/live-sessions/${id}/lots`, { auctionId: a3.id });
    const lot3 = d.lots.find((l) => l.auctionId === a3.id);
    await api(sp, 'post', `/api/live-sessions/${id}/current`, { lotId: lot3?.id });
    await api(sp, 'post', `/api/live-sessions/${id}/timer`, { seconds: 60 });
    const visitor = await newPage(ctx.browser, { mobile: true });
    await visitor.goto(`${ctx.app.url}/live/${id}`);
    // Signed out the button still shows the amount; its tap signs in first (live-phone.spec.ts follows it).
    await oneTapButton(visitor, 800).waitFor();
    await eventually(() => visitor.getByTestId('viewer-count').getAttribute('data-count')).toBe('2');

    const desk = await newPage(ctx.browser);
    await desk.goto(`${ctx.app.url}/live/${id}`);
    await desk.getByRole('heading', { name: t.live.current.heading }).waitFor();

    // The directory lists it.
    await visitor.goto(`${ctx.app.url}/live`);
    await visitor.getByRole('heading', { name: t.live.directory.liveNow }).waitFor();
    await visitor.getByRole('link', { name: /Relojes del sábado/ }).click();
    await visitor.getByRole('heading', { name: 'Relojes del sábado', level: 1 }).waitFor();

    await visitor.goto(`${ctx.app.url}/live`);
    await visitor.getByRole('heading', { name: t.live.directory.liveNow }).waitFor();
  });
});
