import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../src/domain/role-rules.js';
import { auctions } from '../../../src/server/db/schema.js';
import type { DomainEvent } from '../../../src/server/realtime/publisher.js';
import { type Actor, buildActor } from '../../support/actors.js';
import { buildAuction } from '../../support/factories.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { connected, connectSocket, hears, nextEvent } from '../../support/sockets.js';

let server: TestServer;
let platformAdmin: Actor;
const open: Socket[] = [];
let count = 0;

async function actor(roles: Role[], companyId: string | null): Promise<Actor> {
  const n = ++count;
  return buildActor(server, { email: `persona${n}@ejemplo.mx`, name: `Persona ${n}`, roles, companyId });
}

async function socketOf(who: Actor): Promise<Socket> {
  const s = connectSocket(server.url, { cookie: who.cookie });
  open.push(s);
  await connected(s);
  return s;
}

/** Whether `who`'s open socket hears an `auctionUpdate` sent to this company's panels. */
function hearsCompany(socket: Socket, who: Actor, companyId: string): Promise<boolean> {
  const { realtime } = server.ctx;
  return hears(
    socket,
    'auctionUpdate',
    () => realtime.toCompany(companyId, 'auctionUpdate', { id: 'a1', companyId, version: 1 }),
    (marker) => realtime.toUser(who.id, 'sessionStatusUpdate', marker),
  );
}

function put(url: string, payload: Record<string, unknown>) {
  return server.app.inject({ method: 'PUT', url, headers: { cookie: platformAdmin.cookie, origin: server.url }, payload });
}

beforeAll(async () => {
  server = await startTestServer({ jobs: ['closing'] });
  platformAdmin = await actor(['admin'], null);
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => server?.close());

describe('rooms follow the user', () => {
  it('stops sending company events to a seller demoted to buyer, on the socket already open', async () => {
    const seller = await actor(['seller'], 'acme');
    const socket = await socketOf(seller);
    expect(await hearsCompany(socket, seller, 'acme')).toBe(true);
    expect((await put(`/api/users/${seller.id}/roles`, { roles: ['buyer'] })).statusCode).toBe(200);
    expect(await hearsCompany(socket, seller, 'acme')).toBe(false);
  });

  it('moves a seller given another company to that company, out of the old one', async () => {
    const seller = await actor(['seller'], 'acme');
    const socket = await socketOf(seller);
    expect(await hearsCompany(socket, seller, 'acme')).toBe(true);
    expect((await put(`/api/users/${seller.id}`, { companyId: 'otra-empresa' })).statusCode).toBe(200);
    expect(await hearsCompany(socket, seller, 'otra-empresa')).toBe(true);
    expect(await hearsCompany(socket, seller, 'acme')).toBe(false);
  });

  it('opens the company rooms to a buyer promoted to seller', async () => {
    const buyer = await actor(['buyer'], 'acme');
    const socket = await socketOf(buyer);
    expect(await hearsCompany(socket, buyer, 'acme')).toBe(false);
    expect((await put(`/api/users/${buyer.id}/roles`, { roles: ['seller'] })).statusCode).toBe(200);
    expect(await hearsCompany(socket, buyer, 'acme')).toBe(true);
  });
});

describe('a payment’s status change reaches who may see the payment', () => {
  it('reaches the payment seller, its company admins and the platform admins, never a co-seller', async () => {
    const [seller, coSeller, companyAdmin, otherAdmin] = await Promise.all([
      actor(['seller'], 'acme'),
      actor(['seller'], 'acme'),
      actor(['admin'], 'acme'),
      actor(['admin'], 'otra-empresa'),
    ]);
    const event: DomainEvent = {
      type: 'paymentChanged',
      payment: { id: randomUUID(), companyId: 'acme', sellerId: seller.id, paymentStatus: 'pending', payoutStatus: 'none' },
      auctionIds: [],
    };
    const heard = async (who: Actor) =>
      hears(
        await socketOf(who),
        'paymentStatusUpdate',
        () => void server.ctx.publisher.publish([event]),
        (marker) => server.ctx.realtime.toUser(who.id, 'sessionStatusUpdate', marker),
      );
    expect(await heard(seller)).toBe(true);
    expect(await heard(companyAdmin)).toBe(true);
    expect(await heard(platformAdmin)).toBe(true);
    expect(await heard(coSeller)).toBe(false);
    expect(await heard(otherAdmin)).toBe(false);
  });
});

describe('in-process subscribers hear what was committed', () => {
  it('hear that an auction closed once the close is committed', async () => {
    const seller = await actor(['seller'], 'acme');
    const closed: { id: string; statusAtDelivery: string | undefined }[] = [];
    const auction = await buildAuction(server.ctx.db, { sellerId: seller.id, companyId: 'acme', status: 'active', endTime: new Date(Date.now() + 200) });
    const stop = server.ctx.publisher.subscribe('auctionClosed', async (event) => {
      if (event.state.id !== auction.id) return;
      const [row] = await server.ctx.db.select({ status: auctions.status }).from(auctions).where(eq(auctions.id, auction.id));
      closed.push({ id: event.state.id, statusAtDelivery: row?.status });
    });
    try {
      await expect.poll(() => closed, { timeout: 10_000 }).toEqual([{ id: auction.id, statusAtDelivery: 'ended' }]);
    } finally {
      stop();
    }
  });

  it('hear that a buy-now closed an auction, and its viewers get the closing state once', async () => {
    const seller = await actor(['seller'], 'acme');
    const buyer = await buildActor(server, { email: `comprador-${randomUUID()}@ejemplo.mx`, name: 'Comprador', roles: ['buyer'], completeProfile: true });
    const auction = await buildAuction(server.ctx.db, {
      sellerId: seller.id,
      companyId: 'acme',
      status: 'active',
      endTime: new Date(Date.now() + 3_600_000),
      buyNowPrice: 900,
    });
    const heard: string[] = [];
    const stop = server.ctx.publisher.subscribe('auctionClosed', (event) => {
      if (event.state.id === auction.id) heard.push(event.state.status);
    });
    const viewer = connectSocket(server.url);
    open.push(viewer);
    await connected(viewer);
    expect(await viewer.emitWithAck('joinAuction', { auctionId: auction.id })).toMatchObject({ ok: true });
    const states: string[] = [];
    viewer.on('auctionState', (event: { state: { status: string } }) => states.push(event.state.status));
    try {
      const res = await server.app.inject({ method: 'POST', url: `/api/auctions/${auction.id}/buy-now`, headers: { cookie: buyer.cookie } });
      expect(res.statusCode, res.body).toBe(200);
      await expect.poll(() => heard).toEqual(['ended']);
      // The buy-now's own state and then the close: one event reaches the room, not two.
      const marker = nextEvent(viewer, 'auctionUpdate');
      server.ctx.realtime.toAuction(auction.id, 'auctionUpdate', { id: auction.id, companyId: 'acme', version: 999 });
      await marker;
      expect(states).toEqual(['ended']);
    } finally {
      stop();
    }
  });
});
