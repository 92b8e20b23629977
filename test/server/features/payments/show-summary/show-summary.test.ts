import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftAnswer, PaymentView } from '../../../../../src/domain/payments.js';
import type { ShowSummary } from '../../../../../src/domain/show-summary.js';
import { rows } from '../../../../../src/server/db/connect.js';
import { auctions, liveViewerSamples, payments, users } from '../../../../../src/server/db/schema.js';
import { closeDueAuctions } from '../../../../../src/server/features/bids/scheduler.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, type Bidder, buildActor, buildBidder } from '../../../../support/actors.js';
import { buildAuction, buildLot, buildSession, buildUser, buildWonAuction } from '../../../../support/factories.js';
import { caller, placeBid, startTestServer, type TestServer } from '../../../../support/server.js';

/**
 * A show's summary (GET /api/live-sessions/{id}/summary and its CSV): after a show where lots are
 * opened with 'Siguiente lote', bid on and closed, the totals, the rows per lot and per buyer, each
 * buyer's payment state as their bills move (none → draft → link → paid), the viewers and lot bands
 * the charts draw, and who may read it. No scheduler runs here: the test closes lots by hand and the
 * viewer samples are its own.
 */

const NORTE = 'resumen-norte';
const SUR = 'resumen-sur';
let server: TestServer;
let seller: Actor;
let coSeller: Actor;
let companyAdmin: Actor;
let otherSeller: Actor;
let buyerActor: Actor;
let ana: Bidder;
let beto: Bidder;

beforeAll(async () => {
  // The closes and the viewer samples are run by hand; the server's own jobs would race them.
  server = await startTestServer();
  seller = await buildActor(server, { email: 'vende@resumen.mx', name: 'Rosa Resumen', roles: ['seller'], companyId: NORTE });
  coSeller = await buildActor(server, { email: 'otro@resumen.mx', name: 'Carlos Colega', roles: ['seller'], companyId: NORTE });
  companyAdmin = await buildActor(server, { email: 'jefa@resumen.mx', name: 'Jefa Resumen', roles: ['admin'], companyId: NORTE });
  otherSeller = await buildActor(server, { email: 'vende@sur.mx', name: 'Susana Sur', roles: ['seller'], companyId: SUR });
  buyerActor = await buildActor(server, { email: 'mira@ejemplo.mx', name: 'Mira Compradora', roles: ['buyer'], completeProfile: true });
  ana = await buildBidder(server);
  beto = await buildBidder(server);
}, 60_000);
afterAll(async () => server?.close());

const call = caller(() => server);
const summaryOf = async (actor: Actor, id: string): Promise<ShowSummary> => {
  const res = await call(actor, 'GET', `/api/live-sessions/${id}/summary`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** Opens the next lot ('Siguiente lote'), has these bids placed on it, then lets its time run out and closes it. */
async function runLot(sessionId: string, bids: { who: Bidder; amount: number }[]) {
  const opened = await call(seller, 'POST', `/api/live-sessions/${sessionId}/next`, {});
  expect(opened.statusCode, opened.body).toBe(200);
  const current = opened.json().session.currentLotId as string;
  const lot = (opened.json().lots as { id: string; auctionId: string }[]).find((l) => l.id === current);
  if (!lot) throw new Error('no current lot');
  for (const bid of bids) {
    const res = await placeBid(server, bid.who, lot.auctionId, { amount: bid.amount });
    expect(res.statusCode, res.body).toBeLessThan(300);
  }
  await server.ctx.db.update(auctions).set({ endTime: sql`clock_timestamp()` }).where(eq(auctions.id, lot.auctionId));
  await closeDueAuctions(server.ctx.db);
  const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, lot.auctionId));
  if (!row) throw new Error('no auction');
  expect(row.status).toBe('ended');
  return row;
}

/** A live show of five lots: three sell (two to Ana, one to Beto), one closes without bids, one never opens. */
async function playShow() {
  const db = server.ctx.db;
  const session = await buildSession(db, { sellerId: seller.id, companyId: NORTE, status: 'live', title: 'Relojes del viernés' });
  const prices = [500, 300, 1000, 800, 200];
  for (const [i, startingPrice] of prices.entries()) {
    const auction = await buildAuction(db, { companyId: NORTE, sellerId: seller.id, status: 'pending', name: `Lote ${i + 1}`, startingPrice });
    await buildLot(db, { sessionId: session.id, auctionId: auction.id });
  }
  const first = await runLot(session.id, [{ who: ana, amount: 500 }]);
  const second = await runLot(session.id, [
    { who: beto, amount: 300 },
    { who: ana, amount: 400 },
    { who: beto, amount: 700 },
  ]);
  const third = await runLot(session.id, [{ who: ana, amount: 1000 }]);
  const unsold = await runLot(session.id, []);
  return { session, first, second, third, unsold };
}

