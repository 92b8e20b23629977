import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyPurchases, PurchaseBill, PurchaseGroup } from '../../../../../src/domain/purchases.js';
import { paymentItems, rehearsalSnapshots, secondChanceOffers } from '../../../../../src/server/db/schema.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildCompany, buildLot, buildPayment, buildSession, buildWonAuction } from '../../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../../support/server.js';

/**
 * 'Mis compras': a buyer sees every lot they won by seller and show, each bill they were sent (never
 * a draft) with a pay link only while it can be paid, second-chance offers made to them, and nothing
 * of another buyer's.
 */

let server: TestServer;
let buyer: Actor;
let other: Actor;
const call = caller(() => server);
const HOUR = 3_600_000;
const NORTE = 'remates-norte';
const SUR = 'subastas-sur';

const ids: Record<string, string> = {};

async function won(name: string, price: number, companyId: string, sessionId?: string, winnerId = buyer.id): Promise<string> {
  const auction = await buildWonAuction(server.ctx.db, { name, price, winnerId, companyId });
  if (sessionId) await buildLot(server.ctx.db, { sessionId, auctionId: auction.id, status: 'finished' });
  return auction.id;
}

/** A bill straight in the database, with its items, in the given state. */
async function bill(
  auctionIds: { id: string; name: string; amount: number }[],
  over: Parameters<typeof buildPayment>[1] & { paymentStatus: 'draft' | 'pending' | 'paid' | 'canceled' },
): Promise<string> {
  const total = auctionIds.reduce((s, a) => s + a.amount, 0);
  const payment = await buildPayment(server.ctx.db, { winnerId: buyer.id, winnerName: 'Juana Pérez', totalAmount: total, ...over });
  await server.ctx.db
    .insert(paymentItems)
    .values(auctionIds.map((a) => ({ paymentId: payment.id, paymentStatus: over.paymentStatus, auctionId: a.id, auctionName: a.name, amount: a.amount })));
  return payment.id;
}

