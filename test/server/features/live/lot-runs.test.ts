import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auctions, liveLotRuns, liveLots } from '../../../../src/server/db/schema.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * The show's record of when each lot was on the block (live_lot_runs), which the summary's viewers
 * chart draws as bands: a lot opened by 'Siguiente lote' or the timer starts a run; more time on the
 * running lot does not; the next opening ends the run before it; a lot put back in line and opened
 * again gets a second run.
 */

const COMPANY = 'corridas-de-lote';
let server: TestServer;
let seller: Actor;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@corridas.mx', name: 'Rita Corridas', roles: ['seller'], companyId: COMPANY });
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
  return { session, lots };
}

const runsOf = (sessionId: string) =>
  server.ctx.db.select().from(liveLotRuns).where(eq(liveLotRuns.sessionId, sessionId)).orderBy(asc(liveLotRuns.openedAt), asc(liveLotRuns.id));

/** The lot's auction closed unsold a moment ago, as the closing scheduler leaves it. */
async function closeUnsold(lot: { id: string; auctionId: string }, endedMsAgo = 2_000) {
  await server.ctx.db
    .update(auctions)
    .set({ status: 'ended', endTime: new Date(Date.now() - endedMsAgo), closedAt: new Date(Date.now() - endedMsAgo + 500) })
    .where(eq(auctions.id, lot.auctionId));
  await server.ctx.db.update(liveLots).set({ status: 'finished' }).where(eq(liveLots.id, lot.id));
}

describe('the record of each lot on the block', () => {
  it('starts a run when a lot opens, and more time on the running lot starts none', async () => {
    const { session, lots } = await show(2);
    expect((await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/next`)).statusCode).toBe(200);
    expect((await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 30 })).statusCode).toBe(200);
    const runs = await runsOf(session.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ lotId: lots[0]?.id, auctionId: lots[0]?.auctionId, closedAt: null });
  });

  it('ends a run at its auction’s end when the next lot opens after it closed', async () => {
    const { session, lots } = await show(2);
    const [first, second] = lots as [(typeof lots)[0], (typeof lots)[0]];
    await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/next`);
    await closeUnsold(first);
    const [ended] = await server.ctx.db.select({ endTime: auctions.endTime }).from(auctions).where(eq(auctions.id, first.auctionId));
    expect((await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/next`)).statusCode).toBe(200);
    const runs = await runsOf(session.id);
    expect(runs.map((r) => r.lotId)).toEqual([first.id, second.id]);
    expect(runs[0]?.closedAt?.getTime()).toBe(ended?.endTime?.getTime());
    expect(runs[1]?.closedAt).toBeNull();
  });

  it('ends a running lot’s run when the seller opens another lot before its clock ran out', async () => {
    const { session, lots } = await show(2);
    const [first, second] = lots as [(typeof lots)[0], (typeof lots)[0]];
    await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: first.id });
    await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 60 });
    await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: second.id });
    const res = await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 60 });
    expect(res.statusCode).toBe(200);
    const runs = await runsOf(session.id);
    expect(runs.map((r) => r.lotId)).toEqual([first.id, second.id]);
    expect(runs[0]?.closedAt).not.toBeNull();
    expect(runs[0]?.closedAt?.getTime()).toBeLessThanOrEqual(runs[1]?.openedAt.getTime() ?? 0);
  });

  it('gives a lot put back in line a second run when it opens again', async () => {
    const { session, lots } = await show(1);
    const [only] = lots as [(typeof lots)[0]];
    await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/next`);
    await closeUnsold(only);
    expect((await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/lots/${only.id}/requeue`)).statusCode).toBe(200);
    await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: only.id });
    expect((await injectAs(server, seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 30 })).statusCode).toBe(200);
    const runs = await runsOf(session.id);
    expect(runs).toHaveLength(2);
    expect(runs.every((r) => r.lotId === only.id)).toBe(true);
    expect(runs[0]?.closedAt).not.toBeNull();
    expect(runs[1]?.closedAt).toBeNull();
  });
});
