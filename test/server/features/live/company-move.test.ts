import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail, LiveSessionList } from '../../../../src/domain/live.js';
import { auctions, liveLots, liveSessions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { publishSynthetic } from '../../../support/rtp-peers.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket } from '../../../support/sockets.js';

/**
 * A seller (or a company admin) moved to another company leaves its old company's sessions
 * behind, those it created included: every change answers 'Sesión no encontrada' as for any
 * outsider, the video is not theirs to publish, and promptUnmute is refused. Reading and the list
 * stay as SPEC §6 says (a seller still sees the sessions it created, without the right to change them).
 */

const OLD = 'casa-vieja';
const NEW = 'casa-nueva';
let server: TestServer;
let platform: Actor;
let stayingAdmin: Actor;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { VIDEO_BIND_ADDRESS: '127.0.0.1' } });
  platform = await buildActor(server, { email: 'plataforma@martillo.mx', name: 'Pía Plataforma', roles: ['admin'] });
  stayingAdmin = await buildActor(server, { email: 'jefa@casa-vieja.mx', name: 'Julia Jefa', roles: ['admin'], companyId: OLD });
}, 60_000);
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => server?.close());

async function socket(actor: Actor): Promise<Socket> {
  const s = connectSocket(server.url, { cookie: actor.cookie });
  sockets.push(s);
  await connected(s);
  return s;
}

/** A user of the old company with a session it created: two lots waiting for their timer, the first current, and a free auction. */
async function showOf(roles: ('seller' | 'admin')[]) {
  const db = server.ctx.db;
  const tag = randomUUID().slice(0, 6);
  const mover = await buildActor(server, { email: `mueve-${tag}@casa-vieja.mx`, name: 'Mauro Mudanza', roles, companyId: OLD });
  const session = await buildSession(db, { sellerId: mover.id, companyId: OLD, title: `Show ${tag}` });
  const make = (status: 'pending' | 'active') =>
    buildAuction(db, { companyId: OLD, sellerId: mover.id, status, endTime: status === 'active' ? new Date(Date.now() + 3_600_000) : null });
  const [one, two, free] = [await make('pending'), await make('pending'), await make('active')];
  const lot1 = await buildLot(db, { sessionId: session.id, auctionId: one.id });
  const lot2 = await buildLot(db, { sessionId: session.id, auctionId: two.id });
  await db.update(liveSessions).set({ currentLotId: lot1.id }).where(eq(liveSessions.id, session.id));
  return { mover, session, lot1, lot2, free };
}
type Show = Awaited<ReturnType<typeof showOf>>;

async function move(actor: Actor, companyId: string) {
  const res = await injectAs(server, platform, 'PUT', `/api/users/${actor.id}`, { companyId });
  expect(res.statusCode, res.body).toBe(200);
}

const CHANGES: { name: string; send: (s: Show, as: Actor) => Promise<LightMyRequestResponse> }[] = [
  { name: 'edit', send: (s, as) => injectAs(server, as, 'PUT', `/api/live-sessions/${s.session.id}`, { title: 'Cambiado' }) },
  { name: 'status', send: (s, as) => injectAs(server, as, 'PUT', `/api/live-sessions/${s.session.id}`, { status: 'paused' }) },
  { name: 'add lot', send: (s, as) => injectAs(server, as, 'POST', `/api/live-sessions/${s.session.id}/lots`, { auctionId: s.free.id }) },
  { name: 'remove lot', send: (s, as) => injectAs(server, as, 'DELETE', `/api/live-sessions/${s.session.id}/lots/${s.lot2.id}`) },
  { name: 'reorder', send: (s, as) => injectAs(server, as, 'PUT', `/api/live-sessions/${s.session.id}/lots/order`, { lotIds: [s.lot2.id, s.lot1.id] }) },
  { name: 'set current', send: (s, as) => injectAs(server, as, 'POST', `/api/live-sessions/${s.session.id}/current`, { lotId: s.lot2.id }) },
  { name: 'timer', send: (s, as) => injectAs(server, as, 'POST', `/api/live-sessions/${s.session.id}/timer`, { seconds: 30 }) },
  {
    name: 'quick auction',
    send: (s, as) => injectAs(server, as, 'POST', `/api/live-sessions/${s.session.id}/quick-auction`, { name: 'Rápida', startingPrice: 10, timerSeconds: 30 }),
  },
  { name: 'start broadcast', send: (s, as) => injectAs(server, as, 'POST', `/api/live-sessions/${s.session.id}/stream/start`, {}) },
  { name: 'stop broadcast', send: (s, as) => injectAs(server, as, 'POST', `/api/live-sessions/${s.session.id}/stream/stop`, {}) },
  { name: 'publisher grant', send: (s, as) => injectAs(server, as, 'GET', `/api/live-sessions/${s.session.id}/video?role=publisher`) },
  { name: 'delete', send: (s, as) => injectAs(server, as, 'DELETE', `/api/live-sessions/${s.session.id}`) },
];

