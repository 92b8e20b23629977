import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail, LiveSessionList } from '../../../../src/domain/live.js';
import { auctions, auditLog, liveLots, liveSessions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

/**
 * Who may call each Live Hub route (SPEC §6), over seven actors. A session is changed
 * by its seller, its company's admins and the platform admins; a co-seller of the company sees it
 * in the list but may not change it, and anyone else gets 'Sesión no encontrada' (404), as for a
 * session that does not exist. Reading one session and the directory is public. A refused call
 * changes nothing; a call from another site is refused.
 */

type ActorName = 'anonymous' | 'buyer' | 'seller' | 'colleague' | 'companyAdmin' | 'otherAdmin' | 'platformAdmin';
const ACTORS: ActorName[] = ['anonymous', 'buyer', 'seller', 'colleague', 'companyAdmin', 'otherAdmin', 'platformAdmin'];
const EDITORS: ActorName[] = ['seller', 'companyAdmin', 'platformAdmin'];
const COMPANY_A = 'vivo-a';
const COMPANY_B = 'vivo-b';

let server: TestServer;
const actors = {} as Record<Exclude<ActorName, 'anonymous'>, Actor>;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  const make = (email: string, name: string, roles: ('admin' | 'seller' | 'buyer')[], companyId?: string) =>
    buildActor(server, { email, name, roles, ...(companyId ? { companyId } : {}) });
  actors.buyer = await make('compra@vivo.mx', 'Carla Compradora', ['buyer']);
  actors.seller = await make('vende@vivo-a.mx', 'Ana Vendedora', ['seller'], COMPANY_A);
  actors.colleague = await make('colega@vivo-a.mx', 'Olga Colega', ['seller'], COMPANY_A);
  actors.companyAdmin = await make('jefa@vivo-a.mx', 'Julia Jefa', ['admin'], COMPANY_A);
  actors.otherAdmin = await make('jefe@vivo-b.mx', 'Jorge Jefe', ['admin'], COMPANY_B);
  actors.platformAdmin = await make('admin@martillo.mx', 'Ada Admin', ['admin']);
}, 60_000);
afterAll(async () => server?.close());

/** A session of seller A with two lots (the first current), and an auction of company A free to add. */
async function fixture() {
  const db = server.ctx.db;
  const session = await buildSession(db, { sellerId: actors.seller.id, companyId: COMPANY_A, title: `Sesión ${randomUUID().slice(0, 6)}` });
  const make = () => buildAuction(db, { companyId: COMPANY_A, sellerId: actors.seller.id, status: 'active', endTime: new Date(Date.now() + 3_600_000) });
  // The lots wait for their timer (a running or sold lot may not leave the session, nor the session be deleted).
  const waiting = () => buildAuction(db, { companyId: COMPANY_A, sellerId: actors.seller.id, status: 'pending' });
  const [one, two, free] = [await waiting(), await waiting(), await make()];
  const lot1 = await buildLot(db, { sessionId: session.id, auctionId: one.id });
  const lot2 = await buildLot(db, { sessionId: session.id, auctionId: two.id });
  await db.update(liveSessions).set({ currentLotId: lot1.id }).where(eq(liveSessions.id, session.id));
  return { session, lot1, lot2, free };
}
type Fixture = Awaited<ReturnType<typeof fixture>>;

interface Route {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: (f: Fixture) => string;
  payload?: (f: Fixture) => Record<string, unknown>;
  okStatus: number;
}

/** Every route that changes or reveals one session to its editors. */
const EDITOR_ROUTES: Route[] = [
  { name: 'edit', method: 'PUT', url: (f) => `/api/live-sessions/${f.session.id}`, payload: () => ({ title: 'Cambiado' }), okStatus: 200 },
  { name: 'status', method: 'PUT', url: (f) => `/api/live-sessions/${f.session.id}`, payload: () => ({ status: 'paused' }), okStatus: 200 },
  { name: 'delete', method: 'DELETE', url: (f) => `/api/live-sessions/${f.session.id}`, okStatus: 200 },
  { name: 'add lot', method: 'POST', url: (f) => `/api/live-sessions/${f.session.id}/lots`, payload: (f) => ({ auctionId: f.free.id }), okStatus: 201 },
  { name: 'remove lot', method: 'DELETE', url: (f) => `/api/live-sessions/${f.session.id}/lots/${f.lot2.id}`, okStatus: 200 },
  {
    name: 'reorder',
    method: 'PUT',
    url: (f) => `/api/live-sessions/${f.session.id}/lots/order`,
    payload: (f) => ({ lotIds: [f.lot2.id, f.lot1.id] }),
    okStatus: 200,
  },
  { name: 'set current', method: 'POST', url: (f) => `/api/live-sessions/${f.session.id}/current`, payload: (f) => ({ lotId: f.lot2.id }), okStatus: 200 },
  { name: 'timer', method: 'POST', url: (f) => `/api/live-sessions/${f.session.id}/timer`, payload: () => ({ seconds: 30 }), okStatus: 200 },
  {
    name: 'quick auction',
    method: 'POST',
    url: (f) => `/api/live-sessions/${f.session.id}/quick-auction`,
    payload: () => ({ name: 'Rápida', startingPrice: 100, timerSeconds: 30 }),
    okStatus: 201,
  },
  { name: 'picker', method: 'GET', url: (f) => `/api/live-sessions/${f.session.id}/picker?q=`, okStatus: 200 },
  { name: 'start broadcast', method: 'POST', url: (f) => `/api/live-sessions/${f.session.id}/stream/start`, okStatus: 200 },
  { name: 'stop broadcast', method: 'POST', url: (f) => `/api/live-sessions/${f.session.id}/stream/stop`, okStatus: 200 },
  { name: 'publish grant', method: 'GET', url: (f) => `/api/live-sessions/${f.session.id}/video?role=publisher`, okStatus: 200 },
];