const read = async (actor: Actor): Promise<MyPurchases> => {
  const res = await call(actor, 'GET', '/api/me/purchases');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const allBills = (p: MyPurchases): PurchaseBill[] => p.sellers.flatMap((s) => s.groups.flatMap((g) => g.bills));
const billOf = (p: MyPurchases, id: string) => allBills(p).find((b) => b.paymentId === id);
const groupOf = (p: MyPurchases, companyId: string, sessionId: string | null): PurchaseGroup | undefined =>
  p.sellers.find((s) => s.companyId === companyId)?.groups.find((g) => g.sessionId === sessionId);

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  buyer = await buildActor(server, { email: 'juana@ejemplo.mx', name: 'Juana Pérez', roles: ['buyer'], completeProfile: true });
  other = await buildActor(server, { email: 'pedro@ejemplo.mx', name: 'Pedro López', roles: ['buyer'], completeProfile: true });
  const db = server.ctx.db;
  await buildCompany(db, { id: NORTE, name: 'Remates del Norte' });
  await buildCompany(db, { id: SUR, name: 'Subastas del Sur' });
  const norteShow = await buildSession(db, {
    companyId: NORTE,
    title: 'Relojes del jueves',
    scheduledAt: new Date(Date.now() - 48 * HOUR),
    whatsappLink: 'https://chat.whatsapp.com/norte',
  });
  const surShow = await buildSession(db, { companyId: SUR, title: 'Monedas antiguas', scheduledAt: new Date(Date.now() - 24 * HOUR) });
  const rehearsal = await buildSession(db, { companyId: NORTE, title: 'Ensayo', rehearsal: true });
  ids.norteShow = norteShow.id;
  ids.surShow = surShow.id;

  // Norte's show: a pending bill (two lots, shipping), a paid one, an expired one, a draft.
  ids.reloj = await won('Reloj Casio', 1200, NORTE, norteShow.id);
  ids.radio = await won('Radio Philips', 300, NORTE, norteShow.id);
  ids.lampara = await won('Lámpara de latón', 450, NORTE, norteShow.id);
  ids.jarron = await won('Jarrón de Talavera', 800, NORTE, norteShow.id);
  ids.silla = await won('Silla Thonet', 900, NORTE, norteShow.id);
  ids.pending = await bill(
    [
      { id: ids.reloj, name: 'Reloj Casio', amount: 1200 },
      { id: ids.radio, name: 'Radio Philips', amount: 300 },
    ],
    {
      paymentStatus: 'pending',
      companyId: NORTE,
      sessionId: norteShow.id,
      shippingCarrier: 'Estafeta',
      shippingCost: 150,
      paymentLink: 'https://martillo.test/pay/uno',
      deadlineAt: new Date(Date.now() + 24 * HOUR),
    },
  );
  ids.paid = await bill([{ id: ids.lampara, name: 'Lámpara de latón', amount: 450 }], {
    paymentStatus: 'paid',
    companyId: NORTE,
    sessionId: norteShow.id,
    paymentLink: 'https://martillo.test/pay/dos',
    paidAt: new Date(),
  });
  ids.expired = await bill([{ id: ids.jarron, name: 'Jarrón de Talavera', amount: 800 }], {
    paymentStatus: 'canceled',
    companyId: NORTE,
    sessionId: norteShow.id,
    paymentLink: 'https://martillo.test/pay/tres',
    deadlineAt: new Date(Date.now() - HOUR),
    expiredAt: new Date(Date.now() - HOUR),
  });
  ids.draft = await bill([{ id: ids.silla, name: 'Silla Thonet', amount: 900 }], { paymentStatus: 'draft', companyId: NORTE, sessionId: norteShow.id });

  // Sur's show: a pending bill past its deadline (not yet expired by the job), and an unbilled lot.
  ids.moneda = await won('Moneda de plata 1921', 700, SUR, surShow.id);
  ids.late = await bill([{ id: ids.moneda, name: 'Moneda de plata 1921', amount: 700 }], {
    paymentStatus: 'pending',
    companyId: SUR,
    paymentLink: 'https://martillo.test/pay/cuatro',
    deadlineAt: new Date(Date.now() - 60_000),
  });
  ids.billete = await won('Billete de 1 peso', 250, SUR, surShow.id);

  // A plain auction of Sur's, outside any show, not billed yet.
  ids.bici = await won('Bicicleta Benotto', 2000, SUR);
  // An auction of Sur's that closed at its own end while its lot waited in the show's queue: sold outside the show.
  ids.radio = await won('Radio de bulbos', 650, SUR);
  await buildLot(db, { sessionId: surShow.id, auctionId: ids.radio, status: 'passed', onBlock: false });

  // A rehearsal's lot: the rehearsal is under way, its auction shows as won until it is restored.
  ids.ensayo = await won('Lote de ensayo', 999, NORTE, rehearsal.id);
  await db.insert(rehearsalSnapshots).values({ sessionId: rehearsal.id, auctionId: ids.ensayo, snapshot: { auction: {} } });

  // Another buyer's win and bill in Norte's show.
  ids.ajeno = await won('Cámara Zenit', 1500, NORTE, norteShow.id, other.id);
  const otherBill = await buildPayment(db, {
    winnerId: other.id,
    winnerName: 'Pedro López',
    companyId: NORTE,
    paymentStatus: 'pending',
    totalAmount: 1500,
    paymentLink: 'https://martillo.test/pay/ajeno',
    deadlineAt: new Date(Date.now() + HOUR),
  });
  await db.insert(paymentItems).values({ paymentId: otherBill.id, paymentStatus: 'pending', auctionId: ids.ajeno, auctionName: 'Cámara Zenit', amount: 1500 });

  // Segunda oportunidad: the other buyer's expired lot, offered to Juana with her own bill.
  ids.reloj2 = await won('Reloj Orient', 1100, NORTE, norteShow.id, other.id);
  const expiredOther = await buildPayment(db, {
    winnerId: other.id,
    winnerName: 'Pedro López',
    companyId: NORTE,
    paymentStatus: 'canceled',
    totalAmount: 1100,
    expiredAt: new Date(),
  });
  await db
    .insert(paymentItems)
    .values({ paymentId: expiredOther.id, paymentStatus: 'canceled', auctionId: ids.reloj2, auctionName: 'Reloj Orient', amount: 1100 });
  ids.offerBill = await bill([{ id: ids.reloj2, name: 'Reloj Orient', amount: 1000 }], {
    paymentStatus: 'pending',
    companyId: NORTE,
    paymentLink: 'https://martillo.test/pay/segunda',
    deadlineAt: new Date(Date.now() + 12 * HOUR),
  });
  const [offer] = await db
    .insert(secondChanceOffers)
    .values({ auctionId: ids.reloj2, expiredPaymentId: expiredOther.id, buyerId: buyer.id, amount: 1000, paymentId: ids.offerBill })
    .returning();
  ids.offer = offer?.id ?? '';
}, 60_000);
afterAll(async () => server?.close());

