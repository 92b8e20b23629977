import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../src/domain/live.js';
import { auctions, liveLots, liveSessions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * An ended session is opened again only when the seller confirms it. 'Iniciar' (stream/start),
 * 'Establecer actual' (current) and a quick auction added to the session answer 409
 * SESSION_ENDED without `reopen: true`, changing nothing; with it they run the same check as the
 * status dropdown (no auction of the session may be a lot of another open session) and proceed.
 */

const COMPANY = 'reabre-vivo';
let server: TestServer;
let seller: Actor;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@reabre.mx', name: 'Rita Reabre', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterAll(async () => server?.close());

/** An ended session with one lot, waiting for its timer. */
async function endedShow() {
  const db = server.ctx.db;
  const session = await buildSession(db, { sellerId: seller.id, companyId: COMPANY, status: 'ended' });
  const auction = await buildAuction(db, { companyId: COMPANY, sellerId: seller.id, status: 'pending' });
  const lot = await buildLot(db, { sessionId: session.id, auctionId: auction.id });
  return { session, auction, lot };
}
type Show = Awaited<ReturnType<typeof endedShow>>;

interface Reopener {
  name: string;
  send(show: Show, extra: Record<string, unknown>): Promise<LightMyRequestResponse>;
  okStatus: number;
  /** The session's status once opened again. */
  opened: string;
}

const REOPENERS: Reopener[] = [
  {
    name: 'Iniciar',
    send: (s, extra) => injectAs(server, seller, 'POST', `/api/live-sessions/${s.session.id}/stream/start`, extra),
    okStatus: 200,
    opened: 'live',
  },
  {
    name: 'Establecer actual',
    send: (s, extra) => injectAs(server, seller, 'POST', `/api/live-sessions/${s.session.id}/current`, { lotId: s.lot.id, ...extra }),
    okStatus: 200,
    opened: 'live',
  },
  {
    name: 'a quick auction that starts now',
    send: (s, extra) =>
      injectAs(server, seller, 'POST', `/api/live-sessions/${s.session.id}/quick-auction`, { name: 'Rápida', startingPrice: 10, timerSeconds: 30, ...extra }),
    okStatus: 201,
    opened: 'live',
  },
  {
    name: 'a quick auction added to the session',
    send: (s, extra) =>
      injectAs(server, seller, 'POST', `/api/live-sessions/${s.session.id}/quick-auction`, { name: 'En espera', startingPrice: 10, ...extra }),
    okStatus: 201,
    // Open again, off the air: nothing runs until the seller starts it.
    opened: 'scheduled',
  },
];

async function state(show: Show) {
  const db = server.ctx.db;
  return {
    session: (await db.select().from(liveSessions).where(eq(liveSessions.id, show.session.id)))[0],
    lots: await db.select().from(liveLots).where(eq(liveLots.sessionId, show.session.id)),
    auctions: (await db.select({ id: auctions.id }).from(auctions)).length,
  };
}

describe('a route that would open an ended session', () => {
  for (const route of REOPENERS) {
    it(`${route.name}: 409 SESSION_ENDED without reopen, changing nothing`, async () => {
      const show = await endedShow();
      const before = await state(show);
      for (const extra of [{}, { reopen: false }]) {
        const res = await route.send(show, extra);
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toEqual({ error: { code: 'SESSION_ENDED', message: messages.live.sessionEnded } });
      }
      expect(await state(show)).toEqual(before);
    });

    it(`${route.name}: opens it with reopen: true`, async () => {
      const show = await endedShow();
      const res = await route.send(show, { reopen: true });
      expect(res.statusCode, res.body).toBe(route.okStatus);
      expect((await state(show)).session?.status).toBe(route.opened);
    });

    it(`${route.name}: 409 when one of its auctions is a lot of another open session, even with reopen`, async () => {
      const show = await endedShow();
      const open = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'live' });
      await buildLot(server.ctx.db, { sessionId: open.id, auctionId: show.auction.id });
      const before = await state(show);
      const res = await route.send(show, { reopen: true });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error).toEqual({ code: 'CONFLICT', message: messages.live.reopenConflict });
      expect(await state(show)).toEqual(before);
    });
  }

  it('leaves the other routes as they were: Iniciar with no body at all, or on a session that has not ended', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'scheduled' });
    const bare = await server.app.inject({
      method: 'POST',
      url: `/api/live-sessions/${session.id}/stream/start`,
      headers: { cookie: seller.cookie, origin: server.url },
    });
    expect(bare.statusCode, bare.body).toBe(200);
    expect((bare.json() as LiveSessionDetail).session.status).toBe('live');
    const bad = await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/stream/start`, { reopen: 'sí' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.reopen).toBe(messages.fields.invalid);
    // A quick auction outside the session never opens it.
    const ended = await endedShow();
    const outside = await injectAs(server, seller, 'POST', `/api/live-sessions/${ended.session.id}/quick-auction`, {
      name: 'Fuera',
      startingPrice: 10,
      addToSession: false,
    });
    expect(outside.statusCode).toBe(201);
    expect((await state(ended)).session?.status).toBe('ended');
  });

  it('the status dropdown is explicit: it opens an ended session without the flag, through the same check', async () => {
    const show = await endedShow();
    const open = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'live' });
    const clash = await buildLot(server.ctx.db, { sessionId: open.id, auctionId: show.auction.id });
    const refused = await injectAs(server, seller, 'PUT', `/api/live-sessions/${show.session.id}`, { status: 'scheduled' });
    expect([refused.statusCode, refused.json().error.message]).toEqual([409, messages.live.reopenConflict]);
    await server.ctx.db.delete(liveLots).where(eq(liveLots.id, clash.id));
    const opened = await injectAs(server, seller, 'PUT', `/api/live-sessions/${show.session.id}`, { status: 'scheduled' });
    expect(opened.statusCode, opened.body).toBe(200);
    expect((opened.json() as LiveSessionDetail).session.status).toBe('scheduled');
  });
});
