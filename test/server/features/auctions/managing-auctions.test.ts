import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuctionDetail, AuctionListResponse } from '../../../../src/domain/auctions.js';
import { auctions, auditLog, bids, liveLots, paymentItems, payments } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { refreshAuctionSearchText } from '../../../../src/server/reads/search-text.js';
import { type Actor, buildCategory, buildUpload, signInAs } from '../../../support/actors.js';
import { buildAuction, buildPayment, buildSession, buildUser } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { collect, connected, connectSocket, nextEvent } from '../../../support/sockets.js';

let server: TestServer;
let platformAdmin: Actor;
let companyAdmin: Actor;
let sellerA: Actor;
let sellerA2: Actor;
let sellerB: Actor;
let buyer: Actor;
let categoryId: string;
let otherCategoryId: string;

const inOneHour = () => Date.now() + 3_600_000;

beforeAll(async () => {
  server = await startTestServer();
  platformAdmin = await signInAs(server, { email: 'plataforma@ejemplo.mx', roles: ['admin'] });
  companyAdmin = await signInAs(server, { email: 'admin-a@ejemplo.mx', roles: ['admin'], companyId: 'empresa-a', companyName: 'Subastas Tapatías' });
  sellerA = await signInAs(server, { email: 'vende-a@ejemplo.mx', roles: ['seller'], companyId: 'empresa-a' });
  sellerA2 = await signInAs(server, { email: 'vende-a2@ejemplo.mx', roles: ['seller'], companyId: 'empresa-a' });
  sellerB = await signInAs(server, { email: 'vende-b@ejemplo.mx', roles: ['seller'], companyId: 'empresa-b', companyName: 'Remates del Norte' });
  buyer = await signInAs(server, { email: 'compra@ejemplo.mx', roles: ['buyer'] });
  categoryId = await buildCategory(server, 'Bicicletas');
  otherCategoryId = await buildCategory(server, 'Electrónica');
});
afterAll(async () => server?.close());

const call = caller(() => server);

const valid = () => ({
  name: 'Bicicléta de montaña rodada 29',
  description: 'Cuadro de aluminio, frenos de disco.',
  categoryId,
  startingPrice: 1500,
  buyNowPrice: 4000,
  condicion: 'Usado (Buen Estado)',
  marca: 'Benotto',
  envio: 'Envío por Estafeta',
  endTime: inOneHour(),
  images: [] as string[],
});