function send(actor: ActorName, method: Route['method'], url: string, payload?: Record<string, unknown>, origin = server.url): Promise<LightMyRequestResponse> {
  const cookie = actor === 'anonymous' ? undefined : actors[actor].cookie;
  return server.app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), ...(method !== 'GET' ? { origin } : {}) },
    ...(payload ? { payload } : {}),
  });
}

/** Everything a Live Hub change writes. */
async function snapshot(f: Fixture) {
  const db = server.ctx.db;
  const n = async (table: typeof liveSessions | typeof liveLots | typeof auctions | typeof auditLog) => (await db.select({ n: count() }).from(table))[0]?.n;
  return {
    session: (await db.select().from(liveSessions).where(eq(liveSessions.id, f.session.id)))[0],
    lots: await db.select().from(liveLots).where(eq(liveLots.sessionId, f.session.id)).orderBy(liveLots.order),
    current: (await db.select().from(auctions).where(eq(auctions.id, f.lot1.auctionId)))[0],
    counts: { sessions: await n(liveSessions), lots: await n(liveLots), auctions: await n(auctions), audit: await n(auditLog) },
  };
}

describe('routes about one session', () => {
  for (const route of EDITOR_ROUTES) {
    for (const actor of ACTORS) {
      const expected = actor === 'anonymous' ? 401 : actor === 'buyer' ? 403 : EDITORS.includes(actor) ? route.okStatus : 404;
      it(`${route.name} as ${actor}: ${expected}`, async () => {
        const f = await fixture();
        const before = await snapshot(f);
        const res = await send(actor, route.method, route.url(f), route.payload?.(f));
        expect(res.statusCode, res.body).toBe(expected);
        if (expected === 404) expect(res.json().error.message).toBe(messages.live.sessionNotFound);
        if (expected >= 400) expect(await snapshot(f)).toEqual(before);
      });
    }
  }

  it('answers an outsider exactly as for a session that does not exist', async () => {
    const f = await fixture();
    const missing = { ...f, session: { ...f.session, id: randomUUID() } };
    for (const route of EDITOR_ROUTES) {
      const real = await send('otherAdmin', route.method, route.url(f), route.payload?.(f));
      const none = await send('otherAdmin', route.method, route.url(missing), route.payload?.(missing));
      expect([real.statusCode, real.json()], route.name).toEqual([none.statusCode, none.json()]);
    }
  });

  it('refuses a change from another site', async () => {
    const f = await fixture();
    const before = await snapshot(f);
    const res = await send('seller', 'PUT', `/api/live-sessions/${f.session.id}`, { title: 'Desde otro sitio' }, 'https://evil.example');
    expect(res.statusCode).toBe(403);
    expect(await snapshot(f)).toEqual(before);
  });
});

describe('reading sessions', () => {
  it('shows one session to anyone, the private fields only to its editors', async () => {
    const f = await fixture();
    for (const actor of ACTORS) {
      const res = await send(actor, 'GET', `/api/live-sessions/${f.session.id}`);
      expect(res.statusCode, actor).toBe(200);
      const detail = res.json() as LiveSessionDetail;
      const editor = EDITORS.includes(actor);
      expect(detail.canEdit, actor).toBe(editor);
      expect('sellerId' in detail.session, actor).toBe(editor);
      expect(detail.lots).toHaveLength(2);
    }
  });

  it('lists SPEC §6’s scope to panel users only', async () => {
    const f = await fixture();
    const otherCompany = await buildSession(server.ctx.db, { sellerId: actors.otherAdmin.id, companyId: COMPANY_B });
    const seen: Record<string, unknown> = {};
    for (const actor of ACTORS) {
      const res = await send(actor, 'GET', '/api/live-sessions');
      if (res.statusCode !== 200) {
        seen[actor] = res.statusCode;
        continue;
      }
      const list = res.json() as LiveSessionList;
      const mine = list.sessions.find((s) => s.id === f.session.id);
      seen[actor] = [mine ? (mine.canEdit ? 'edit' : 'see') : 'none', list.sessions.some((s) => s.id === otherCompany.id) ? 'B' : '-'];
    }
    expect(seen).toEqual({
      anonymous: 401,
      buyer: 403,
      seller: ['edit', '-'],
      colleague: ['see', '-'],
      companyAdmin: ['edit', '-'],
      otherAdmin: ['none', 'B'],
      platformAdmin: ['edit', 'B'],
    });
  });

  it('lets panel users create sessions (their own), and shows the directory to anyone', async () => {
    for (const actor of ACTORS) {
      const res = await send(actor, 'POST', '/api/live-sessions', { title: `De ${actor}`, scheduledAt: Date.UTC(2030, 5, 1) });
      const expected = actor === 'anonymous' ? 401 : actor === 'buyer' ? 403 : 201;
      expect(res.statusCode, actor).toBe(expected);
      if (expected === 201) expect((res.json() as LiveSessionDetail).session).toMatchObject({ sellerId: actors[actor as 'seller'].id });
      expect((await send(actor, 'GET', '/api/live-sessions/public')).statusCode).toBe(200);
    }
  });
});
