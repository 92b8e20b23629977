import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveDirectory, LiveSessionDetail } from '../../../../src/domain/live.js';
import type { UserListResponse } from '../../../../src/domain/users.js';
import { auctionCounts, auctions, bids, liveLots, rehearsalSnapshots, users } from '../../../../src/server/db/schema.js';
import { signInForDevelopment } from '../../../../src/server/features/auth/accounts.js';
import { closeDueAuctions } from '../../../../src/server/features/bids/scheduler.js';
import { createRehearsalDriver, simulatedViewers } from '../../../../src/server/features/rehearsal/rehearsal-driver.js';
import { messages } from '../../../../src/server/messages.js';
import { refreshAuctionSearchText } from '../../../../src/server/reads/search-text.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction } from '../../../support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';
import { eventually } from '../../../support/wait.js';

/**
 * 'Ensayo': a practice show on the seller's real auctions, with bidders and viewers the server
 * plays. It is listed nowhere, nothing in it can be billed or counted, and when it ends every
 * auction it touched is exactly as before.
 */

const COMPANY = 'ensayo-co';
let server: TestServer;
let seller: Actor;
let admin: Actor;

beforeAll(async () => {
  // The tests close auctions by hand; a scheduler running beside them could hold the row just then (SKIP LOCKED).
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@ensayo.mx', name: 'Elena Ensayo', roles: ['seller'], companyId: COMPANY });
  admin = await buildActor(server, { email: 'admin@ensayo.mx', name: 'Ada Admin', roles: ['admin'] });
}, 60_000);
afterAll(async () => server?.close());

const as = (actor: Actor, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Record<string, unknown>) =>
  injectAs(server, actor, method, path, body);

/** A driver that bids on every open lot at every tick, with no wait between bids. */
const eagerDriver = (random = () => 0.5) =>
  createRehearsalDriver({
    db: server.ctx.db,
    present: server.ctx.bidding.present,
    publish: (events) => server.ctx.publisher.publish(events),
    random,
    bidChance: 1,
    minGapMs: 0,
  });

async function createSession(rehearsal: boolean) {
  const made = await as(seller, 'POST', '/api/live-sessions', {
    title: rehearsal ? 'Ensayo del martes' : 'Subasta real',
    scheduledAt: Date.now() + 3_600_000,
    rehearsal,
  });
  expect(made.statusCode, made.body).toBe(201);
  return (made.json() as LiveSessionDetail).session;
}

/** A rehearsal with one lot per auction, the first on the block with its timer on. */
async function rehearsalShow(count = 2) {
  const session = await createSession(true);
  const items = [];
  for (let i = 0; i < count; i++) {
    const auction = await buildAuction(server.ctx.db, {
      name: `Reloj ${i + 1}`,
      companyId: COMPANY,
      sellerId: seller.id,
      startingPrice: 200,
      status: 'pending',
    });
    const added = await as(seller, 'POST', `/api/live-sessions/${session.id}/lots`, { auctionId: auction.id });
    expect(added.statusCode, added.body).toBe(201);
    const lot = (added.json() as LiveSessionDetail).lots.find((l) => l.auction.id === auction.id);
    if (!lot) throw new Error('lot not added');
    items.push({ auction, lotId: lot.id });
  }
  const first = items[0];
  if (!first) throw new Error('no lot');
  expect((await as(seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: first.lotId })).statusCode).toBe(200);
  expect((await as(seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 60 })).statusCode).toBe(200);
  return { session, items };
}

const auctionRow = async (id: string) => {
  const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, id));
  if (!row) throw new Error('auction gone');
  return row;
};
const countsRow = async () => {
  const [row] = await server.ctx.db.select().from(auctionCounts).where(eq(auctionCounts.companyId, COMPANY));
  return row ? { open: row.open, wonUnpaid: row.wonUnpaid, paid: row.paid } : null;
};
const bidsOn = (auctionId: string) => server.ctx.db.select().from(bids).where(eq(bids.auctionId, auctionId));