async function create(actor: Actor, over: Record<string, unknown> = {}): Promise<AuctionDetail> {
  const res = await call(actor, 'POST', '/api/auctions', { ...valid(), ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('creating auctions', () => {
  it('answers 201 with the auction, owned as SPEC §6 says', async () => {
    const bySeller = await create(sellerA);
    expect(bySeller).toMatchObject({
      name: 'Bicicléta de montaña rodada 29',
      sellerId: sellerA.id,
      companyId: 'empresa-a',
      status: 'pending',
      categoryName: 'Bicicletas',
    });
    expect(bySeller.companyName).toBe('Subastas Tapatías');
    const byCompanyAdmin = await create(companyAdmin);
    expect(byCompanyAdmin).toMatchObject({ sellerId: null, companyId: 'empresa-a' });
    const byPlatformAdmin = await create(platformAdmin);
    expect(byPlatformAdmin).toMatchObject({ sellerId: null, companyId: platformAdmin.id });
    const ownCompany = await signInAs(server, { email: 'solo@ejemplo.mx', roles: ['seller'] });
    expect(await create(ownCompany)).toMatchObject({ sellerId: ownCompany.id, companyId: ownCompany.id });
  });

  it('keeps the search columns and the audit log', async () => {
    const auction = await create(sellerB, { name: 'Cámara Réflex Canon' });
    const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auction.id));
    expect(row?.nameTokens).toEqual(['camara', 'reflex', 'canon']);
    expect(row?.searchText).toContain('camara reflex canon');
    expect(row?.searchText).toContain('remates del norte');
    expect(row?.searchText).toContain('benotto');
    const audit = await server.ctx.db.select().from(auditLog).where(eq(auditLog.entityId, auction.id));
    expect(audit.map((a) => a.action)).toEqual(['auction.create']);
  });

  it("finds a company's auctions by its new name after the business name changes", async () => {
    const solo = await signInAs(server, { email: 'taller@ejemplo.mx', roles: ['seller'], companyName: 'Taller Viejo' });
    const auction = await create(solo, { name: 'Torno de banco' });
    const profile = {
      lastName: 'Ruiz',
      companyName: 'Herramientas Güero',
      whatsappCountryCode: '+52',
      whatsappLocal: '3312345678',
      whatsappConsentGiven: true,
    };
    expect((await call(solo, 'PUT', '/api/profile', profile)).statusCode).toBe(200);
    const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auction.id));
    expect(row?.searchText).toContain('herramientas guero');
    expect(row?.searchText).not.toContain('taller viejo');
  });

  it.each([
    ['a missing name', { name: '  ' }, 'name', messages.fields.nameRequired],
    ['a missing description', { description: undefined }, 'description', messages.fields.descriptionRequired],
    ['a missing category', { categoryId: undefined }, 'categoryId', messages.fields.categoryRequired],
    ['a category that is not an id', { categoryId: 'bicis' }, 'categoryId', messages.fields.categoryRequired],
    ['a missing starting price', { startingPrice: undefined }, 'startingPrice', messages.fields.startingPriceRequired],
    ['a price as text', { startingPrice: 'mil' }, 'startingPrice', messages.fields.startingPriceRequired],
    ['a price with cents', { startingPrice: 10.5 }, 'startingPrice', messages.fields.priceInteger],
    ['a negative price', { startingPrice: -1 }, 'startingPrice', messages.fields.priceNegative],
    ['an absurd price', { startingPrice: 1e12 }, 'startingPrice', messages.fields.priceTooHigh],
    ['buy now at the starting price', { buyNowPrice: 1500 }, 'buyNowPrice', messages.fields.buyNowNotAbove],
    ['buy now below the starting price', { buyNowPrice: 100 }, 'buyNowPrice', messages.fields.buyNowNotAbove],
    ['an unknown condition', { condicion: 'Seminuevo' }, 'condicion', messages.fields.condicionInvalid],
    ['an end time in words', { endTime: 'mañana' }, 'endTime', messages.fields.endTimeInvalid],
    ['an end time as an object', { endTime: { dia: 3 } }, 'endTime', messages.fields.endTimeInvalid],
    ['an end time as a boolean', { endTime: true }, 'endTime', messages.fields.endTimeInvalid],
    ['an end time in seconds, not ms', { endTime: 1_800_000_000 }, 'endTime', messages.fields.endTimeInvalid],
    ['seven images', { images: ['1', '2', '3', '4', '5', '6', '7'].map((n) => `/uploads/x${n}.jpg`) }, 'images', messages.fields.tooManyImages],
    ['the same image twice', { images: ['/uploads/a.jpg', '/uploads/a.jpg'] }, 'images', messages.fields.imageDuplicate],
    ['an unknown status', { status: 'ended' }, 'status', messages.fields.statusInvalid],
    ['a huge name', { name: 'x'.repeat(500) }, 'name', messages.fields.tooLong],
  ])('rejects %s with a Spanish field error', async (_label, over, field, message) => {
    const res = await call(sellerA, 'POST', '/api/auctions', { ...valid(), ...over });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION', message: messages.errors.validation });
    expect(res.json().error.fields[field]).toBe(message);
  });

  it('reports every bad field at once', async () => {
    const res = await call(sellerA, 'POST', '/api/auctions', { name: '', startingPrice: -5, buyNowPrice: -10, endTime: 'pronto' });
    expect(Object.keys(res.json().error.fields).sort()).toEqual(['buyNowPrice', 'categoryId', 'description', 'endTime', 'name', 'startingPrice']);
  });

  it('accepts endTime as epoch ms, digits, an ISO string or a timestamp, and null', async () => {
    const at = Math.floor(inOneHour() / 1000) * 1000;
    for (const endTime of [at, String(at), new Date(at).toISOString(), { seconds: at / 1000, nanoseconds: 0 }, { _seconds: at / 1000, _nanoseconds: 0 }]) {
      expect((await create(sellerA, { endTime })).endTime).toBe(at);
    }
    expect((await create(sellerA, { endTime: null })).endTime).toBeNull();
    expect((await create(sellerA, { endTime: undefined })).endTime).toBeNull();
  });

  it('checks the category and the images against the database', async () => {
    const res = await call(sellerA, 'POST', '/api/auctions', { ...valid(), categoryId: randomUUID(), images: ['/uploads/images/nadie.jpg'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ categoryId: messages.fields.categoryUnknown, images: messages.fields.imageInvalid });
    // Another company's upload is not yours to use.
    const foreign = await buildUpload(server, { ownerId: sellerB.id, companyId: 'empresa-b', name: `b-${randomUUID()}` });
    expect((await call(sellerA, 'POST', '/api/auctions', { ...valid(), images: [foreign] })).json().error.fields.images).toBe(messages.fields.imageInvalid);
    const own = await Promise.all([1, 2, 3].map((n) => buildUpload(server, { ownerId: sellerA.id, companyId: 'empresa-a', name: `a${n}-${randomUUID()}` })));
    const auction = await create(sellerA, { images: own });
    expect(auction.images).toEqual(own);
    expect(auction.imageDetails.map((i) => i.thumbnailUrl)).toEqual(own.map((u) => u.replace('.jpg', '-thumb.jpg')));
  });

  it('needs an end time in the future to publish as active', async () => {
    const noEnd = await call(sellerA, 'POST', '/api/auctions', { ...valid(), status: 'active', endTime: null });
    expect(noEnd.json().error.fields.endTime).toBe(messages.fields.endTimeRequired);
    const past = await call(sellerA, 'POST', '/api/auctions', { ...valid(), status: 'active', endTime: Date.now() - 60_000 });
    expect(past.json().error.fields.endTime).toBe(messages.fields.endTimePast);
    expect((await create(sellerA, { status: 'active' })).status).toBe('active');
  });
});