describe('GET /api/me/purchases', () => {
  it('answers 401 signed out', async () => {
    const res = await call(null, 'GET', '/api/me/purchases');
    expect(res.statusCode).toBe(401);
  });

  it("groups the buyer's wins by seller and show, plain auctions under 'Subastas'", async () => {
    const p = await read(buyer);
    expect(p.sellers.map((s) => s.companyName).sort()).toEqual(['Remates del Norte', 'Subastas del Sur']);
    const norte = p.sellers.find((s) => s.companyId === NORTE);
    expect(norte?.whatsappLink).toBe('https://chat.whatsapp.com/norte');
    expect(p.sellers.find((s) => s.companyId === SUR)?.whatsappLink).toBeNull();

    const show = groupOf(p, NORTE, ids.norteShow as string);
    expect(show?.title).toBe('Relojes del jueves');
    expect(show?.bills.map((b) => b.paymentId).sort()).toEqual([ids.pending, ids.paid, ids.expired].sort());
    const sur = groupOf(p, SUR, ids.surShow as string);
    expect(sur?.title).toBe('Monedas antiguas');
    expect(sur?.bills.map((b) => b.paymentId)).toEqual([ids.late]);
    expect(sur?.unbilled.map((i) => i.auctionName)).toEqual(['Billete de 1 peso']);
    const subastas = groupOf(p, SUR, null);
    expect(subastas?.title).toBeNull();
    expect(subastas?.unbilled).toEqual(
      expect.arrayContaining([
        { auctionId: ids.bici, auctionName: 'Bicicleta Benotto', amount: 2000 },
        // Never on the show's block: under 'Subastas', not the show.
        { auctionId: ids.radio, auctionName: 'Radio de bulbos', amount: 650 },
      ]),
    );
    expect(subastas?.unbilled).toHaveLength(2);
  });

  it('shows each bill with items, shipping, total, status and deadline; a draft is not shown, its lot waits for a bill', async () => {
    const p = await read(buyer);
    const pending = billOf(p, ids.pending as string);
    expect(pending).toMatchObject({
      status: 'toPay',
      totalAmount: 1500,
      shippingCarrier: 'Estafeta',
      shippingCost: 150,
      grandTotal: 1650,
      payLink: 'https://martillo.test/pay/uno',
    });
    expect(pending?.items.map((i) => [i.auctionName, i.amount])).toEqual([
      ['Radio Philips', 300],
      ['Reloj Casio', 1200],
    ]);
    expect(pending?.deadlineAt).toBeGreaterThan(Date.now());
    expect(billOf(p, ids.paid as string)).toMatchObject({ status: 'paid', payLink: null });
    expect(billOf(p, ids.expired as string)).toMatchObject({ status: 'expired', payLink: null });
    expect(billOf(p, ids.draft as string)).toBeUndefined();
    expect(groupOf(p, NORTE, ids.norteShow as string)?.unbilled.map((i) => i.auctionName)).toEqual(['Silla Thonet']);
  });

  it('gives the pay link only while the bill is pending and before its deadline', async () => {
    const p = await read(buyer);
    expect(billOf(p, ids.late as string)).toMatchObject({ status: 'expired', payLink: null });
    const links = allBills(p)
      .map((b) => b.payLink)
      .filter(Boolean);
    expect(links).toEqual(['https://martillo.test/pay/uno']);
  });

  it('leaves rehearsal lots out', async () => {
    const body = JSON.stringify(await read(buyer));
    expect(body).not.toContain(ids.ensayo);
    expect(body).not.toContain('Lote de ensayo');
  });

  it('shows a second-chance offer made to the buyer with its link and deadline, not as a plain bill', async () => {
    const p = await read(buyer);
    const offers = p.sellers.flatMap((s) => s.groups.flatMap((g) => g.secondChances));
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({
      offerId: ids.offer,
      item: { auctionId: ids.reloj2, auctionName: 'Reloj Orient', amount: 1000 },
      bill: { paymentId: ids.offerBill, status: 'toPay', payLink: 'https://martillo.test/pay/segunda' },
    });
    expect(offers[0]?.bill?.deadlineAt).toBeGreaterThan(Date.now());
    expect(billOf(p, ids.offerBill as string)).toBeUndefined();
  });

  it('shows another buyer none of it, and the buyer nothing of theirs', async () => {
    const mine = JSON.stringify(await read(buyer));
    expect(mine).not.toContain('Cámara Zenit');
    expect(mine).not.toContain('pay/ajeno');

    const theirs = await read(other);
    const body = JSON.stringify(theirs);
    for (const name of ['Reloj Casio', 'Lámpara', 'Bicicleta', 'Moneda', 'pay/uno', 'pay/segunda']) expect(body).not.toContain(name);
    // Their own bills: the pending one and the one that expired (whose lot was offered to Juana).
    expect(allBills(theirs).map((b) => [b.status, b.payLink])).toEqual([
      ['expired', null],
      ['toPay', 'https://martillo.test/pay/ajeno'],
    ]);
    expect(theirs.sellers.flatMap((s) => s.groups.flatMap((g) => g.secondChances))).toEqual([]);
  });

  it('answers a buyer with nothing an empty list', async () => {
    const nobody = await buildActor(server, { email: 'nadie@ejemplo.mx', name: 'Nadie Nada', roles: ['buyer'] });
    expect((await read(nobody)).sellers).toEqual([]);
  });
});
