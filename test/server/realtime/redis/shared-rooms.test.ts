import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userProfiles } from '../../../../src/server/db/schema.js';
import { buildActor } from '../../../support/actors.js';
import { cookieFrom, startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket, hears, nextEvent } from '../../../support/sockets.js';

// Included by vitest.config.ts only when TEST_REDIS_URL is set.
const redisUrl = process.env.TEST_REDIS_URL as string;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  [a, b] = await Promise.all([
    startTestServer({ env: { REDIS_URL: redisUrl, VIDEO_PROVIDER: 'agora' } }),
    startTestServer({ env: { REDIS_URL: redisUrl, VIDEO_PROVIDER: 'agora' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe('several instances share rooms through Redis', () => {
  it('delivers an event emitted on one instance to a viewer connected to another', async () => {
    const auctionId = randomUUID();
    const viewer = connectSocket(b.url);
    try {
      await connected(viewer);
      expect(await viewer.emitWithAck('joinAuction', { auctionId })).toMatchObject({ ok: true });
      const arrived = nextEvent(viewer, 'auctionUpdate');
      a.ctx.realtime.toAuction(auctionId, 'auctionUpdate', { id: auctionId, companyId: 'acme', version: 7 });
      expect(await arrived).toEqual({ id: auctionId, companyId: 'acme', version: 7 });
    } finally {
      viewer.disconnect();
    }
  });

  it('ends the sockets of a logged-out session on every instance', async () => {
    // Each test server has its own database, so the session is opened on B and ended through A's realtime.
    const res = await b.app.inject({ method: 'POST', url: '/auth/dev', payload: { email: 'redis@ejemplo.mx', name: 'Redis' } });
    const cookie = cookieFrom(res.headers['set-cookie'], 'martillo_session') as string;
    const me = await b.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    const socket = connectSocket(b.url, { cookie });
    await connected(socket);
    const sessions = await b.ctx.db.query.authSessions.findMany();
    const gone = nextEvent(socket, 'disconnect');
    await a.ctx.realtime.disconnectAuthSession(sessions[0]?.id as string);
    expect(await gone).toBe('io server disconnect');
  });

  it('drops a changed user from the session cache of every instance at once', async () => {
    // Each test server has its own database: the seller signs in on B, B's database changes behind
    // B's back (as another instance's write would), and A announces the change.
    const res = await b.app.inject({ method: 'POST', url: '/auth/dev', payload: { email: 'cache@ejemplo.mx', name: 'Cache' } });
    const cookie = cookieFrom(res.headers['set-cookie'], 'martillo_session') as string;
    const me = async () => (await b.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).json();
    const before = await me();
    expect(before.roles).toEqual(['buyer']);
    await b.ctx.db
      .update(userProfiles)
      .set({ roles: ['seller'] })
      .where(eq(userProfiles.userId, before.user.id));
    expect((await me()).roles).toEqual(['buyer']); // B still serves its cached session
    a.ctx.sessions.forgetUser(before.user.id);
    await expect.poll(async () => (await me()).roles, { timeout: 5_000 }).toEqual(['seller']);
  });

  it('re-assigns the rooms of a demoted seller on the instance holding the socket', async () => {
    // Each test server has its own database: B's changes behind B's back (as another instance's write would), A announces it.
    const company = `empresa-${randomUUID()}`;
    const seller = await buildActor(b, { email: `vendedor-${randomUUID()}@ejemplo.mx`, name: 'Vendedor Redis', roles: ['seller'], companyId: company });
    const socket = connectSocket(b.url, { cookie: seller.cookie });
    try {
      await connected(socket);
      const hearsCompany = () =>
        hears(
          socket,
          'auctionUpdate',
          () => a.ctx.realtime.toCompany(company, 'auctionUpdate', { id: 'a1', companyId: company, version: 1 }),
          (marker) => a.ctx.realtime.toUser(seller.id, 'sessionStatusUpdate', marker),
        );
      expect(await hearsCompany()).toBe(true);
      await b.ctx.db
        .update(userProfiles)
        .set({ roles: ['buyer'] })
        .where(eq(userProfiles.userId, seller.id));
      await a.ctx.publisher.publish([{ type: 'userAccessChanged', userId: seller.id }]);
      await expect.poll(hearsCompany, { timeout: 10_000 }).toBe(false);
    } finally {
      socket.disconnect();
    }
  });

  it('sends a payment event published on one instance to its seller on another, not to a co-seller', async () => {
    const company = `empresa-${randomUUID()}`;
    const build = (n: string) =>
      buildActor(b, { email: `vendedor-${n}-${randomUUID()}@ejemplo.mx`, name: `Vendedor ${n}`, roles: ['seller'], companyId: company });
    const [seller, coSeller] = await Promise.all([build('uno'), build('dos')]);
    const payment = { id: randomUUID(), companyId: company, sellerId: seller.id, paymentStatus: 'pending', payoutStatus: 'none' } as const;
    const opened: ReturnType<typeof connectSocket>[] = [];
    const heard = async (who: typeof seller) => {
      const socket = connectSocket(b.url, { cookie: who.cookie });
      opened.push(socket);
      await connected(socket);
      return hears(
        socket,
        'paymentStatusUpdate',
        () => void a.ctx.publisher.publish([{ type: 'paymentChanged', payment, auctionIds: [] }]),
        (marker) => a.ctx.realtime.toUser(who.id, 'sessionStatusUpdate', marker),
      );
    };
    try {
      expect(await heard(seller)).toBe(true);
      expect(await heard(coSeller)).toBe(false);
    } finally {
      for (const s of opened) s.disconnect();
    }
  });
});
