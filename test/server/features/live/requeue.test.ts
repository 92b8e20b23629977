import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../src/domain/live.js';
import { auctions, auditLog, liveLots, liveSessions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * 'Volver a subastar' (POST /api/live-sessions/{id}/lots/{lotId}/requeue): an unsold lot goes back
 * to the end of the queue, orders kept dense, its auction waiting to be opened like a lot never
 * opened; a sold, running or never-run lot is refused with its reason and nothing changes.
 */

const COMPANY = 'volver-a-subastar';
let server: TestServer;
let seller: Actor;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@volver.mx', name: 'Vera Volver', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterAll(async () => server?.close());

async function show(n: number) {
  const db = server.ctx.db;
  const session = await buildSession(db, { sellerId: seller.id, companyId: COMPANY, status: 'live' });
  const lots = [];
  for (let i = 0; i < n; i++) {
    const auction = await buildAuction(db, { companyId: COMPANY, sellerId: seller.id, status: 'pending', name: `Lote ${i + 1}` });
    lots.push(await buildLot(db, { sessionId: session.id, auctionId: auction.id }));
  }
  return { session, lots: lots as [(typeof lots)[number], ...(typeof lots)[number][]] };
}

const requeue = (sessionId: string, lotId: string) => injectAs(server, seller, 'POST', `/api/live-sessions/${sessionId}/lots/${lotId}/requeue`, {});
const next = (sessionId: string) => injectAs(server, seller, 'POST', `/api/live-sessions/${sessionId}/next`, {});

async function closeUnsold(lot: { id: string; auctionId: string }) {
  await server.ctx.db
    .update(auctions)
    .set({ status: 'ended', endTime: new Date(Date.now() - 2_000), closedAt: new Date(Date.now() - 1_000) })
    .where(eq(auctions.id, lot.auctionId));
  await server.ctx.db.update(liveLots).set({ status: 'finished' }).where(eq(liveLots.id, lot.id));
}

async function lotsInOrder(sessionId: string) {
  return server.ctx.db
    .select({ id: liveLots.id, order: liveLots.order, status: liveLots.status })
    .from(liveLots)
    .where(eq(liveLots.sessionId, sessionId))
    .orderBy(liveLots.order);
}

async function auctionOf(lot: { auctionId: string }) {
  const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, lot.auctionId));
  if (!row) throw new Error('no auction');
  return row;
}

describe('Volver a subastar', () => {
  it('sends an unsold lot to the end of the queue, ready to open again, and Siguiente lote reaches it last', async () => {
    const { session, lots } = await show(3);
    const [first, second, third] = lots as [(typeof lots)[0], (typeof lots)[0], (typeof lots)[0]];
    expect((await next(session.id)).statusCode).toBe(200);
    await closeUnsold(first);
    const res = await requeue(session.id, first.id);
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json() as LiveSessionDetail;
    expect(detail.lots.map((l) => [l.id, l.order, l.status])).toEqual([
      [second.id, 1, 'queued'],
      [third.id, 2, 'queued'],
      [first.id, 3, 'queued'],
    ]);
    // The current lot went to the end: nothing is current until the next opens.
    expect(detail.session.currentLotId).toBeNull();
    const auction = await auctionOf(first);
    expect([auction.status, auction.endTime, auction.closedAt, auction.currentWinnerId]).toEqual(['pending', null, null, null]);
    const [audit] = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'live_session.requeue'), eq(auditLog.entityId, session.id)));
    expect(audit?.actorId).toBe(seller.id);

    for (const lot of [second, third]) {
      const opened = await next(session.id);
      expect((opened.json() as LiveSessionDetail).session.currentLotId).toBe(lot.id);
      await closeUnsold(lot);
    }
    const last = await next(session.id);
    expect(last.statusCode, last.body).toBe(200);
    expect((last.json() as LiveSessionDetail).session.currentLotId).toBe(first.id);
    expect((await auctionOf(first)).status).toBe('live');
  });

  it('refuses a sold lot, a running lot and a lot that never ran, changing nothing', async () => {
    const { session, lots } = await show(3);
    const [sold, running, waiting] = lots as [(typeof lots)[0], (typeof lots)[0], (typeof lots)[0]];
    const db = server.ctx.db;
    await db
      .update(auctions)
      .set({ status: 'ended', closedAt: new Date(), bidCount: 1, currentPrice: 700, currentWinnerId: seller.id })
      .where(eq(auctions.id, sold.auctionId));
    await db.update(liveLots).set({ status: 'finished' }).where(eq(liveLots.id, sold.id));
    await db
      .update(auctions)
      .set({ status: 'live', endTime: new Date(Date.now() + 600_000) })
      .where(eq(auctions.id, running.auctionId));
    await db.update(liveSessions).set({ currentLotId: running.id }).where(eq(liveSessions.id, session.id));
    const before = await lotsInOrder(session.id);
    const cases: [string, string][] = [
      [sold.id, messages.live.requeueSold],
      [running.id, messages.live.requeueRunning],
      [waiting.id, messages.live.requeueQueued],
    ];
    for (const [lotId, message] of cases) {
      const res = await requeue(session.id, lotId);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error).toEqual({ code: 'CONFLICT', message });
    }
    expect(await lotsInOrder(session.id)).toEqual(before);
    expect((await auctionOf(running)).status).toBe('live');
  });

  it('answers 404 for a lot of another session or a bad id', async () => {
    const a = await show(1);
    const b = await show(1);
    expect((await requeue(a.session.id, b.lots[0].id)).statusCode).toBe(404);
    expect((await requeue(a.session.id, 'no-es-un-id')).statusCode).toBe(404);
  });
});