describe('reading one auction', () => {
  it('is public, answers 404 for unknown or malformed ids, and hides private fields from strangers', async () => {
    const auction = await create(sellerA);
    for (const viewer of [null, buyer, sellerB]) {
      const res = await call(viewer, 'GET', `/api/auctions/${auction.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).not.toHaveProperty('winnerDetails');
      expect(res.json()).not.toHaveProperty('sellerId');
      expect(res.json().name).toBe(auction.name);
    }
    for (const viewer of [sellerA, companyAdmin, platformAdmin]) {
      expect((await call(viewer, 'GET', `/api/auctions/${auction.id}`)).json()).toHaveProperty('sellerId', sellerA.id);
    }
    expect((await call(null, 'GET', `/api/auctions/${randomUUID()}`)).statusCode).toBe(404);
    expect((await call(null, 'GET', '/api/auctions/no-existe')).statusCode).toBe(404);
  });

  it('derives ended from the end time on the server', async () => {
    const row = await buildAuction(server.ctx.db, { status: 'active', endTime: new Date(Date.now() - 1000), companyId: 'empresa-a', sellerId: sellerA.id });
    expect((await call(null, 'GET', `/api/auctions/${row.id}`)).json().status).toBe('ended');
  });
});

describe('changing and deleting', () => {
  it('updates in scope and answers 404 out of scope (no IDOR)', async () => {
    const auction = await create(sellerA);
    const edit = { ...valid(), name: 'Bicicleta de ruta', categoryId: otherCategoryId };
    for (const outsider of [sellerB, sellerA2]) {
      expect((await call(outsider, 'PUT', `/api/auctions/${auction.id}`, edit)).statusCode).toBe(404);
      expect((await call(outsider, 'DELETE', `/api/auctions/${auction.id}`)).statusCode).toBe(404);
    }
    expect((await call(buyer, 'PUT', `/api/auctions/${auction.id}`, edit)).statusCode).toBe(403);
    expect((await call(null, 'DELETE', `/api/auctions/${auction.id}`)).statusCode).toBe(401);
    const res = await call(companyAdmin, 'PUT', `/api/auctions/${auction.id}`, edit);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Bicicleta de ruta', categoryName: 'Electrónica', version: auction.version + 1, sellerId: sellerA.id });
    const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auction.id));
    expect(row?.searchText).toContain('electronica');
  });

  it('keeps the stored status when an edit leaves it out, and locks the price once there are bids', async () => {
    const auction = await create(sellerA, { status: 'active' });
    await server.ctx.db.update(auctions).set({ status: 'live' }).where(eq(auctions.id, auction.id));
    const { status: _omit, ...withoutStatus } = { ...valid(), status: undefined };
    expect((await call(sellerA, 'PUT', `/api/auctions/${auction.id}`, { ...withoutStatus, endTime: auction.endTime })).json().status).toBe('live');
    await server.ctx.db.update(auctions).set({ bidCount: 1, currentPrice: 1600 }).where(eq(auctions.id, auction.id));
    const res = await call(sellerA, 'PUT', `/api/auctions/${auction.id}`, { ...withoutStatus, endTime: auction.endTime, startingPrice: 10 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ message: messages.auctions.lockedByBids, fields: { startingPrice: messages.fields.lockedByBids } });
  });

  it('refuses to delete an auction with bids, in a payment or in a live session', async () => {
    const winner = await buildUser(server.ctx.db);
    const withBid = await create(sellerA);
    await server.ctx.db.insert(bids).values({ auctionId: withBid.id, bidderId: winner.id, bidderName: 'Ju', seq: 1, amount: 1500 });
    const inPayment = await create(sellerA);
    const payment = await buildPayment(server.ctx.db, { winnerId: winner.id, companyId: 'empresa-a', paymentStatus: 'canceled' });
    await server.ctx.db.insert(paymentItems).values({ paymentId: payment.id, paymentStatus: 'canceled', auctionId: inPayment.id, auctionName: 'x', amount: 1 });
    const inLot = await create(sellerA);
    const session = await buildSession(server.ctx.db, { sellerId: sellerA.id, companyId: 'empresa-a' });
    await server.ctx.db.insert(liveLots).values({ sessionId: session.id, auctionId: inLot.id, order: 1 });
    // The list says what holds each one, so the panel can disable 'Eliminar' with the reason before a refused click.
    const listed = (await call(sellerA, 'GET', '/api/auctions')).json() as AuctionListResponse;
    const heldBy = new Map(listed.items.map((item) => [item.id, item.heldBy]));
    expect([heldBy.get(withBid.id), heldBy.get(inPayment.id), heldBy.get(inLot.id)]).toEqual([null, 'payment', 'liveSession']);
    for (const [auction, message] of [
      [withBid, messages.auctions.deleteHasBids],
      [inPayment, messages.auctions.deleteInPayment],
      [inLot, messages.auctions.deleteInLiveSession],
    ] as const) {
      expect((await call(sellerA, 'GET', `/api/auctions/${auction.id}`)).json().canDelete).toBe(false);
      const res = await call(sellerA, 'DELETE', `/api/auctions/${auction.id}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe(message);
    }
    const free = await create(sellerA);
    expect((await call(sellerA, 'GET', `/api/auctions/${free.id}`)).json().canDelete).toBe(true);
    expect((await call(sellerA, 'DELETE', `/api/auctions/${free.id}`)).json()).toEqual({ id: free.id });
    expect((await call(null, 'GET', `/api/auctions/${free.id}`)).statusCode).toBe(404);
    expect((await call(sellerA, 'DELETE', `/api/auctions/${free.id}`)).statusCode).toBe(404);
  });

  it('refuses to change the end of an auction that already has a winner', async () => {
    const auction = await create(sellerA);
    await server.ctx.db.update(auctions).set({ currentWinnerId: buyer.id, currentWinnerName: 'Comprador' }).where(eq(auctions.id, auction.id));
    const res = await call(sellerA, 'PUT', `/api/auctions/${auction.id}`, { ...valid(), endTime: inOneHour() + 60_000 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(messages.auctions.wonLocked);
  });
});

describe('the admin list', () => {
  let list: TestServer;
  let admin: Actor;
  let seller: Actor;
  let other: Actor;
  let companyBoss: Actor;

  beforeAll(async () => {
    list = await startTestServer();
    admin = await signInAs(list, { email: 'raiz@ejemplo.mx', roles: ['admin'] });
    seller = await signInAs(list, { email: 'lucia@ejemplo.mx', roles: ['seller'], companyId: 'tienda-lucia', companyName: 'Tienda Lucía' });
    other = await signInAs(list, { email: 'pedro@ejemplo.mx', roles: ['seller'], companyId: 'pedro-remates' });
    companyBoss = await signInAs(list, { email: 'jefa@ejemplo.mx', roles: ['admin'], companyId: 'tienda-lucia' });
    const winner = await buildUser(list.ctx.db);
    const cat = await buildCategory(list, 'Ciclismo');
    const base = Date.now() - 3_600_000;
    const made: string[] = [];
    // 45 of Lucía's: 30 open, 10 won and unpaid, 5 won and paid; 7 of Pedro's.
    for (let i = 0; i < 52; i++) {
      const mine = i < 45;
      const won = mine && i >= 30;
      const row = await buildAuction(list.ctx.db, {
        name: i === 7 ? 'Bicicléta Vintage Turbo' : `Lote ${String(i).padStart(2, '0')}`,
        categoryId: cat,
        marca: i === 8 ? 'Mercurio' : null,
        sellerId: mine ? seller.id : other.id,
        companyId: mine ? 'tienda-lucia' : 'pedro-remates',
        status: won ? 'ended' : 'active',
        endTime: won ? new Date(base) : new Date(Date.now() + 3_600_000),
        currentWinnerId: won ? winner.id : null,
        currentWinnerName: won ? 'Juana Pérez' : null,
        createdAt: new Date(base + i * 1000),
      });
      made.push(row.id);
      if (won && i >= 40) {
        const payment = await buildPayment(list.ctx.db, { winnerId: winner.id, companyId: 'tienda-lucia', paymentStatus: 'paid' });
        await list.ctx.db.insert(paymentItems).values({ paymentId: payment.id, paymentStatus: 'paid', auctionId: row.id, auctionName: row.name, amount: 100 });
      }
    }
    await refreshAuctionSearchText(list.ctx.db, { auctionIds: made });
  });
  afterAll(async () => list?.close());

  const get = async (actor: Actor, query: string): Promise<AuctionListResponse> => {
    const res = await list.app.inject({ method: 'GET', url: `/api/auctions?${query}`, headers: { cookie: actor.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('scopes the list and the counts by role (SPEC §6)', async () => {
    expect((await get(admin, '')).counts).toEqual({ all: 37, pending: 10, paid: 5 });
    expect((await get(seller, '')).counts).toEqual({ all: 30, pending: 10, paid: 5 });
    expect((await get(companyBoss, '')).counts).toEqual({ all: 30, pending: 10, paid: 5 });
    const pedro = await get(other, 'pageSize=50');
    expect(pedro.counts).toEqual({ all: 7, pending: 0, paid: 0 });
    expect(pedro.items.every((i) => i.companyId === 'pedro-remates')).toBe(true);
    const buyer = await signInAs(list, { email: 'mirona@ejemplo.mx', roles: ['buyer'] });
    expect((await list.app.inject({ method: 'GET', url: '/api/auctions', headers: { cookie: buyer.cookie } })).statusCode).toBe(403);
    expect((await list.app.inject({ method: 'GET', url: '/api/auctions' })).statusCode).toBe(401);
  });

  it('filters by SPEC §4: paid, pending and the rest', async () => {
    const paid = await get(seller, 'filter=paid');
    expect(paid.total).toBe(5);
    expect(paid.items.every((i) => i.status === 'ended' && i.currentWinnerName === 'Juana Pérez')).toBe(true);
    expect((await get(seller, 'filter=pending')).total).toBe(10);
    const open = await get(seller, 'filter=all&pageSize=50');
    expect(open.items).toHaveLength(30);
    expect(open.items.every((i) => i.currentWinnerName === null)).toBe(true);
  });

  it('pages newest first with exact boundaries', async () => {
    const first = await get(seller, 'pageSize=10&page=1');
    expect(first.items.map((i) => i.name)).toEqual(
      Array.from({ length: 10 }, (_, k) => `Lote ${String(29 - k).padStart(2, '0')}`).map((n) => (n === 'Lote 07' ? 'Bicicléta Vintage Turbo' : n)),
    );
    expect((await get(seller, 'pageSize=10&page=3')).items).toHaveLength(10);
    expect((await get(seller, 'pageSize=10&page=4')).items).toHaveLength(0);
    const all = [1, 2, 3].map((p) => get(seller, `pageSize=10&page=${p}`));
    const ids = (await Promise.all(all)).flatMap((r) => r.items.map((i) => i.id));
    expect(new Set(ids).size).toBe(30);
    expect((await get(seller, '')).pageSize).toBe(20);
    for (const bad of ['pageSize=7', 'page=0', 'page=-1', 'page=dos', 'filter=todas']) {
      const res = await list.app.inject({ method: 'GET', url: `/api/auctions?${bad}`, headers: { cookie: seller.cookie } });
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('searches name, category, marca, company and winner, ignoring accents and case', async () => {
    const cases: [string, number][] = [
      ['bicicleta', 1],
      ['BICICLÉTA turbo', 1],
      ['vintage bici', 1],
      ['mercurio', 1],
      ['ciclismo', 30],
      ['tienda lucia', 30],
      ['juana', 0],
      ['100%', 0],
      ['bici v', 1],
      ['b', 30],
    ];
    for (const [search, expected] of cases) expect((await get(seller, `search=${encodeURIComponent(search)}`)).counts.all, search).toBe(expected);
    expect((await get(seller, `filter=pending&search=${encodeURIComponent('juana pérez')}`)).total).toBe(10);
    // Pedro's auctions never show up in Lucía's search.
    expect((await get(seller, 'search=lote&pageSize=100')).items.every((i) => i.companyId === 'tienda-lucia')).toBe(true);
  });

  it('keeps the stored counts equal to a recount through winners, payments, moves and deletes', async () => {
    const recount = async () => {
      const [row] = await list.ctx.db
        .select({
          all: sql<number>`(count(*) filter (where current_winner_id is null and not is_paid))::int`,
          pending: sql<number>`(count(*) filter (where current_winner_id is not null and not is_paid))::int`,
          paid: sql<number>`(count(*) filter (where is_paid))::int`,
        })
        .from(auctions)
        .where(eq(auctions.sellerId, seller.id));
      return row;
    };
    expect((await get(seller, '')).counts).toEqual(await recount());
    const winner = await buildUser(list.ctx.db);
    const [open] = await list.ctx.db
      .select()
      .from(auctions)
      .where(and(eq(auctions.sellerId, seller.id), isNull(auctions.currentWinnerId)))
      .limit(1);
    if (!open) throw new Error('no open auction');
    // Closing with a winner, a draft that becomes paid (through the cascading key), then canceled.
    await list.ctx.db.update(auctions).set({ currentWinnerId: winner.id, status: 'ended' }).where(eq(auctions.id, open.id));
    const payment = await buildPayment(list.ctx.db, { winnerId: winner.id, companyId: 'tienda-lucia', paymentStatus: 'draft' });
    await list.ctx.db.insert(paymentItems).values({ paymentId: payment.id, paymentStatus: 'draft', auctionId: open.id, auctionName: open.name, amount: 1 });
    expect((await get(seller, '')).counts).toEqual({ all: 29, pending: 11, paid: 5 });
    await list.ctx.db.update(payments).set({ paymentStatus: 'paid' }).where(eq(payments.id, payment.id));
    expect((await get(seller, '')).counts).toEqual({ all: 29, pending: 10, paid: 6 });
    expect((await get(seller, 'filter=paid&pageSize=50')).items.map((i) => i.id)).toContain(open.id);
    await list.ctx.db.update(payments).set({ paymentStatus: 'canceled' }).where(eq(payments.id, payment.id));
    expect((await get(seller, '')).counts).toEqual({ all: 29, pending: 11, paid: 5 });
    // Moving an auction to another seller, and deleting one.
    const [another] = await list.ctx.db
      .select()
      .from(auctions)
      .where(and(eq(auctions.sellerId, seller.id), isNull(auctions.currentWinnerId)))
      .limit(1);
    await list.ctx.db
      .update(auctions)
      .set({ sellerId: other.id })
      .where(eq(auctions.id, another?.id as string));
    await list.ctx.db.delete(paymentItems).where(eq(paymentItems.paymentId, payment.id));
    await list.ctx.db.delete(auctions).where(eq(auctions.id, open.id));
    expect((await get(seller, '')).counts).toEqual({ all: 28, pending: 10, paid: 5 });
    expect((await get(seller, '')).counts).toEqual(await recount());
    expect((await get(other, '')).counts.all).toBe(8);
  });

  it('shows company names and keeps a page of 20 small', async () => {
    const res = await list.app.inject({ method: 'GET', url: '/api/auctions', headers: { cookie: admin.cookie } });
    const body = res.json() as AuctionListResponse;
    expect(body.items.find((i) => i.companyId === 'tienda-lucia')?.companyName).toBe('Tienda Lucía');
    expect(res.body.length).toBeLessThan(30_000);
  });
});

describe('a new auction is announced to its company', () => {
  it('tells the company after commit, and nobody else', async () => {
    const mate = connectSocket(server.url, { cookie: sellerA2.cookie });
    const boss = connectSocket(server.url, { cookie: platformAdmin.cookie });
    const outsider = connectSocket(server.url, { cookie: sellerB.cookie });
    await Promise.all([connected(mate), connected(boss), connected(outsider)]);
    try {
      const outsiderSaw = collect(outsider, 'auctionCreatedSuccessfully', 800);
      const [mateEvent, bossEvent] = await Promise.all([
        nextEvent<{ id: string }>(mate, 'auctionCreatedSuccessfully'),
        nextEvent(boss, 'auctionCreatedSuccessfully'),
        create(sellerA),
      ]);
      expect(mateEvent.id).toEqual((bossEvent as { id: string }).id);
      expect(await outsiderSaw).toEqual([]);
      const updated = nextEvent<{ id: string; version: number }>(mate, 'auctionUpdate');
      await call(sellerA, 'PUT', `/api/auctions/${mateEvent.id}`, { ...valid(), name: 'Otra' });
      expect(await updated).toMatchObject({ id: mateEvent.id, version: 2 });
      const deleted = nextEvent<{ deleted: boolean }>(mate, 'auctionUpdate');
      await call(sellerA, 'DELETE', `/api/auctions/${mateEvent.id}`);
      expect((await deleted).deleted).toBe(true);
    } finally {
      for (const s of [mate, boss, outsider]) s.disconnect();
    }
  });
});
