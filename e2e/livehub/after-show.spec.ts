import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../src/domain/live.js';
import { formatMoney } from '../../src/domain/money.js';
import type { DraftAnswer } from '../../src/domain/payments.js';
import { bids, liveLotRuns, liveViewerSamples, userProfiles } from '../../src/server/db/schema.js';
import { messages } from '../../src/server/messages.js';
import { type Actor, buildActor, buildCategory } from '../../test/support/actors.js';
import { buildAuction, buildCompany, buildLot, buildSession, buildWonAuction } from '../../test/support/factories.js';
import { pageAs, passDeadline, payInSandbox, statValue } from '../support/after-show.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs } from '../support/auctions.js';
import { auditPage, formatFindings } from '../support/axe.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { oneTapButton, openSheet } from '../support/live-phone.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * After the show, end to end: the seller opens an ended show in the Hub, reads its summary and
 * charts, bills it ('Cobrar el show', 'Generar enlaces') and has each buyer's WhatsApp message and
 * the due reminders. On 390 px phones one buyer pays in the sandbox, another lets the deadline pass
 * (twice, so the shop's strike limit of 2 blocks him); the seller gives the lot a Segunda
 * oportunidad, the runner-up pays it from Mis compras, and the blocked buyer finds no bid button in
 * the shop's live show, told why, while a bid is refused in the bid engine's words.
 *
 * The tests run in order, each picking up where the last left the show.
 */
const ctx = setupAppAndBrowser();
const s = t.showSummary;
const b = t.showBilling;
const u = t.unpaid.panel;
const m = t.purchases;

const COMPANY = 'remates-tras-show';
const COMPANY_NAME = 'Remates Tras Show';
const SHOW = 'Show de juguetes antiguos';
const SELLER = { email: 'sofia.vende@ejemplo.mx', name: 'Sofía Vende' };
const ANA = { email: 'ana.paga@ejemplo.mx', name: 'Ana Díaz', whatsapp: '+523311110001' };
const BETO = { email: 'beto.debe@ejemplo.mx', name: 'Beto Soto', whatsapp: '+523311110002' };
const CARLA = { email: 'carla.segunda@ejemplo.mx', name: 'Carla Ruiz', whatsapp: '+523311110003' };

/** The show's lots: three sold (Ana two, Beto one over Carla's 700), one unsold. */
const LOTS = [
  { name: 'Carrito de lámina', start: 300, price: 1200, winner: 'ana' },
  { name: 'Muñeca de trapo', start: 200, price: 500, winner: 'ana' },
  { name: 'Trompo de madera', start: 100, price: 800, winner: 'beto' },
  { name: 'Yoyo de colores', start: 150, price: null, winner: null },
] as const;
const RUNNER_UP_BID = 700;
/** Viewers sampled every 5 s over the minute the four lots ran (15 s each). */
const VIEWERS = [2, 4, 6, 9, 12, 11, 10, 8, 7, 9, 6, 5, 3];
const SAMPLE_MS = 5_000;

let seller: E2eUser;
let ana: Actor;
let beto: Actor;
let carla: Actor;
let sessionId = '';
const auctionIds: string[] = [];
let categoryId = '';
const links = { ana: '', beto: '' };

/** The seller's pages, signed in once each for the file (the development sign-in is rate-limited). */
let hub: Page;
let panel: Page;
const opened: Page[] = [];

beforeAll(async () => {
  const db = ctx.app.ctx.db;
  await buildCompany(db, { id: COMPANY, name: COMPANY_NAME });
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: COMPANY, companyName: COMPANY_NAME });
  const buyer = async (who: typeof ANA) => {
    const actor = await buildActor(ctx.app, { email: who.email, name: who.name, roles: ['buyer'], completeProfile: true, whatsapp: who.whatsapp });
    // Their own last name: the panel names a runner-up by profile, the bid history by the name they bid with.
    await db
      .update(userProfiles)
      .set({ lastName: who.name.split(' ')[1] ?? '' })
      .where(eq(userProfiles.userId, actor.id));
    return actor;
  };
  ana = await buyer(ANA);
  beto = await buyer(BETO);
  carla = await buyer(CARLA);
  categoryId = await buildCategory(ctx.app, 'Juguetes antiguos');

  // The show ran from an hour ago, one minute of lots, and ended.
  const startedAt = Math.floor((Date.now() - 3_600_000) / SAMPLE_MS) * SAMPLE_MS;
  const session = await buildSession(db, { companyId: COMPANY, sellerId: seller.id, status: 'ended', title: SHOW, scheduledAt: new Date(startedAt) });
  sessionId = session.id;
  const winners = { ana: { actor: ana, who: ANA }, beto: { actor: beto, who: BETO } };
  for (const [i, lot] of LOTS.entries()) {
    const closedAt = new Date(startedAt + (i + 1) * 15_000);
    const auction =
      lot.winner === null
        ? await buildAuction(db, {
            name: lot.name,
            companyId: COMPANY,
            sellerId: seller.id,
            startingPrice: lot.start,
            status: 'ended',
            endTime: closedAt,
            closedAt,
          })
        : await buildWonAuction(db, {
            name: lot.name,
            companyId: COMPANY,
            sellerId: seller.id,
            startingPrice: lot.start,
            price: lot.price,
            endTime: closedAt,
            closedAt,
            winnerId: winners[lot.winner].actor.id,
            currentWinnerName: winners[lot.winner].who.name,
            winnerWhatsapp: winners[lot.winner].who.whatsapp,
          });
    auctionIds.push(auction.id);
    const row = await buildLot(db, { sessionId, auctionId: auction.id, status: lot.winner === null ? 'passed' : 'finished' });
    await db.insert(liveLotRuns).values({ sessionId, lotId: row.id, auctionId: auction.id, openedAt: new Date(startedAt + i * 15_000), closedAt });
  }
  // Carla bid on the trompo before Beto outbid her: she is its runner-up.
  const trompo = auctionIds[2] as string;
  await db.insert(bids).values([
    { auctionId: trompo, bidderId: carla.id, bidderName: CARLA.name, seq: 1, amount: RUNNER_UP_BID },
    { auctionId: trompo, bidderId: beto.id, bidderName: BETO.name, seq: 2, amount: 800 },
  ]);
  await db.insert(liveViewerSamples).values(VIEWERS.map((viewers, i) => ({ sessionId, at: new Date(startedAt + i * SAMPLE_MS), viewers })));

  hub = await newPage(ctx.browser);
  await signInPage(hub, ctx.app, seller);
  panel = await newPage(ctx.browser);
  await signInPage(panel, ctx.app, seller);
});

