import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuctionDetail } from '../../../../src/domain/auctions.js';
import { auctions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildBidder, buildCategory, buildUpload, signInAs } from '../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { sleep } from '../../../support/wait.js';

/**
 * Once an auction has a bid, what bidders relied on stays as they saw it. Runs on
 * PGlite and, in its own project, on PostgreSQL (where the race below really races).
 */

let server: TestServer;
let seller: Actor;
let categoryId: string;
let otherCategoryId: string;
let images: string[];

beforeAll(async () => {
  server = await startTestServer();
  seller = await signInAs(server, { email: 'vende-candado@ejemplo.mx', roles: ['seller'], companyId: 'empresa-candado' });
  categoryId = await buildCategory(server, 'Relojes');
  otherCategoryId = await buildCategory(server, 'Joyería');
  images = await Promise.all(
    ['uno', 'dos', 'tres'].map((name) => buildUpload(server, { ownerId: seller.id, companyId: 'empresa-candado', name: `candado-${name}` })),
  );
});
afterAll(async () => server?.close());

const call = caller(() => server);

const endTime = Date.now() + 3_600_000;
const valid = () => ({
  name: 'Reloj Casio G-Shock',
  description: 'Funciona perfecto, con caja y manual.',
  categoryId,
  startingPrice: 1500,
  buyNowPrice: 4000,
  condicion: 'Como Nuevo',
  marca: 'Casio',
  envio: 'Envío gratis a todo México',
  endTime,
  images: images.slice(0, 2),
  status: 'active',
});

async function create(actor: Actor = seller): Promise<AuctionDetail> {
  const res = await call(actor, 'POST', '/api/auctions', valid());
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function bidOn(auctionId: string, bidder?: Actor) {
  return call(bidder ?? (await buildBidder(server)), 'POST', `/api/auctions/${auctionId}/bids`, { amount: 1500 });
}

async function stored(id: string) {
  const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, id));
  if (!row) throw new Error('no auction');
  return row;
}

const lockedField = messages.fields.lockedByBids;

describe('an auction with bids', () => {
  it('refuses every change to what bidders relied on with a 409 naming the field, and changes nothing', async () => {
    const auction = await create();
    expect((await bidOn(auction.id)).statusCode).toBe(201);
    const before = await stored(auction.id);
    expect(before.bidCount).toBe(1);
    const refused: [string, Record<string, unknown>, string][] = [
      ['name', { name: 'Reloj Rolex Submariner' }, lockedField],
      ['description', { description: 'Funciona perfecto.' }, lockedField],
      ['condicion', { condicion: 'Nuevo' }, lockedField],
      ['marca', { marca: 'Rolex' }, lockedField],
      ['envio', { envio: 'Envío por cuenta del comprador' }, lockedField],
      ['startingPrice', { startingPrice: 1000 }, lockedField],
      ['status', { status: 'pending' }, lockedField],
      ['endTime', { endTime: endTime - 60_000 }, messages.fields.endTimeOnlyLater],
      ['endTime', { endTime: null }, messages.fields.endTimeOnlyLater],
      // Just above the current price: the audit's way to end an auction cheaply.
      ['buyNowPrice', { buyNowPrice: 1501 }, messages.fields.buyNowOnlyRemove],
      ['buyNowPrice', { buyNowPrice: 9000 }, messages.fields.buyNowOnlyRemove],
      ['images', { images: images.slice(0, 1) }, messages.fields.imagesKeepExisting],
    ];
    for (const [field, change, message] of refused) {
      const res = await call(seller, 'PUT', `/api/auctions/${auction.id}`, { ...valid(), ...change });
      expect(res.statusCode, field).toBe(409);
      expect(res.json().error).toEqual({ code: 'CONFLICT', message: messages.auctions.lockedByBids, fields: { [field]: message } });
      expect(await stored(auction.id), field).toEqual(before);
    }
    const all = await call(seller, 'PUT', `/api/auctions/${auction.id}`, Object.assign(valid(), ...refused.map(([, change]) => change)));
    expect(all.statusCode).toBe(409);
    expect(Object.keys(all.json().error.fields).sort()).toEqual(
      ['buyNowPrice', 'condicion', 'description', 'endTime', 'envio', 'images', 'marca', 'name', 'startingPrice', 'status'].sort(),
    );
    expect(await stored(auction.id)).toEqual(before);
  });

  it('takes what bidders did not rely on: the same values, a later end, buy-now removed, a new photo, another category', async () => {
    const auction = await create();
    expect((await bidOn(auction.id)).statusCode).toBe(201);
    // The form sends the whole auction back, as it read it.
    const read: AuctionDetail = (await call(seller, 'GET', `/api/auctions/${auction.id}`)).json();
    expect(read.bidCount).toBe(1);
    const echo = { ...valid(), endTime: read.endTime, status: read.status, marca: `  ${read.marca}  ` };
    const same = await call(seller, 'PUT', `/api/auctions/${auction.id}`, echo);
    expect(same.statusCode, same.body).toBe(200);
    const later = (read.endTime ?? 0) + 3_600_000;
    const res = await call(seller, 'PUT', `/api/auctions/${auction.id}`, {
      ...echo,
      endTime: later,
      buyNowPrice: null,
      images: [images[1], images[0], images[2]],
      categoryId: otherCategoryId,
    });
    expect(res.statusCode, res.body).toBe(200);
    // The answer tells the form the auction is held by bids.
    expect(res.json()).toMatchObject({ bidCount: 1, endTime: later, buyNowPrice: null, images: [images[1], images[0], images[2]], categoryName: 'Joyería' });
    const row = await stored(auction.id);
    expect(row).toMatchObject({ name: valid().name, startingPrice: 1500, buyNowPrice: null, status: 'active', categoryId: otherCategoryId });
    expect(row.endTime?.getTime()).toBe(later);
  });
});