async function snapshot(s: Show) {
  const db = server.ctx.db;
  return {
    session: (await db.select().from(liveSessions).where(eq(liveSessions.id, s.session.id)))[0],
    lots: await db.select().from(liveLots).where(eq(liveLots.sessionId, s.session.id)).orderBy(liveLots.order),
    lotAuction: (await db.select().from(auctions).where(eq(auctions.id, s.lot1.auctionId)))[0],
    auctions: (await db.select({ id: auctions.id }).from(auctions)).length,
  };
}

describe('after a move to another company', () => {
  for (const roles of [['seller'], ['admin']] as const) {
    for (const change of CHANGES) {
      it(`refuses ${change.name} to a moved ${roles[0]}, and lets the old company's admin do it`, async () => {
        const show = await showOf([...roles]);
        await move(show.mover, NEW);
        const before = await snapshot(show);
        const refused = await change.send(show, show.mover);
        expect(refused.statusCode, refused.body).toBe(404);
        expect(refused.json().error.message).toBe(messages.live.sessionNotFound);
        expect(await snapshot(show)).toEqual(before);
        const allowed = await change.send(show, stayingAdmin);
        expect(allowed.statusCode, allowed.body).toBeLessThan(300);
      });
    }
  }

  it('still shows the session to the moved seller and lists it, without the right to change it', async () => {
    const show = await showOf(['seller']);
    await move(show.mover, NEW);
    const detail = (await injectAs(server, show.mover, 'GET', `/api/live-sessions/${show.session.id}`)).json() as LiveSessionDetail;
    expect(detail.canEdit).toBe(false);
    const list = (await injectAs(server, show.mover, 'GET', '/api/live-sessions')).json() as LiveSessionList;
    expect(list.sessions.find((s) => s.id === show.session.id)).toMatchObject({ canEdit: false });
  });

  it('gives the session back when the seller returns to the company', async () => {
    const show = await showOf(['seller']);
    await move(show.mover, NEW);
    await move(show.mover, OLD);
    const res = await injectAs(server, show.mover, 'PUT', `/api/live-sessions/${show.session.id}`, { title: 'De vuelta' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses promptUnmute on a socket opened before the move', async () => {
    const show = await showOf(['seller']);
    const s = await socket(show.mover);
    await move(show.mover, NEW);
    expect(await s.timeout(5000).emitWithAck('promptUnmute', { sessionId: show.session.id })).toEqual({ ok: false });
    // The old company's admin still may.
    const admin = await socket(stayingAdmin);
    expect(await admin.timeout(5000).emitWithAck('promptUnmute', { sessionId: show.session.id })).toEqual({ ok: true });
  });

  it('refuses publishing the session’s video on the embedded SFU', async () => {
    const show = await showOf(['seller']);
    const s = await socket(show.mover);
    await move(show.mover, NEW);
    const { ack, publisher } = await publishSynthetic(s, show.session.id);
    publisher?.close();
    expect(ack).toEqual({ ok: false, error: 'forbidden' });
  });
});