afterAll(async () => {
  for (const page of [hub, panel, ...opened]) await page?.context().close();
});

/** A buyer's phone (390 px), signed in. */
async function phone(actor: Actor): Promise<Page> {
  const page = await pageAs(ctx.browser, ctx.app, actor, { mobile: true });
  opened.push(page);
  return page;
}

/** A change the seller's page asks of the API, as the panel's own calls do. */
async function sellerCall<T>(method: 'post' | 'put', path: string, data?: unknown): Promise<T> {
  const res = await panel.request[method](`${ctx.app.url}${path}`, { data, headers: { origin: ctx.app.url } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as T;
}

/** The panel's 'Resumen de ganadores', where the reminders and the expired bills are. */
async function openBillingPanel(): Promise<void> {
  await panel.goto(`${ctx.app.url}/admin`);
  await panel.getByRole('main').getByRole('group', { name: t.auctions.filters.label }).getByRole('button', { name: t.auctions.filters.winners }).click();
  await panel.getByTestId('billing-expired').waitFor();
}

const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);
const text = (value: string | null) => (value ?? '').replace(/\s+/g, ' ').trim();

describe('after the show', () => {
  it('the Hub shows the ended show’s figures, both charts and its buyers', async () => {
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${sessionId}`);
    const summary = hub.getByRole('tabpanel', { name: t.livehub.afterShow.summaryTab });
    await statValue(summary, s.stats.grossSold).waitFor();

    const sold = LOTS.filter((l) => l.price !== null);
    const gross = sum(sold.map((l) => l.price ?? 0));
    const figures: [string, string][] = [
      [s.stats.grossSold, formatMoney(gross)],
      [s.stats.lotsSold, '3'],
      [s.stats.lotsUnsold, '1'],
      [s.stats.buyers, '2'],
      [s.stats.averageSale, formatMoney(Math.round(gross / sold.length))],
      [s.stats.peakViewers, String(Math.max(...VIEWERS))],
      [s.stats.averageViewers, String(Math.round(sum(VIEWERS) / VIEWERS.length))],
      [s.stats.paid, formatMoney(0)],
      [s.stats.unpaid, formatMoney(gross)],
    ];
    for (const [label, value] of figures) expect(text(await statValue(summary, label).textContent()), label).toBe(value);

    // The charts load on demand: each draws its svg, the viewers one with a band per lot on the block.
    const viewersChart = summary.locator('.mantine-Paper-root').filter({ has: hub.getByRole('heading', { name: s.charts.viewersTitle }) });
    const pricesChart = summary.locator('.mantine-Paper-root').filter({ has: hub.getByRole('heading', { name: s.charts.pricesTitle }) });
    await viewersChart.locator('svg.recharts-surface').first().waitFor();
    await pricesChart.locator('svg.recharts-surface').first().waitFor();
    await eventually(() => viewersChart.locator('.recharts-reference-area').count()).toBe(LOTS.length);
    await viewersChart.getByText(s.charts.bandsHint).waitFor();
    // One pair of bars per lot, named by its order: each lot's bars stand as its price to its starting price.
    await eventually(() => pricesChart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').allTextContents()).toEqual(
      LOTS.map((_, i) => `#${i + 1}`),
    );
    const heights = (series: number) =>
      pricesChart
        .locator('.recharts-bar')
        .nth(series)
        .locator('path.recharts-rectangle')
        .evaluateAll((els) => Object.fromEntries(els.map((el) => [el.getAttribute('name'), Number(el.getAttribute('height'))])));
    await eventually(async () => Object.keys(await heights(1)).length).toBe(sold.length);
    const [starts, finals] = [await heights(0), await heights(1)];
    expect(Object.keys(starts)).toEqual(LOTS.map((l) => l.name));
    for (const lot of sold) expect((finals[lot.name] ?? 0) / (starts[lot.name] ?? 1), lot.name).toBeCloseTo((lot.price ?? 0) / lot.start, 2);
    // The unsold lot reached nothing: no bar of its own.
    expect(finals[LOTS[3].name]).toBeUndefined();
    await pricesChart.getByText(s.charts.startingPrice, { exact: true }).waitFor();
    await pricesChart.getByText(s.charts.finalPrice, { exact: true }).waitFor();

    // The table per buyer: full names, WhatsApp, lots and totals, nobody billed yet.
    const table = summary.getByRole('table');
    await eventually(() => table.locator('tbody tr').count()).toBe(2);
    const anaRow = table.locator('tbody tr').filter({ hasText: ANA.name });
    expect(text(await anaRow.textContent())).toContain(`${LOTS[0].name} · ${formatMoney(1200)}`);
    expect(text(await anaRow.textContent())).toContain(formatMoney(1700));
    expect(await anaRow.getByRole('link').getAttribute('href')).toBe('https://wa.me/523311110001');
    const betoRow = table.locator('tbody tr').filter({ hasText: BETO.name });
    expect(text(await betoRow.textContent())).toContain(formatMoney(800));
    for (const row of [anaRow, betoRow]) await row.getByText(s.paymentStates.unbilled).waitFor();

    const findings = await auditPage(hub, 'Hub: Resumen del show');
    expect(findings, formatFindings(findings)).toEqual([]);
  });

  it('bills the show: shipping, Cobrar el show, Generar enlaces, and each buyer’s WhatsApp message', async () => {
    await hub.getByRole('tab', { name: t.livehub.afterShow.billTab }).click();
    await hub.getByLabel(b.shipping.flatFee).fill('150');
    await hub.getByLabel(b.shipping.perExtraItem).fill('50');
    await hub.getByRole('button', { name: b.shipping.save }).click();
    await hub.getByText(b.shipping.saved).waitFor();

    await hub.getByRole('button', { name: b.bill, exact: true }).click();
    await hub.getByText(fill(b.billed, { count: '2' })).waitFor();
    await hub.getByRole('button', { name: b.bills.makeLinks }).click();
    await hub.getByText(fill(b.bills.linksDone, { ok: '2', total: '2' })).waitFor();
    const bills = hub.getByRole('list', { name: b.bills.title });
    await eventually(() => bills.getByText(t.payments.status.pending).count()).toBe(2);

    // Ana's message: her two lots, shipping 150 + 50 for the second lot, the total and her link.
    const message = async (name: string, number: string) => {
      const href = (await bills.getByRole('listitem').filter({ hasText: name }).getByRole('link', { name: b.bills.whatsapp }).getAttribute('href')) ?? '';
      expect(href.startsWith(`https://wa.me/${number}?text=`), href).toBe(true);
      return decodeURIComponent(href.split('text=')[1] ?? '');
    };
    const toAna = await message(ANA.name, '523311110001');
    for (const part of [LOTS[0].name, LOTS[1].name, formatMoney(1900), `${ctx.app.url}/compras`]) expect(toAna).toContain(part);
    links.ana = toAna.match(new RegExp(`${ctx.app.url}/pay/[0-9a-f-]{36}`))?.[0] ?? '';
    expect(links.ana, toAna).not.toBe('');
    const toBeto = await message(BETO.name, '523311110002');
    for (const part of [LOTS[2].name, formatMoney(950)]) expect(toBeto).toContain(part);
    links.beto = toBeto.match(new RegExp(`${ctx.app.url}/pay/[0-9a-f-]{36}`))?.[0] ?? '';
    expect(links.beto, toBeto).not.toBe('');

    // The panel's 'Recordatorios pendientes' has each bill's first message due, with its wa.me button.
    await openBillingPanel();
    const reminders = panel.getByRole('region', { name: t.reminders.title });
    const sends = reminders.getByRole('link', { name: t.reminders.send });
    await eventually(() => sends.count()).toBe(2);
    const hrefs = await sends.evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? ''));
    const anaReminder = hrefs.find((h) => h.startsWith('https://wa.me/523311110001'));
    expect(anaReminder, hrefs.join('\n')).toBeDefined();
    expect(decodeURIComponent(anaReminder ?? '')).toContain(links.ana);
    expect(await reminders.getByText(t.reminders.kinds.bill).count()).toBe(2);
  });

  it('Ana pays her bill in the sandbox on her phone, and Mis compras says Pagado', async () => {
    const page = await phone(ana);
    await page.goto(`${ctx.app.url}/compras`);
    const bill = page.getByTestId('purchase-bill');
    await bill.getByText(LOTS[0].name).waitFor();
    expect(await bill.getByTestId('bill-status').textContent()).toBe(m.status.toPay);
    expect(await bill.getByTestId('bill-total').textContent()).toBe(formatMoney(1900));
    expect(await bill.getByTestId('bill-pay').getAttribute('href')).toBe(links.ana);

    await bill.getByTestId('bill-pay').click();
    await page.waitForURL(links.ana);
    await payInSandbox(page, links.ana);

    await page.goto(`${ctx.app.url}/compras`);
    await eventually(() => page.getByTestId('purchase-bill').getByTestId('bill-status').textContent()).toBe(m.status.paid);
    expect(await page.getByTestId('bill-pay').count()).toBe(0);
  });

  it('Beto lets two bills expire; the seller offers his lot to the runner-up, and sees him blocked', async () => {
    // A second bill of the same shop, from an earlier sale, billed through the panel's own API.
    const robot = await buildWonAuction(ctx.app.ctx.db, {
      name: 'Robot de cuerda',
      companyId: COMPANY,
      sellerId: seller.id,
      price: 450,
      winnerId: beto.id,
      currentWinnerName: BETO.name,
      winnerWhatsapp: BETO.whatsapp,
    });
    const draft = await sellerCall<DraftAnswer>('post', '/api/payments/draft', { winnerId: beto.id, auctionIds: [robot.id] });
    await sellerCall('post', `/api/payments/${draft.paymentId}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 100 });
    await sellerCall('post', `/api/payments/${draft.paymentId}/finalize`);

    // Their deadlines pass and the expiry job runs.
    await passDeadline(ctx.app, beto.id);

    const betoPhone = await phone(beto);
    await betoPhone.goto(`${ctx.app.url}/compras`);
    const expiredBill = betoPhone.getByTestId('purchase-bill').filter({ hasText: LOTS[2].name });
    await eventually(() => expiredBill.getByTestId('bill-status').textContent()).toBe(m.status.expired);
    await expiredBill.getByText(m.expiredHint).waitFor();

    await openBillingPanel();
    const expired = panel.getByTestId('billing-expired');
    // The show's bill: Beto, his WhatsApp, its total with shipping, and the lot waiting for a choice.
    const showBill = expired.getByTestId(`expired-bill-${links.beto.split('/pay/')[1]}`);
    await showBill.getByText(BETO.name, { exact: true }).waitFor();
    await showBill.getByText(fill(u.total, { amount: formatMoney(950) })).waitFor();
    expect(await showBill.getByRole('link', { name: BETO.whatsapp }).getAttribute('href')).toBe('https://wa.me/523311110002');
    const trompo = showBill.getByTestId(`expired-lot-${auctionIds[2]}`);
    await trompo.waitFor();
    await expired.getByTestId(`expired-lot-${robot.id}`).waitFor();
    // Two expired bills of the shop's limit of two: Beto is blocked.
    const struck = panel.getByTestId(`struck-${beto.id}`);
    await struck.getByText(fill(t.unpaid.strikes.count, { strikes: '2', limit: '2' })).waitFor();
    await struck.getByText(t.unpaid.strikes.blocked, { exact: true }).waitFor();

    const findings = await auditPage(panel, 'Cuentas vencidas');
    expect(findings, formatFindings(findings)).toEqual([]);

    await trompo.getByRole('button', { name: fill(u.secondChanceTo, { name: CARLA.name, amount: formatMoney(RUNNER_UP_BID) }) }).click();
    const confirm = panel.getByRole('dialog', { name: fill(u.confirm.secondChanceTitle, { name: CARLA.name }) });
    await confirm.getByRole('button', { name: u.confirm.confirm }).click();
    await panel.getByText(u.done.secondChance).waitFor();
    await trompo.getByText(fill(u.chosen.secondChance, { name: CARLA.name, amount: formatMoney(RUNNER_UP_BID) })).waitFor();
    await trompo.getByText(u.offerStatus.offered, { exact: true }).waitFor();
  });

  it('Carla sees the Segunda oportunidad in Mis compras, pays it in the sandbox, and it shows Pagado', async () => {
    const page = await phone(carla);
    await page.goto(`${ctx.app.url}/compras`);
    const offer = page.getByTestId('second-chance');
    const bill = offer.getByTestId('purchase-bill');
    await bill.getByText(LOTS[2].name).waitFor();
    await bill.getByText(m.secondChance, { exact: true }).waitFor();
    expect(await bill.getByTestId('bill-status').textContent()).toBe(m.status.toPay);
    // Her own highest bid, with the shipping of the bill that expired.
    expect(await bill.getByTestId('bill-total').textContent()).toBe(formatMoney(RUNNER_UP_BID + 150));
    await offer.getByRole('button', { name: m.decline.button }).waitFor();
    const findings = await auditPage(page, 'Mis compras: Segunda oportunidad');
    expect(findings, formatFindings(findings)).toEqual([]);

    // Taking the offer is paying it: 'Pagar' opens its checkout.
    await bill.getByTestId('bill-pay').click();
    await page.waitForURL(/\/pay\//);
    await payInSandbox(page, page.url());

    // Paid, the offer is a bill like any other: Pagado, and nothing left to turn down.
    await page.goto(`${ctx.app.url}/compras`);
    const paid = page.getByTestId('purchase-bill').filter({ hasText: LOTS[2].name });
    await eventually(() => paid.getByTestId('bill-status').textContent()).toBe(m.status.paid);
    expect(await page.getByTestId('second-chance').count()).toBe(0);
    expect(await page.getByRole('button', { name: m.decline.button }).count()).toBe(0);

    // The seller's open panel hears it: the offer is paid.
    const trompo = panel.getByTestId(`expired-lot-${auctionIds[2]}`);
    await trompo.getByText(u.offerStatus.paid, { exact: true }).waitFor();
  });

  it('Beto, blocked for two expired bills, cannot bid in the shop’s live show, and is told why', async () => {
    const created = await sellerCall<LiveSessionDetail>('post', '/api/live-sessions', {
      title: 'Show del viernes',
      scheduledAt: Date.now() + 3_600_000,
      sellerSlug: COMPANY_NAME,
    });
    const id = created.session.id;
    const auction = await createAuctionAs(panel, ctx.app, { name: 'Canicas de vidrio', categoryId, startingPrice: 300, status: 'pending' });
    const withLot = await sellerCall<LiveSessionDetail>('post', `/api/live-sessions/${id}/lots`, { auctionId: auction.id });
    await sellerCall('put', `/api/live-sessions/${id}`, { status: 'live' });
    await sellerCall('post', `/api/live-sessions/${id}/current`, { lotId: withLot.lots[0]?.id });
    await sellerCall('post', `/api/live-sessions/${id}/timer`, { seconds: 600 });

    const page = await phone(beto);
    await page.goto(`${ctx.app.url}/live/${id}`);
    // No 'Pujar': the phone says he cannot bid in this shop, and its sheet says why.
    await page.getByTestId('bid-state').getByText(t.unpaid.buyer.blockedTitle).waitFor();
    expect(await oneTapButton(page).count()).toBe(0);
    const sheet = await openSheet(page);
    await sheet.getByTestId('unpaid-blocked').getByText(t.unpaid.buyer.blocked).waitFor();
    // A bid sent anyway is refused by the bid engine, in its words.
    const refused = await page.request.post(`${ctx.app.url}/api/auctions/${auction.id}/bids`, { data: { amount: 300 }, headers: { origin: ctx.app.url } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.message).toBe(messages.unpaid.struck);
    const state = await page.request.get(`${ctx.app.url}/api/auctions/${auction.id}`);
    expect(((await state.json()) as { bidCount: number }).bidCount).toBe(0);
  });

  it('the summary closes the loop: the show is paid for, by Ana and by the runner-up', async () => {
    await hub.getByRole('tab', { name: t.livehub.afterShow.summaryTab }).click();
    const summary = hub.getByRole('tabpanel', { name: t.livehub.afterShow.summaryTab });
    // The trompo now sold to Carla at her bid: 1200 + 500 + 700, all paid.
    await eventually(() => statValue(summary, s.stats.paid).textContent()).toBe(formatMoney(2400));
    expect(text(await statValue(summary, s.stats.unpaid).textContent())).toBe(formatMoney(0));
    const table = summary.getByRole('table');
    await table.locator('tbody tr').filter({ hasText: CARLA.name }).getByText(s.paymentStates.paid).waitFor();
  });
});