async function draft(winner: Actor, auctionIds: string[]): Promise<PaymentView> {
  const res = await call(seller, 'POST', '/api/payments/draft', { winnerId: winner.id, auctionIds });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as DraftAnswer).payment;
}

async function finalize(id: string) {
  expect((await call(seller, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 150 })).statusCode).toBe(200);
  const res = await call(seller, 'POST', `/api/payments/${id}/finalize`);
  expect(res.statusCode, res.body).toBe(200);
}

let show: Awaited<ReturnType<typeof playShow>>;

describe('a show’s summary', () => {
  beforeAll(async () => {
    show = await playShow();
  }, 60_000);

  it('totals what sold, lists every lot and every buyer with their lots and totals', async () => {
    const { session, first, second, third } = show;
    const p1 = first.currentPrice ?? 0;
    const p2 = second.currentPrice ?? 0;
    const p3 = third.currentPrice ?? 0;
    expect(first.currentWinnerId).toBe(ana.id);
    expect(second.currentWinnerId).toBe(beto.id);
    expect(p2).toBeGreaterThanOrEqual(700);

    const summary = await summaryOf(seller, session.id);
    expect(summary.masked).toBe(false);
    expect(summary.totals).toMatchObject({
      grossSold: p1 + p2 + p3,
      lotsSold: 3,
      lotsUnsold: 1,
      buyers: 2,
      averageSale: Math.round((p1 + p2 + p3) / 3),
      averageStartingPrice: Math.round((500 + 300 + 1000) / 3),
      saleToStartRatio: Math.round(((p1 + p2 + p3) / 1800) * 100) / 100,
      paidAmount: 0,
      unpaidAmount: p1 + p2 + p3,
    });
    expect(summary.lots.map((l) => [l.order, l.name, l.status, l.finalPrice])).toEqual([
      [1, 'Lote 1', 'sold', p1],
      [2, 'Lote 2', 'sold', p2],
      [3, 'Lote 3', 'sold', p3],
      [4, 'Lote 4', 'unsold', null],
      [5, 'Lote 5', 'queued', null],
    ]);
    expect(summary.lots[1]?.bids).toBe(second.bidCount);
    expect(summary.lots[1]?.winnerName).toBe(second.currentWinnerName);

    const anaRow = summary.buyers.find((b) => b.buyerId === ana.id);
    expect(anaRow).toMatchObject({ whatsapp: ana.whatsapp, total: p1 + p3, paymentState: 'unbilled' });
    expect(anaRow?.lots.map((l) => [l.name, l.amount])).toEqual([
      ['Lote 1', p1],
      ['Lote 3', p3],
    ]);
    expect(summary.buyers.find((b) => b.buyerId === beto.id)).toMatchObject({ total: p2, paymentState: 'unbilled' });
    expect(summary.series.prices.map((p) => [p.name, p.startingPrice, p.finalPrice])).toEqual([
      ['Lote 1', 500, p1],
      ['Lote 2', 300, p2],
      ['Lote 3', 1000, p3],
      ['Lote 4', 800, null],
      ['Lote 5', 200, null],
    ]);
  });

  it('draws a band for each lot that was on the block, closed at its auction’s end', async () => {
    const summary = await summaryOf(seller, show.session.id);
    const bands = summary.series.lotBands;
    expect(bands.map((b) => b.name)).toEqual(['Lote 1', 'Lote 2', 'Lote 3', 'Lote 4']);
    for (const band of bands) {
      expect(band.closedAt).not.toBeNull();
      expect(band.closedAt ?? 0).toBeGreaterThanOrEqual(band.openedAt);
    }
    // The last lot's run has no closed_at of its own: its auction's end stands in.
    expect(bands[3]?.closedAt).toBe(show.unsold.endTime?.getTime());
  });

  it('reads peak and average viewers from the samples', async () => {
    const base = Math.floor(Date.now() / 5000) * 5000 - 60_000;
    await server.ctx.db
      .insert(liveViewerSamples)
      .values([4, 10, 7].map((viewers, i) => ({ sessionId: show.session.id, at: new Date(base + i * 5000), viewers })));
    const summary = await summaryOf(seller, show.session.id);
    expect(summary.totals.peakViewers).toBe(10);
    expect(summary.totals.averageViewers).toBe(7);
    expect(summary.series.viewers).toEqual([
      { at: base, viewers: 4 },
      { at: base + 5000, viewers: 10 },
      { at: base + 10_000, viewers: 7 },
    ]);
  });

  it('follows each buyer’s bills: sin cobrar → borrador → enlace enviado → pagado', async () => {
    const { session, first, second, third } = show;
    const stateOf = async (who: Bidder) => (await summaryOf(seller, session.id)).buyers.find((b) => b.buyerId === who.id)?.paymentState;

    const anaBill = await draft(ana, [first.id]);
    // One lot in a draft, one with no bill yet: the buyer still has something unbilled.
    expect(await stateOf(ana)).toBe('unbilled');
    const betoBill = await draft(beto, [second.id]);
    expect(await stateOf(beto)).toBe('draft');
    await finalize(betoBill.id);
    expect(await stateOf(beto)).toBe('linkSent');

    expect((await call(seller, 'POST', `/api/payments/${anaBill.id}/add-auctions`, { auctionIds: [third.id] })).statusCode).toBe(200);
    expect(await stateOf(ana)).toBe('draft');
    await finalize(anaBill.id);
    const pay = await call(null, 'POST', `/api/pay/${anaBill.id}`, { outcome: 'approve' });
    expect(pay.statusCode, pay.body).toBe(200);
    const summary = await summaryOf(seller, session.id);
    expect(summary.buyers.find((b) => b.buyerId === ana.id)?.paymentState).toBe('paid');
    expect(summary.totals.paidAmount).toBe((first.currentPrice ?? 0) + (third.currentPrice ?? 0));
    expect(summary.totals.unpaidAmount).toBe(second.currentPrice ?? 0);
  });

  it('answers the company’s other sellers with buyers masked, and nobody else', async () => {
    const { session } = show;
    const admin = await summaryOf(companyAdmin, session.id);
    expect(admin.masked).toBe(false);
    expect(admin.buyers.some((b) => b.buyerId === ana.id)).toBe(true);

    const masked = await summaryOf(coSeller, session.id);
    expect(masked.masked).toBe(true);
    expect(masked.totals.buyers).toBe(2);
    for (const b of masked.buyers) {
      expect(b.buyerId).toBeNull();
      expect(b.whatsapp).toBeNull();
      expect(b.name).toMatch(/^.{1,2}\*\*\*$/);
    }
    expect(JSON.stringify(masked)).not.toContain(ana.whatsapp);
    expect(JSON.stringify(masked)).not.toContain(ana.id);
    const csv = await call(coSeller, 'GET', `/api/live-sessions/${session.id}/summary.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain(ana.whatsapp);

    for (const path of ['summary', 'summary.csv']) {
      const other = await call(otherSeller, 'GET', `/api/live-sessions/${session.id}/${path}`);
      expect(other.statusCode).toBe(404);
      expect(other.json().error.message).toBe(messages.live.sessionNotFound);
      expect((await call(buyerActor, 'GET', `/api/live-sessions/${session.id}/${path}`)).statusCode).toBe(403);
      expect((await call(null, 'GET', `/api/live-sessions/${session.id}/${path}`)).statusCode).toBe(401);
    }
    expect((await call(seller, 'GET', '/api/live-sessions/no-es-un-id/summary')).statusCode).toBe(404);
    expect((await call(seller, 'GET', '/api/live-sessions/00000000-0000-4000-8000-000000000000/summary')).statusCode).toBe(404);
  });

  it('exports the table per buyer as a CSV Excel opens, formulas neutralised', async () => {
    const { session, second } = show;
    // A winner's name that a spreadsheet would run as a formula, with quotes and a comma.
    await server.ctx.db.update(auctions).set({ currentWinnerName: '=HYPERLINK("http://x", "y")' }).where(eq(auctions.id, second.id));
    const res = await call(seller, 'GET', `/api/live-sessions/${session.id}/summary.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="resumen-relojes-del-viernes-\d{4}-\d{2}-\d{2}\.csv"$/);
    const body = res.rawPayload.toString('utf8');
    expect(body.startsWith('\uFEFF')).toBe(true);
    const lines = body.slice(1).trimEnd().split('\r\n');
    const h = messages.showSummary.csvHeaders;
    expect(lines[0]).toBe([h.buyer, h.whatsapp, h.lots, h.total, h.payment].join(','));
    expect(lines).toHaveLength(3);
    const betoLine = lines.find((l) => l.includes('HYPERLINK'));
    expect(betoLine?.startsWith(`"'=HYPERLINK(""http://x"", ""y"")",'${beto.whatsapp},`)).toBe(true);
    expect(betoLine?.endsWith(`,${second.currentPrice},${messages.showSummary.csvStates.linkSent}`)).toBe(true);
    expect(body).toContain(messages.showSummary.csvStates.paid);
  });
});

