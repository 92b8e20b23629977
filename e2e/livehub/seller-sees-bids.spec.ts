import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BidHistory } from '../../src/domain/bidding.js';
import { livePath } from '../../src/domain/live-public.js';
import { formatMoney } from '../../src/domain/money.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { tapToBid } from '../support/live-phone.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';
import { buildShow, hubApi } from './hub-show.js';

/**
 * The seller follows the lot on the block while buyers bid: the Hub's current lot shows, live, the
 * price, the masked leader, the bid count and the countdown, from the auction room buyers follow,
 * with no click in the Hub. One buyer bids from a phone (390 px), another through the API.
 */
const ctx = setupAppAndBrowser();
const h = t.livehub;

const SELLER = { email: 'sara.pujas@ejemplo.mx', name: 'Sara Pujas' };
const PHONE_BUYER = { email: 'bruno.movil@ejemplo.mx', name: 'Bruno Móvil' };
const API_BUYER = { email: 'carla.api@ejemplo.mx', name: 'Carla Api' };

let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'pujas-en-vivo', companyName: 'Pujas en Vivo' });
  await prepareUser(ctx.app, { ...PHONE_BUYER, roles: ['buyer'] });
  await prepareUser(ctx.app, { ...API_BUYER, roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Relojes');
});

async function signedIn(user: Pick<E2eUser, 'email' | 'name'>, opts: { mobile?: boolean } = {}): Promise<Page> {
  const page = await newPage(ctx.browser, opts);
  await signInPage(page, ctx.app, user);
  return page;
}

describe('the Live Hub while a lot runs', () => {
  it("shows each bid on the current lot (price, leader, bids, time left) without the seller's click", async () => {
    const hub = await signedIn(seller);
    const show = await buildShow(hub, ctx.app, { title: 'Relojes en vivo', lots: ['Reloj Seiko 5'], categoryId, startingPrice: 400 });
    const lot = show.lotOf('Reloj Seiko 5');
    await show.api.post(`/api/live-sessions/${show.id}/current`, { lotId: lot.id });
    await show.api.post(`/api/live-sessions/${show.id}/timer`, { seconds: 300 });

    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    const row = hub.getByRole('region', { name: h.lots.upcoming }).getByRole('listitem', { name: 'Reloj Seiko 5' });
    const live = row.getByTestId('current-lot-live');
    await live.waitFor();
    expect(await live.getByTestId('current-lot-price').innerText()).toBe(formatMoney(400));
    expect(await live.getByTestId('current-lot-bids').innerText()).toBe(fill(h.lots.bids_other, { count: '0' }));
    await eventually(() => live.getByTestId('current-lot-countdown').innerText()).toMatch(/^Quedan 0[45]:\d\d$/);
    expect(await live.getByTestId('current-lot-leader').count()).toBe(0);

    // A buyer on a phone bids the starting price from the public page.
    const phone = await signedIn(PHONE_BUYER, { mobile: true });
    await phone.goto(`${ctx.app.url}${livePath(show.detail.session)}`);
    await phone.getByTestId('current-lot-name').getByText('Reloj Seiko 5').waitFor();
    await tapToBid(phone, 400, { firstInShow: true });
    await phone.getByTestId('bid-state').getByText(t.bidding.leader.leading).waitFor();

    // The Hub follows, untouched: one bid, the phone's buyer leading, masked as buyers see them.
    const masked = async () => {
      const history = await hubApi(hub, ctx.app).get<BidHistory>(`/api/auctions/${lot.auctionId}/bids`);
      return history.items[0]?.bidderName ?? '';
    };
    await eventually(() => live.getByTestId('current-lot-bids').innerText()).toBe(fill(h.lots.bids_one, { count: '1' }));
    const phoneName = await masked();
    expect(phoneName).toMatch(/\*/);
    await eventually(() => live.getByTestId('current-lot-leader').innerText()).toBe(fill(h.lots.live.leader, { name: phoneName }));

    // Another buyer outbids through the API: a new price and a new leader, still without a click.
    const other = await signedIn(API_BUYER);
    await hubApi(other, ctx.app).post(`/api/auctions/${lot.auctionId}/bids`, { amount: 600 }, { 'Idempotency-Key': crypto.randomUUID() });
    await eventually(() => live.getByTestId('current-lot-price').innerText()).toBe(formatMoney(600));
    await eventually(() => live.getByTestId('current-lot-bids').innerText()).toBe(fill(h.lots.bids_other, { count: '2' }));
    const otherName = await masked();
    expect(otherName).not.toBe('');
    await eventually(() => live.getByTestId('current-lot-leader').innerText()).toBe(fill(h.lots.live.leader, { name: otherName }));
    expect(await live.getByTestId('current-lot-countdown').innerText()).toMatch(/^Quedan 0[45]:\d\d$/);
  });
});
