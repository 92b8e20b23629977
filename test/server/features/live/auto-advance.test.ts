import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../src/domain/live.js';
import { buildApp } from '../../../../src/server/app.js';
import type { AppContext } from '../../../../src/server/context.js';
import { rows } from '../../../../src/server/db/connect.js';
import { auctions, auditLog, liveLots, prebids } from '../../../../src/server/db/schema.js';
import { advanceDueSessions } from '../../../../src/server/features/live/show/auto-advance.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { createTestDatabase, type TestDatabase } from '../../../support/db.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { injectAs, testConfig } from '../../../support/server.js';

/**
 * 'Avance automático': N seconds after the current lot's auction closed, the next lot opens by
 * itself, through the path of 'Siguiente lote', audited as the system. The passes are run by hand
 * here (the app's own scheduler is off), and the lots' closes are set in the past, so nothing waits.
 */

const COMPANY = 'avance-automatico';
const N = 5;
let database: TestDatabase;
let app: FastifyInstance;
let ctx: AppContext;
let url: string;
let seller: Actor;

beforeAll(async () => {
  database = await createTestDatabase();
  url = 'http://127.0.0.1:9';
  const built = await buildApp({ config: testConfig({ PUBLIC_URL: url }), database, logger: false, jobs: [] });
  app = built.app;
  ctx = built.ctx;
  seller = await buildActor({ ctx }, { email: 'vende@avance.mx', name: 'Ana Avance', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await database?.destroy();
});

const server = () => ({ app, url });
const pass = () => advanceDueSessions(ctx.db, { present: ctx.bidding.present });

async function show(n: number, autoAdvanceSeconds: number | null = N) {
  const session = await buildSession(ctx.db, {
    sellerId: seller.id,
    companyId: COMPANY,
    status: 'live',
    biddingConfig: { minIncrement: 20, antiSnipeSeconds: 10, timerSecondsDefault: 60, autoAdvanceSeconds },
  });
  const lots = [];
  for (let i = 0; i < n; i++) {
    const auction = await buildAuction(ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'pending', name: `Lote ${i + 1}` });
    lots.push(await buildLot(ctx.db, { sessionId: session.id, auctionId: auction.id }));
  }
  const opened = await injectAs(server(), seller, 'POST', `/api/live-sessions/${session.id}/next`, {});
  expect(opened.statusCode, opened.body).toBe(200);
  return { session, lots: lots as [(typeof lots)[number], ...(typeof lots)[number][]] };
}

/** The lot's auction closed unsold `agoMs` ago by the database's clock, as the scheduler leaves it. */
async function closeUnsold(lot: { id: string; auctionId: string }, agoMs: number): Promise<number> {
  const [row] = rows<{ at: string | number }>(
    await ctx.db.execute(sql`update auctions set status = 'ended', end_time = clock_timestamp() - make_interval(secs => ${agoMs / 1000 + 1}),
                             closed_at = clock_timestamp() - make_interval(secs => ${agoMs / 1000})
                             where id = ${lot.auctionId}::uuid returning (extract(epoch from closed_at) * 1000)::bigint as at`),
  );
  await ctx.db.update(liveLots).set({ status: 'finished' }).where(eq(liveLots.id, lot.id));
  return Number(row?.at);
}

async function detail(sessionId: string): Promise<LiveSessionDetail> {
  return (await injectAs(server(), seller, 'GET', `/api/live-sessions/${sessionId}`)).json() as LiveSessionDetail;
}

async function liveLotsOf(lots: { id: string; auctionId: string }[]): Promise<string[]> {
  const live: string[] = [];
  for (const lot of lots) {
    const [a] = await ctx.db.select({ status: auctions.status }).from(auctions).where(eq(auctions.id, lot.auctionId));
    if (a?.status === 'live') live.push(lot.id);
  }
  return live;
}

describe('Avance automático', () => {
  it('counts down from the close (autoAdvanceAt), then opens the next lot for the default timer, as the system', async () => {
    const { session, lots } = await show(3);
    const [first, second] = lots as [(typeof lots)[0], (typeof lots)[0]];
    const closedAt = await closeUnsold(first, 0);
    const counting = await detail(session.id);
    expect(counting.session.autoAdvanceAt).toBe(closedAt + N * 1000);
    // Not due yet: nothing opens, and the scheduler knows how long to sleep.
    const early = await pass();
    expect(early.opened).toEqual([]);
    expect(early.nextInMs).toBeGreaterThan(0);
    await closeUnsold(first, (N + 1) * 1000);
    const done = await pass();
    expect(done.opened).toEqual([second.id]);
    expect(done.events.map((e) => e.type)).toContain('lotTimerSet');
    const after = await detail(session.id);
    expect(after.session.currentLotId).toBe(second.id);
    expect(after.session.autoAdvanceAt).toBeNull();
    expect(await liveLotsOf(lots)).toEqual([second.id]);
    const audits = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'live_session.next'), eq(auditLog.entityId, session.id)));
    expect(audits.map((a) => [a.actorId, (a.after as { auto: boolean }).auto])).toEqual([
      [seller.id, false],
      [null, true],
    ]);
  });

  it('two schedulers racing open exactly one lot', async () => {
    const { session, lots } = await show(3);
    await closeUnsold(lots[0], (N + 1) * 1000);
    const [a, b] = await Promise.all([pass(), pass()]);
    expect([...a.opened, ...b.opened]).toEqual([lots[1]?.id]);
    expect(await liveLotsOf(lots)).toEqual([lots[1]?.id]);
    const audits = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'live_session.next'), eq(auditLog.entityId, session.id)));
    expect(audits).toHaveLength(2);
  });

  it('Pausar stops it and Reanudar lets it go on', async () => {
    const { session, lots } = await show(2);
    await closeUnsold(lots[0], (N + 1) * 1000);
    const paused = await injectAs(server(), seller, 'PUT', `/api/live-sessions/${session.id}`, { autoAdvancePaused: true });
    expect(paused.statusCode, paused.body).toBe(200);
    expect((paused.json() as LiveSessionDetail).session).toMatchObject({ autoAdvancePaused: true, autoAdvanceAt: null });
    expect((await pass()).opened).toEqual([]);
    expect(await liveLotsOf(lots)).toEqual([]);
    const resumed = await injectAs(server(), seller, 'PUT', `/api/live-sessions/${session.id}`, { autoAdvancePaused: false });
    expect((resumed.json() as LiveSessionDetail).session.autoAdvanceAt).not.toBeNull();
    expect((await pass()).opened).toEqual([lots[1]?.id]);
  });

  it('a lot with pre-bids still opens', async () => {
    const { lots } = await show(2);
    const bidder = await buildActor({ ctx }, { email: 'anticipa@avance.mx', name: 'Paco Previo', roles: ['buyer'], completeProfile: true });
    await ctx.db.insert(prebids).values({ auctionId: lots[1]?.auctionId as string, bidderId: bidder.id, maxAmount: 800 });
    await closeUnsold(lots[0], (N + 1) * 1000);
    expect((await pass()).opened).toEqual([lots[1]?.id]);
    expect(await liveLotsOf(lots)).toEqual([lots[1]?.id]);
  });

  it('does nothing after the last lot, nor on a session without it', async () => {
    const last = await show(1);
    await closeUnsold(last.lots[0], (N + 1) * 1000);
    expect((await detail(last.session.id)).session.autoAdvanceAt).toBeNull();
    const off = await show(2, null);
    await closeUnsold(off.lots[0], (N + 1) * 1000);
    expect((await detail(off.session.id)).session.autoAdvanceAt).toBeNull();
    const done = await pass();
    expect(done.opened).toEqual([]);
    expect(await liveLotsOf([...last.lots, ...off.lots])).toEqual([]);
  });
});