describe('a show on the air', () => {
  it('shows the lot on the block as live, its band still open', async () => {
    const db = server.ctx.db;
    const session = await buildSession(db, { sellerId: seller.id, companyId: NORTE, status: 'live' });
    const auction = await buildAuction(db, { companyId: NORTE, sellerId: seller.id, status: 'pending', name: 'Lote en vivo' });
    await buildLot(db, { sessionId: session.id, auctionId: auction.id });
    expect((await call(seller, 'POST', `/api/live-sessions/${session.id}/next`, {})).statusCode).toBe(200);
    const summary = await summaryOf(seller, session.id);
    expect(summary.lots.map((l) => l.status)).toEqual(['live']);
    expect(summary.series.lotBands).toHaveLength(1);
    expect(summary.series.lotBands[0]?.closedAt).toBeNull();
    expect(summary.totals).toMatchObject({ grossSold: 0, lotsSold: 0, lotsUnsold: 0, buyers: 0, averageSale: 0, saleToStartRatio: null });
  });
});

describe('a bill that expired unpaid', () => {
  it('marks its buyer vencido until the lot is billed again', async () => {
    const db = server.ctx.db;
    const session = await buildSession(db, { sellerId: seller.id, companyId: NORTE, status: 'ended' });
    const won = await buildWonAuction(db, { price: 650, winnerId: beto.id, currentWinnerName: beto.name, companyId: NORTE, sellerId: seller.id });
    await buildLot(db, { sessionId: session.id, auctionId: won.id, status: 'finished' });
    const bill = await draft(beto, [won.id]);
    // As the deadline job leaves a bill whose time ran out.
    await db.update(payments).set({ paymentStatus: 'canceled', canceledAt: new Date(), expiredAt: new Date() }).where(eq(payments.id, bill.id));
    let summary = await summaryOf(seller, session.id);
    expect(summary.buyers).toHaveLength(1);
    expect(summary.buyers[0]).toMatchObject({ buyerId: beto.id, total: 650, paymentState: 'expired' });
    expect(summary.buyers[0]?.lots[0]?.paymentState).toBe('expired');
    await draft(beto, [won.id]);
    summary = await summaryOf(seller, session.id);
    expect(summary.buyers[0]?.paymentState).toBe('draft');
  });
});