describe('an auction without bids', () => {
  it('stays editable as before', async () => {
    const auction = await create();
    const res = await call(seller, 'PUT', `/api/auctions/${auction.id}`, {
      ...valid(),
      name: 'Reloj Rolex Submariner',
      description: 'Otra descripción.',
      condicion: null,
      marca: null,
      envio: null,
      startingPrice: 100,
      buyNowPrice: 200,
      endTime: endTime - 60_000,
      images: images.slice(2),
      status: 'pending',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored(auction.id)).toMatchObject({
      name: 'Reloj Rolex Submariner',
      startingPrice: 100,
      buyNowPrice: 200,
      status: 'pending',
      images: images.slice(2),
    });
  });
});

describe('a bid racing an edit', () => {
  it('never lets a locked change through once a bid exists, whichever lands first', async () => {
    const racer = await signInAs(server, { email: 'vende-carrera@ejemplo.mx', roles: ['seller'], companyId: 'empresa-candado' });
    const lots = await Promise.all(Array.from({ length: 36 }, () => create(racer)));
    const bidders = await Promise.all(lots.map(() => buildBidder(server)));
    const edit = { ...valid(), name: 'Reloj cambiado en carrera', buyNowPrice: 1501 };
    // Each edit starts 0 to 11 ms after its auction's bid, so some land before the bid, some after,
    // and some while it is being decided.
    const outcomes = [];
    for (const [i, lot] of lots.entries()) {
      const bid = bidOn(lot.id, bidders[i]);
      await sleep(i % 12);
      outcomes.push({ lot, edited: await call(racer, 'PUT', `/api/auctions/${lot.id}`, edit), bid: await bid });
    }
    for (const { lot, edited, bid } of outcomes) {
      const row = await stored(lot.id);
      expect(row.bidCount).toBe(bid.statusCode === 201 ? 1 : 0);
      if (edited.statusCode === 200) {
        // Applied: it was decided before any bid, under the row lock the bid waited for.
        expect(edited.json().bidCount).toBe(0);
        expect(row).toMatchObject({ name: edit.name, buyNowPrice: 1501 });
      } else {
        expect(edited.statusCode, edited.body).toBe(409);
        expect(edited.json().error.fields).toEqual({ name: lockedField, buyNowPrice: messages.fields.buyNowOnlyRemove });
        expect(row).toMatchObject({ name: valid().name, buyNowPrice: 4000 });
        expect(bid.statusCode).toBe(201);
      }
    }
  });
});

describe('a bid racing a delete', () => {
  it('never deletes an auction that has a bid, whichever lands first', async () => {
    const racer = await signInAs(server, { email: 'borra-carrera@ejemplo.mx', roles: ['seller'], companyId: 'empresa-candado' });
    const lots = await Promise.all(Array.from({ length: 12 }, () => create(racer)));
    const bidders = await Promise.all(lots.map(() => buildBidder(server)));
    const outcomes = [];
    for (const [i, lot] of lots.entries()) {
      const bid = bidOn(lot.id, bidders[i]);
      await sleep(i);
      outcomes.push({
        lot,
        deleted: await server.app.inject({ method: 'DELETE', url: `/api/auctions/${lot.id}`, headers: { cookie: racer.cookie } }),
        bid: await bid,
      });
    }
    for (const { lot, deleted, bid } of outcomes) {
      const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, lot.id));
      if (deleted.statusCode === 200) {
        expect(row).toBeUndefined();
        expect(bid.statusCode).not.toBe(201);
      } else {
        expect(deleted.json().error).toEqual({ code: 'CONFLICT', message: messages.auctions.deleteHasBids });
        expect(bid.statusCode).toBe(201);
        expect(row?.bidCount).toBe(1);
      }
    }
  });
});
