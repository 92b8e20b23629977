import { beforeAll, describe, expect, it } from 'vitest';
import { livePath } from '../../src/domain/live-public.js';
import { formatMoney } from '../../src/domain/money.js';
import { buildCategory } from '../../test/support/actors.js';
import { buildShow } from '../livehub/hub-show.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * 'Puja anticipada': a buyer leaves a maximum on an upcoming lot from the live page before the
 * show, another buyer a lower one; the seller opens the lot in the Hub ('Establecer actual' and a
 * timer button), and the buyer sees at once that they lead, at the proxy price.
 */
const ctx = setupAppAndBrowser();
const p = t.prebids;
const h = t.livehub;

const SELLER = { email: 'sara.anticipada@ejemplo.mx', name: 'Sara Anticipada' };
const BUYER = { email: 'beto.anticipado@ejemplo.mx', name: 'Beto Anticipado' };
const RIVAL = { email: 'rita.anticipada@ejemplo.mx', name: 'Rita Anticipada' };
const LOTS = ['Guitarra de Paracho', 'Sarape de Saltillo'];

let seller: E2eUser;
let categoryId = '';

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'artesanias-sara', companyName: 'Artesanías Sara' });
  await prepareUser(ctx.app, { ...BUYER, roles: ['buyer'] });
  await prepareUser(ctx.app, { ...RIVAL, roles: ['buyer'] });
  categoryId = await buildCategory(ctx.app, 'Artesanías');
});

describe('pre-bids on a show’s lots', () => {
  it('a buyer leaves one on an upcoming lot and raises it, the seller opens it in the Hub, and the buyer leads at the opening price', async () => {
    const hub = await newPage(ctx.browser);
    await signInPage(hub, ctx.app, seller);
    const show = await buildShow(hub, ctx.app, { title: 'Remate de artesanías', lots: LOTS, categoryId, startingPrice: 400 });
    const sarape = show.lotOf('Sarape de Saltillo');

    // Before the show: the buyer leaves $900 on the second lot, reviewed first.
    const buyer = await newPage(ctx.browser);
    await signInPage(buyer, ctx.app, BUYER);
    await buyer.goto(`${ctx.app.url}${livePath(show.detail.session)}`);
    await buyer.getByRole('heading', { name: 'Remate de artesanías', level: 1 }).waitFor();
    const row = buyer.getByTestId('upcoming-lot').filter({ hasText: 'Sarape de Saltillo' });
    await row.getByRole('button', { name: `${p.open}: Sarape de Saltillo` }).click();
    await row.getByRole('textbox', { name: p.maxLabel }).fill('350');
    await row.getByRole('button', { name: p.review }).click();
    await row.getByText(fill(p.tooLow, { amount: formatMoney(400) })).waitFor();
    await row.getByRole('textbox', { name: p.maxLabel }).fill('900');
    await row.getByRole('button', { name: p.review }).click();
    await row.getByText(p.commitment).waitFor();
    await row.getByRole('button', { name: p.confirm }).click();
    await eventually(() => row.getByTestId('prebid-mine').textContent()).toBe(fill(p.mine, { amount: formatMoney(900) }));
    // The show has not started: it may still be withdrawn. It may be raised, never lowered.
    await row.getByRole('button', { name: p.withdraw }).waitFor();
    await row.getByRole('button', { name: p.raise }).click();
    await row.getByRole('textbox', { name: p.maxLabel }).fill('800');
    await row.getByRole('button', { name: p.review }).click();
    await row.getByText(fill(p.mustRaise, { amount: formatMoney(900) })).waitFor();
    await row.getByRole('textbox', { name: p.maxLabel }).fill('1000');
    await row.getByRole('button', { name: p.review }).click();
    await row.getByRole('button', { name: p.confirm }).click();
    await eventually(() => row.getByTestId('prebid-mine').textContent()).toBe(fill(p.mine, { amount: formatMoney(1000) }));

    // Another buyer leaves a lower maximum (through the API, as her page would).
    const rival = await newPage(ctx.browser);
    await signInPage(rival, ctx.app, RIVAL);
    const res = await rival.request.post(`${ctx.app.url}/api/auctions/${sarape.auctionId}/prebids`, {
      data: { maxAmount: 500 },
      headers: { origin: ctx.app.url },
    });
    expect(res.status(), await res.text()).toBe(201);

    // The auction's own page shows the same pre-bid beside its bid panel.
    const auctionPage = await newPage(ctx.browser);
    await signInPage(auctionPage, ctx.app, BUYER);
    await auctionPage.goto(`${ctx.app.url}/auctions/${sarape.auctionId}`);
    const box = auctionPage.getByTestId('auction-prebid');
    await eventually(() => box.getByTestId('prebid-mine').textContent()).toBe(fill(p.mine, { amount: formatMoney(1000) }));
    await auctionPage.close();

    // The Hub counts them, amounts hidden; the seller opens the lot.
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${show.id}`);
    await hub.getByRole('heading', { name: 'Remate de artesanías' }).waitFor();
    const hubRow = hub.getByRole('region', { name: h.lots.upcoming }).getByRole('listitem', { name: 'Sarape de Saltillo' });
    await hubRow.getByText(fill(p.hubCount_other, { count: '2' })).waitFor();
    await hubRow.getByRole('button', { name: fill(h.lots.setCurrentLabel, { name: 'Sarape de Saltillo' }) }).click();
    await hubRow.getByText(h.lots.phase.ready).waitFor();
    await hub.getByRole('button', { name: fill(h.timer.set, { seconds: '60' }) }).click();

    // The buyer sees at once that the pre-bid leads, at one increment above the other maximum.
    await buyer.getByText(fill(p.notice.leading, { name: 'Sarape de Saltillo', price: formatMoney(520) })).waitFor();
    await buyer.getByTestId('current-lot-name').getByText('Sarape de Saltillo').waitFor();
    await eventually(() => buyer.getByTestId('current-price').innerText()).toBe(formatMoney(520));
    await buyer.getByTestId('leading-notice').waitFor();
  });
});