describe('a rehearsal’s summary', () => {
  it('counts what the simulated bidders won but lists none of them as buyers', async () => {
    const db = server.ctx.db;
    const session = await buildSession(db, { sellerId: seller.id, companyId: NORTE, status: 'live', rehearsal: true });
    const bot = await buildUser(db);
    await db.update(users).set({ isSimulated: true }).where(eq(users.id, bot.id));
    const won = await buildWonAuction(db, { price: 900, winnerId: bot.id, companyId: NORTE, sellerId: seller.id });
    await buildLot(db, { sessionId: session.id, auctionId: won.id });
    const summary = await summaryOf(seller, session.id);
    expect(summary.rehearsal).toBe(true);
    expect(summary.totals).toMatchObject({ grossSold: 900, lotsSold: 1, buyers: 0 });
    expect(summary.buyers).toEqual([]);
  });
});

describe('the viewer sampler', () => {
  it('writes one row per live session and period, however many times it runs, and none for a show that is not live', async () => {
    const { sampleViewers } = await import('../../../../../src/server/features/payments/show-summary/sampler.js');
    const db = server.ctx.db;
    const live = await buildSession(db, { sellerId: seller.id, companyId: NORTE, status: 'live' });
    const ended = await buildSession(db, { sellerId: seller.id, companyId: NORTE, status: 'ended' });
    // Away from a period's edge, so both passes fall in the same period.
    if (Date.now() % 5000 > 4000) await new Promise((r) => setTimeout(r, 1200));
    const counts = (id: string) => (id === live.id ? 12 : id === ended.id ? 99 : 0);
    expect(await sampleViewers(db, counts)).toBeGreaterThanOrEqual(1);
    await sampleViewers(db, (id) => (id === live.id ? 30 : 0));
    const samples = rows<{ at_ms: string | number; viewers: number }>(
      await db.execute(sql`select (extract(epoch from at) * 1000)::bigint as at_ms, viewers from live_viewer_samples where session_id = ${live.id}::uuid`),
    );
    expect(samples).toHaveLength(1);
    expect(samples[0]?.viewers).toBe(12);
    expect(Number(samples[0]?.at_ms) % 5000).toBe(0);
    expect(await db.select().from(liveViewerSamples).where(eq(liveViewerSamples.sessionId, ended.id))).toEqual([]);
  });
});