/**
 * The auction's time runs out and it is closed by hand. The server's own rehearsal driver may be
 * mid-bid on it just then, holding its row, which the close skips (SKIP LOCKED): it is closed again
 * until it is.
 */
async function runOut(auctionId: string) {
  await server.ctx.db
    .update(auctions)
    .set({ endTime: new Date(Date.now() - 1000) })
    .where(eq(auctions.id, auctionId));
  await eventually(
    async () => {
      await closeDueAuctions(server.ctx.db);
      return (await auctionRow(auctionId)).status === 'ended';
    },
    { timeoutMs: 10_000, what: 'the auction to close' },
  );
}

/** The first lot sells to a simulated bidder: the driver bids, then its time runs out. */
async function sellFirstLot(auctionId: string) {
  const driver = eagerDriver();
  for (let i = 0; i < 4; i++) await driver.tick();
  await runOut(auctionId);
  const sold = await auctionRow(auctionId);
  expect(sold.currentWinnerId).not.toBeNull();
  return sold;
}

describe('a rehearsal session', () => {
  it('is created with rehearsal: true and is not listed in /live, while a real show is', async () => {
    const rehearsal = await createSession(true);
    const real = await createSession(false);
    expect(rehearsal.rehearsal).toBe(true);
    expect(real.rehearsal).toBe(false);
    const listed = () => as(seller, 'GET', '/api/live-sessions/public').then((r) => r.json() as LiveDirectory);
    let directory = await listed();
    expect(directory.upcoming.map((s) => s.id)).toContain(real.id);
    expect(directory.upcoming.map((s) => s.id)).not.toContain(rehearsal.id);
    for (const id of [rehearsal.id, real.id]) expect((await as(seller, 'PUT', `/api/live-sessions/${id}`, { status: 'live' })).statusCode).toBe(200);
    directory = await listed();
    expect(directory.live.map((s) => s.id)).toContain(real.id);
    expect([...directory.live, ...directory.upcoming].map((s) => s.id)).not.toContain(rehearsal.id);
    // Its own page still answers anyone, rehearsal flag included.
    const page = await server.app.inject({ method: 'GET', url: `/api/live-sessions/${rehearsal.id}` });
    expect((page.json() as LiveSessionDetail).session.rehearsal).toBe(true);
  });

  it('has simulated bidders bid on its open lot through the engine, with maximums around the starting price', async () => {
    const { items } = await rehearsalShow(2);
    const [open, waiting] = items;
    if (!open || !waiting) throw new Error('no lots');
    const driver = eagerDriver();
    let placed = 0;
    for (let i = 0; i < 5; i++) placed += (await driver.tick()).bids;
    expect(placed).toBeGreaterThan(0);
    const lines = await bidsOn(open.auction.id);
    expect(lines.length).toBeGreaterThan(0);
    const bidderIds = [...new Set(lines.map((l) => l.bidderId))];
    const found = await server.ctx.db.select({ id: users.id, simulated: users.isSimulated }).from(users).where(sql`${users.id} in ${bidderIds}`);
    expect(found.every((u) => u.simulated)).toBe(true);
    for (const line of lines) {
      expect(line.amount).toBeGreaterThanOrEqual(200);
      expect(line.maxAmount ?? line.amount).toBeLessThanOrEqual(500);
    }
    // The engine kept the auction consistent: its count and price are its history's.
    const row = await auctionRow(open.auction.id);
    expect(row.bidCount).toBe(lines.length);
    expect(row.currentPrice).toBe(Math.max(...lines.map((l) => l.amount)));
    // The lot not on the block took nothing.
    expect(await bidsOn(waiting.auction.id)).toEqual([]);
  });

  it('shows simulated viewers in its count while it is live', async () => {
    const { session } = await rehearsalShow(1);
    const seen: (number | null)[] = [];
    const driver = createRehearsalDriver({
      db: server.ctx.db,
      present: server.ctx.bidding.present,
      publish: async () => {},
      viewers: { setSimulatedViewers: (id, n) => id === session.id && seen.push(n) },
      random: () => 0.99,
      bidChance: 0,
    });
    await driver.tick();
    expect(seen).toEqual([simulatedViewers(session.id)]);
    expect((await as(seller, 'PUT', `/api/live-sessions/${session.id}`, { status: 'ended' })).statusCode).toBe(200);
    await driver.tick();
    expect(seen).toEqual([simulatedViewers(session.id), null]);
  });

  it('bills nothing and shows nothing in the winners summary or the counts, while it runs and after', async () => {
    const before = await countsRow();
    const { session, items } = await rehearsalShow(1);
    const [lot] = items;
    if (!lot) throw new Error('no lot');
    const sold = await sellFirstLot(lot.auction.id);
    const summary = (await as(seller, 'GET', '/api/winners-summary')).json() as Record<string, { wonItems: { auctionId: string }[] }>;
    expect(Object.values(summary).flatMap((e) => e.wonItems.map((i) => i.auctionId))).not.toContain(lot.auction.id);
    const draft = await as(seller, 'POST', '/api/payments/draft', { winnerId: sold.currentWinnerId, auctionIds: [lot.auction.id] });
    expect(draft.statusCode).toBe(409);
    expect(draft.json()).toEqual({ error: { code: 'CONFLICT', message: messages.payments.rehearsal } });
    expect(await countsRow()).toEqual({ open: (before?.open ?? 0) + 1, wonUnpaid: before?.wonUnpaid ?? 0, paid: before?.paid ?? 0 });
    const listed = (await as(seller, 'GET', '/api/auctions?filter=pending')).json() as { counts: { pending: number }; items: { id: string }[] };
    expect(listed.items.map((i) => i.id)).not.toContain(lot.auction.id);
    expect((await as(seller, 'PUT', `/api/live-sessions/${session.id}`, { status: 'ended' })).statusCode).toBe(200);
    await eventually(async () => (await auctionRow(lot.auction.id)).currentWinnerId === null);
    const after = (await as(seller, 'GET', '/api/winners-summary')).json() as Record<string, { wonItems: { auctionId: string }[] }>;
    expect(Object.values(after).flatMap((e) => e.wonItems.map((i) => i.auctionId))).not.toContain(lot.auction.id);
    expect(await countsRow()).toEqual({ open: (before?.open ?? 0) + 1, wonUnpaid: before?.wonUnpaid ?? 0, paid: before?.paid ?? 0 });
  });

  it('puts every auction back exactly as it was when it ends, once', async () => {
    // One auction already running with a real bid, one waiting: both join the rehearsal.
    const buyer = await buildActor(server, { email: 'real@ensayo.mx', name: 'Rita Real', roles: ['buyer'], completeProfile: true });
    const session = await createSession(true);
    const running = await buildAuction(server.ctx.db, {
      name: 'Lámpara',
      companyId: COMPANY,
      sellerId: seller.id,
      startingPrice: 300,
      status: 'active',
      endTime: new Date(Date.now() + 600_000),
    });
    const bid = await as(buyer, 'POST', `/api/auctions/${running.id}/bids`, { amount: 300 });
    expect(bid.statusCode, bid.body).toBe(201);
    const waiting = await buildAuction(server.ctx.db, { name: 'Jarrón', companyId: COMPANY, sellerId: seller.id, startingPrice: 150, status: 'pending' });
    const lotIds: string[] = [];
    for (const auction of [running, waiting]) {
      const added = await as(seller, 'POST', `/api/live-sessions/${session.id}/lots`, { auctionId: auction.id });
      expect(added.statusCode, added.body).toBe(201);
      lotIds.push((added.json() as LiveSessionDetail).lots.find((l) => l.auction.id === auction.id)?.id ?? '');
    }
    // The factory leaves the search text empty; the service writes it as every write path does.
    await refreshAuctionSearchText(server.ctx.db, { auctionIds: [running.id, waiting.id] });
    const before = await Promise.all([auctionRow(running.id), auctionRow(waiting.id)]);
    const bidsBefore = await bidsOn(running.id);
    const countsBefore = await countsRow();
    // Both lots run and take simulated bids; the waiting one sells.
    for (const lotId of [...lotIds].reverse()) {
      expect((await as(seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId })).statusCode).toBe(200);
      expect((await as(seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 1200 })).statusCode).toBe(200);
      const driver = eagerDriver();
      for (let i = 0; i < 3; i++) await driver.tick();
    }
    await runOut(waiting.id);
    expect((await bidsOn(waiting.id)).length).toBeGreaterThan(0);

    expect((await as(seller, 'PUT', `/api/live-sessions/${session.id}`, { status: 'ended' })).statusCode).toBe(200);
    await eventually(async () => (await server.ctx.db.select().from(rehearsalSnapshots).where(eq(rehearsalSnapshots.sessionId, session.id))).length === 0);
    const after = await Promise.all([auctionRow(running.id), auctionRow(waiting.id)]);
    for (const [i, row] of after.entries()) {
      const was = before[i];
      if (!was) throw new Error('no row');
      const { version, updatedAt, searchText, searchVector, ...rest } = row;
      const { version: versionBefore, updatedAt: _u, searchText: textBefore, searchVector: _v, ...restBefore } = was;
      expect(rest).toEqual(restBefore);
      expect(searchText).toBe(textBefore);
      expect(version).toBeGreaterThan(versionBefore);
    }
    expect(await bidsOn(running.id)).toEqual(bidsBefore);
    expect(await bidsOn(waiting.id)).toEqual([]);
    const lots = await server.ctx.db.select().from(liveLots).where(eq(liveLots.sessionId, session.id));
    expect(lots.map((l) => l.status)).toEqual(['queued', 'queued']);
    expect(await countsRow()).toEqual(countsBefore);
    // A second restore (another instance's driver) finds nothing to do.
    const again = await eagerDriver().tick();
    expect(again.restored).toEqual([]);
    expect(await auctionRow(waiting.id)).toEqual(after[1]);
  });

  it('may be deleted with a sold lot, its auctions put back first', async () => {
    const { session, items } = await rehearsalShow(1);
    const [lot] = items;
    if (!lot) throw new Error('no lot');
    await sellFirstLot(lot.auction.id);
    const gone = await as(seller, 'DELETE', `/api/live-sessions/${session.id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    const row = await auctionRow(lot.auction.id);
    expect(row).toMatchObject({ status: 'pending', endTime: null, closedAt: null, currentPrice: null, bidCount: 0, currentWinnerId: null, leaderId: null });
    expect(await bidsOn(lot.auction.id)).toEqual([]);
  });

  it('lets a lot go with its auction put back', async () => {
    const { session, items } = await rehearsalShow(1);
    const [lot] = items;
    if (!lot) throw new Error('no lot');
    await sellFirstLot(lot.auction.id);
    const removed = await as(seller, 'DELETE', `/api/live-sessions/${session.id}/lots/${lot.lotId}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await auctionRow(lot.auction.id)).toMatchObject({ status: 'pending', bidCount: 0, currentWinnerId: null });
    expect(
      await server.ctx.db
        .select()
        .from(rehearsalSnapshots)
        .where(and(eq(rehearsalSnapshots.sessionId, session.id), eq(rehearsalSnapshots.auctionId, lot.auction.id))),
    ).toEqual([]);
  });

  it('keeps its simulated bidders out of the users list, its counts and sign-in', async () => {
    const simulated = await server.ctx.db.select({ email: users.email }).from(users).where(eq(users.isSimulated, true));
    expect(simulated.length).toBeGreaterThan(0);
    const list = (await as(admin, 'GET', '/api/users?pageSize=100')).json() as UserListResponse;
    const [{ real } = { real: 0 }] = await server.ctx.db.select({ real: sql<number>`count(*)::int` }).from(users).where(eq(users.isSimulated, false));
    expect(list.total).toBe(real);
    expect(list.items.map((u) => u.email)).not.toContain(simulated[0]?.email);
    await expect(signInForDevelopment(server.ctx.db, { email: simulated[0]?.email ?? '', name: 'Intruso' }, { adminEmails: [] })).rejects.toMatchObject({
      message: messages.users.simulatedSignIn,
    });
  });
});
