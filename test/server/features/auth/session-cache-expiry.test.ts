import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { authSessions } from '../../../../src/server/db/schema.js';
import { createSessionCache } from '../../../../src/server/sessions/cache.js';
import { createSession } from '../../../../src/server/sessions/store.js';
import { buildActor } from '../../../support/actors.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => server?.close());

const secret = () => server.ctx.config.sessionSecret;

it('keeps a session no longer than its own expiry', async () => {
  const actor = await buildActor(server, { email: 'breve@ejemplo.mx', name: 'Breve', roles: ['buyer'] });
  // The cache would keep an entry a day; the session lasts an hour.
  const cache = createSessionCache({ ttlMs: 86_400_000 });
  const { token, sessionId, expiresAt } = await createSession(server.ctx.db, { userId: actor.id, days: 1 / 24, secret: secret() });
  expect((await cache.resolve(server.ctx.db, token, secret()))?.id).toBe(actor.id);
  // An hour and a second later, on the process clock and in the database, instead of waiting for it.
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(expiresAt.getTime() + 1_000);
    await server.ctx.db.update(authSessions).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(authSessions.id, sessionId));
    expect(await cache.resolve(server.ctx.db, token, secret())).toBeNull();
  } finally {
    vi.useRealTimers();
  }
});

it('serves a repeat from memory until the entry is dropped, then reads the database again', async () => {
  const actor = await buildActor(server, { email: 'roles@ejemplo.mx', name: 'Roles', roles: ['buyer'] });
  const cache = createSessionCache({ ttlMs: 60_000 });
  const { token } = await createSession(server.ctx.db, { userId: actor.id, days: 1, secret: secret() });
  const first = await cache.resolve(server.ctx.db, token, secret());
  expect(await cache.resolve(server.ctx.db, token, secret())).toBe(first);
  cache.forgetUser(actor.id);
  const again = await cache.resolve(server.ctx.db, token, secret());
  expect(again).not.toBe(first);
  expect(again).toEqual(first);
  expect(await cache.resolve(server.ctx.db, 'unknown-token', secret())).toBeNull();
});

it('answers a role change made through the API at once', async () => {
  const admin = await buildActor(server, { email: 'jefe@ejemplo.mx', name: 'Jefe', roles: ['admin'] });
  const seller = await buildActor(server, { email: 'ex-vendedor@ejemplo.mx', name: 'Ex', roles: ['seller'] });
  const list = () => server.app.inject({ method: 'GET', url: '/api/auctions', headers: { cookie: seller.cookie } });
  expect((await list()).statusCode).toBe(200);
  const change = await server.app.inject({
    method: 'PUT',
    url: `/api/users/${seller.id}/roles`,
    headers: { cookie: admin.cookie, origin: server.url },
    payload: { roles: ['buyer'] },
  });
  expect(change.statusCode).toBe(200);
  expect((await list()).statusCode).toBe(403);
});
