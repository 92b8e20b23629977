import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../src/domain/live.js';
import { rows } from '../../../../src/server/db/connect.js';
import { auctions, auditLog, liveLots, liveSessions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * 'Siguiente lote' (POST /api/live-sessions/{id}/next): the first lot after the current one that
 * can still be sold becomes current and opens for the session's default timer, in one transaction;
 * 409 when the current lot still runs or nothing is left; a double click opens exactly one lot.
 */

const COMPANY = 'siguiente-lote';
let server: TestServer;
let seller: Actor;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@siguiente.mx', name: 'Sara Siguiente', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterAll(async () => server?.close());

/** A live session of `n` queued lots whose auctions wait to be opened (pending, no end time). */
async function show(n: number, over: Partial<typeof liveSessions.$inferInsert> = {}) {
  const db = server.ctx.db;
  const session = await buildSession(db, { sellerId: seller.id, companyId: COMPANY, status: 'live', ...over });
  const lots = [];
  for (let i = 0; i < n; i++) {
    const auction = await buildAuction(db, { companyId: COMPANY, sellerId: seller.id, status: 'pending', name: `Lote ${i + 1}` });
    lots.push(await buildLot(db, { sessionId: session.id, auctionId: auction.id }));
  }
  return { session, lots };
}

const next = (sessionId: string, body?: unknown) => injectAs(server, seller, 'POST', `/api/live-sessions/${sessionId}/next`, body);

async function auctionOf(lot: { auctionId: string }) {
  const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, lot.auctionId));
  if (!row) throw new Error('no auction');
  return row;
}

async function sessionRow(id: string) {
  const [row] = await server.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, id));
  if (!row) throw new Error('no session');
  return row;
}

/** The lot's auction closed unsold a moment ago, as the scheduler leaves it. */
async function closeUnsold(lot: { id: string; auctionId: string }) {
  await server.ctx.db
    .update(auctions)
    .set({ status: 'ended', endTime: new Date(Date.now() - 2_000), closedAt: new Date(Date.now() - 1_000) })
    .where(eq(auctions.id, lot.auctionId));
  await server.ctx.db.update(liveLots).set({ status: 'finished' }).where(eq(liveLots.id, lot.id));
}

async function dbNowMs(): Promise<number> {
  const [row] = rows<{ now: string | number }>(await server.ctx.db.execute(sql`select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`));
  return Number(row?.now);
}

async function nextAudits(sessionId: string) {
  return server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'live_session.next'), eq(auditLog.entityId, sessionId)));
}

describe('Siguiente lote', () => {
  it('with no current lot, opens the first lot for the session’s default timer and makes it current', async () => {
    const { session, lots } = await show(3, { status: 'scheduled', biddingConfig: { minIncrement: 20, antiSnipeSeconds: 10, timerSecondsDefault: 45 } });
    const before = await dbNowMs();
    // No body at all, as the Hub's button may send.
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/live-sessions/${session.id}/next`,
      headers: { cookie: seller.cookie, origin: server.url },
    });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json() as LiveSessionDetail;
    expect(detail.session.currentLotId).toBe(lots[0]?.id);
    expect(detail.session.status).toBe('live');
    const auction = await auctionOf(lots[0] as { auctionId: string });
    expect(auction.status).toBe('live');
    const runs = (auction.endTime?.getTime() ?? 0) - before;
    expect(runs).toBeGreaterThanOrEqual(45_000);
    expect(runs).toBeLessThan(60_000);
    // The others wait.
    expect((await auctionOf(lots[1] as { auctionId: string })).status).toBe('pending');
    const audits = await nextAudits(session.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]?.actorId).toBe(seller.id);
  });

  it('answers 409 while the current lot is still running, changing nothing', async () => {
    const { session } = await show(2);
    expect((await next(session.id, {})).statusCode).toBe(200);
    const before = await sessionRow(session.id);
    const res = await next(session.id, {});
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toEqual({ code: 'CONFLICT', message: messages.live.currentLotRunning });
    expect((await sessionRow(session.id)).version).toBe(before.version);
  });

  it('once the current lot closed, opens the next one that can still be sold, skipping sold, bid-on and paid lots', async () => {
    const { session, lots } = await show(5);
    const [first, sold, bidOn, paid, open] = lots as [
      (typeof lots)[number],
      (typeof lots)[number],
      (typeof lots)[number],
      (typeof lots)[number],
      (typeof lots)[number],
    ];
    expect((await next(session.id, {})).statusCode).toBe(200);
    await closeUnsold(first);
    const db = server.ctx.db;
    await db
      .update(auctions)
      .set({ status: 'ended', closedAt: new Date(), bidCount: 1, currentPrice: 600, currentWinnerId: seller.id })
      .where(eq(auctions.id, sold.auctionId));
    await db.update(liveLots).set({ status: 'finished' }).where(eq(liveLots.id, sold.id));
    await db.update(auctions).set({ bidCount: 1, currentPrice: 500 }).where(eq(auctions.id, bidOn.auctionId));
    await db.update(auctions).set({ isPaid: true }).where(eq(auctions.id, paid.auctionId));
    const res = await next(session.id, {});
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as LiveSessionDetail).session.currentLotId).toBe(open.id);
    expect((await auctionOf(open)).status).toBe('live');
    expect((await auctionOf(bidOn)).status).toBe('pending');
  });

  it('answers 409 "No quedan lotes en cola" after the last lot', async () => {
    const { session, lots } = await show(1);
    expect((await next(session.id, {})).statusCode).toBe(200);
    await closeUnsold(lots[0] as { id: string; auctionId: string });
    const res = await next(session.id, {});
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toEqual({ code: 'CONFLICT', message: messages.live.noQueuedLots });
    const empty = await show(0);
    expect((await next(empty.session.id, {})).json().error.message).toBe(messages.live.noQueuedLots);
  });

  it('opens an ended session only with reopen, like Establecer actual', async () => {
    const { session, lots } = await show(1, { status: 'ended' });
    const refused = await next(session.id, {});
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.code).toBe('SESSION_ENDED');
    expect((await auctionOf(lots[0] as { auctionId: string })).status).toBe('pending');
    const res = await next(session.id, { reopen: true });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as LiveSessionDetail).session.status).toBe('live');
  });

  it('a double click opens exactly one lot', async () => {
    const { session, lots } = await show(3);
    const answers = await Promise.all([next(session.id, {}), next(session.id, {})]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes, answers.map((a) => a.body).join('\n')).toEqual([200, 409]);
    const live = [];
    for (const lot of lots) if ((await auctionOf(lot)).status === 'live') live.push(lot.id);
    expect(live).toEqual([lots[0]?.id]);
    expect(await nextAudits(session.id)).toHaveLength(1);
  });

  it('refuses a session the user may not change, and a bad body', async () => {
    const { session } = await show(1);
    const other = await buildActor(server, { email: 'otro@siguiente.mx', name: 'Otro Vendedor', roles: ['seller'], companyId: 'otra-empresa' });
    const res = await injectAs(server, other, 'POST', `/api/live-sessions/${session.id}/next`, {});
    expect(res.statusCode).toBe(404);
    expect((await next(session.id, { reopen: 'sí' })).statusCode).toBe(400);
  });
});
