import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userProfiles } from '../../src/server/db/schema.js';
import { cookieFrom, startTestServer, type TestServer } from '../support/server.js';
import { connected, connectSocket, nextEvent } from '../support/sockets.js';

// Included by vitest.config.ts only when TEST_REDIS_URL is set.
const redisUrl = process.env.TEST_REDIS_URL as string;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer({ env: { REDIS_URL: redisUrl } }), startTestServer({ env: { REDIS_URL: redisUrl } })]);
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
      expect(await viewer.emitWithAck('joinAuction', { auctionId })).toEqual({ ok: true });
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
});
