import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cookieFrom, startTestServer, type TestServer } from '../../support/server.js';
import { collect, connected, connectSocket, nextEvent } from '../../support/sockets.js';

let server: TestServer;
const open: Socket[] = [];
let adminCookie: string;
let sellerCookie: string;
let buyerCookie: string;
let sellerId: string;

async function signIn(email: string): Promise<string> {
  const res = await server.app.inject({ method: 'POST', url: '/auth/dev', payload: { email, name: email.split('@')[0] } });
  return cookieFrom(res.headers['set-cookie'], 'martillo_session') as string;
}

function socket(opts: Parameters<typeof connectSocket>[1] = {}): Socket {
  const s = connectSocket(server.url, opts);
  open.push(s);
  return s;
}

beforeAll(async () => {
  server = await startTestServer();
  adminCookie = await signIn('admin@ejemplo.mx'); // the first account: admin
  sellerCookie = await signIn('vendedor@ejemplo.mx');
  buyerCookie = await signIn('comprador@ejemplo.mx');
  const me = await server.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sellerCookie } });
  sellerId = me.json().user.id;
  await server.ctx.db.execute(sql`update user_profiles set roles = array['seller'], company_id = 'acme' where user_id = ${sellerId}`);
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => server?.close());

describe('who may connect and which rooms a socket may join', () => {
  it('accepts websocket only', async () => {
    const polling = socket({ transports: ['polling'] });
    await expect(connected(polling)).rejects.toThrow();
  });

  it('refuses a handshake from another site', async () => {
    const s = socket({ cookie: sellerCookie, origin: 'https://evil.example' });
    await expect(connected(s)).rejects.toThrow();
  });

  it('lets anyone watch an auction room, to receive only', async () => {
    const auctionId = randomUUID();
    const viewer = socket();
    const other = socket();
    await Promise.all([connected(viewer), connected(other)]);
    // No such auction: nothing to compare, the version is null.
    expect(await viewer.emitWithAck('joinAuction', { auctionId })).toEqual({ ok: true, version: null });
    expect(await other.emitWithAck('joinAuction', { auctionId })).toMatchObject({ ok: true });

    const arrived = nextEvent(viewer, 'auctionUpdate');
    server.ctx.realtime.toAuction(auctionId, 'auctionUpdate', { id: auctionId, companyId: 'acme', version: 2 });
    expect(await arrived).toEqual({ id: auctionId, companyId: 'acme', version: 2 });

    // What a viewer sends is never relayed to the room.
    const relayed = collect(other, 'auctionUpdate', 300);
    viewer.emit('auctionUpdate', { id: auctionId, forged: true });
    viewer.emit('sessionStatusUpdate', { sessionId: auctionId, status: 'ended' });
    expect(await relayed).toEqual([]);
  });

  it('lets anyone watch a live session room', async () => {
    const sessionId = randomUUID();
    const viewer = socket();
    await connected(viewer);
    expect(await viewer.emitWithAck('joinSession', { sessionId })).toMatchObject({ ok: true });
    const arrived = nextEvent(viewer, 'sessionStatusUpdate');
    server.ctx.realtime.toSession(sessionId, 'sessionStatusUpdate', { sessionId, status: 'live', version: 2 });
    expect(await arrived).toEqual({ sessionId, status: 'live', version: 2 });
    expect(await viewer.emitWithAck('leaveSession', { sessionId })).toEqual({ ok: true });
    const after = collect(viewer, 'sessionStatusUpdate', 300);
    server.ctx.realtime.toSession(sessionId, 'sessionStatusUpdate', { sessionId, status: 'ended', version: 3 });
    expect(await after).toEqual([]);
  });

  it('answers a malformed room request with an error', async () => {
    const viewer = socket();
    await connected(viewer);
    expect(await viewer.emitWithAck('joinAuction', { auctionId: 'company:acme' })).toEqual({ ok: false, error: 'invalid_id' });
    expect(await viewer.emitWithAck('joinSession', null)).toEqual({ ok: false, error: 'invalid_id' });
  });

  it('admits only admins and sellers to company rooms, from their session', async () => {
    const seller = socket({ cookie: sellerCookie });
    const admin = socket({ cookie: adminCookie });
    const buyer = socket({ cookie: buyerCookie });
    const anonymous = socket();
    await Promise.all([seller, admin, buyer, anonymous].map(connected));
    // Asking for a private room by name does nothing.
    await buyer.emitWithAck('joinAuction', { auctionId: 'acme' }).catch(() => {});
    buyer.emit('join', 'company:acme');

    const sellerGot = nextEvent(seller, 'auctionCreatedSuccessfully');
    const adminGot = nextEvent(admin, 'auctionCreatedSuccessfully');
    const buyerGot = collect(buyer, 'auctionCreatedSuccessfully', 400);
    const anonymousGot = collect(anonymous, 'auctionCreatedSuccessfully', 400);
    const created = { id: 'a1', companyId: 'acme', version: 1 };
    server.ctx.realtime.toCompany('acme', 'auctionCreatedSuccessfully', created);
    expect(await sellerGot).toEqual(created);
    expect(await adminGot).toEqual(created);
    expect(await buyerGot).toEqual([]);
    expect(await anonymousGot).toEqual([]);

    // Another company's events do not reach this seller.
    const otherCompany = collect(seller, 'auctionUpdate', 300);
    server.ctx.realtime.toCompany('otra-empresa', 'auctionUpdate', { id: 'b1', companyId: 'otra-empresa', version: 1 });
    expect(await otherCompany).toEqual([]);
  });

  it('sends a user their own events only', async () => {
    const seller = socket({ cookie: sellerCookie });
    const buyer = socket({ cookie: buyerCookie });
    await Promise.all([connected(seller), connected(buyer)]);
    const sellerGot = nextEvent(seller, 'outbid');
    const buyerGot = collect(buyer, 'outbid', 300);
    const notice = { auctionId: 'x', auctionName: 'Reloj', currentPrice: 200, nextMinimum: 210, version: 3 };
    server.ctx.realtime.toUser(sellerId, 'outbid', notice);
    expect(await sellerGot).toEqual(notice);
    expect(await buyerGot).toEqual([]);

    // The path of the notices that come many a second (an outbid per bid) too.
    const sellerAgain = nextEvent(seller, 'outbid');
    const buyerAgain = collect(buyer, 'outbid', 300);
    server.ctx.realtime.toUserOften(sellerId, 'outbid', { ...notice, version: 4 });
    expect(await sellerAgain).toEqual({ ...notice, version: 4 });
    expect(await buyerAgain).toEqual([]);
  });

  it('closes the sockets of a session when it logs out, and only those', async () => {
    const cookie = await signIn('vendedor@ejemplo.mx');
    const mine = socket({ cookie });
    const otherSession = socket({ cookie: sellerCookie });
    await Promise.all([connected(mine), connected(otherSession)]);
    const gone = nextEvent<string>(mine, 'disconnect');
    const res = await fetch(`${server.url}/auth/logout`, { method: 'POST', headers: { cookie, origin: server.url } });
    expect(res.status).toBe(204);
    expect(await gone).toBe('io server disconnect');
    expect(otherSession.connected).toBe(true);
    // The ended session's cookie now connects as an anonymous viewer, outside any company room.
    const again = socket({ cookie });
    await connected(again);
    const nothing = collect(again, 'auctionUpdate', 300);
    server.ctx.realtime.toCompany('acme', 'auctionUpdate', { id: 'z', companyId: 'acme', version: 1 });
    expect(await nothing).toEqual([]);
  });
});
