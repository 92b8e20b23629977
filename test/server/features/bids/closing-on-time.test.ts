import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BidAnswer, maskName } from '../../../../src/domain/bidding.js';
import type { AuctionStateEvent } from '../../../../src/domain/realtime.js';
import { buildApp } from '../../../../src/server/app.js';
import type { AppContext } from '../../../../src/server/context.js';
import { connectDatabase, type Database, type Db } from '../../../../src/server/db/connect.js';
import type { EngineState } from '../../../../src/server/db/engine-rows.js';
import { auctions, auditLog, bids, liveLots } from '../../../../src/server/db/schema.js';
import { type Actor, type Bidder, buildBidder, signInAs } from '../../../support/actors.js';
import { closeAudits, createEmptyPostgresDatabase, createTestDatabase, engine } from '../../../support/db.js';
import { buildAuction, buildSession, buildUser } from '../../../support/factories.js';
import { placeBid, startTestServer, type TestServer, testConfig } from '../../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../../support/sockets.js';
import { eventually, sleep } from '../../../support/wait.js';

/**
 * Closing on the server: the scheduler closes each auction at its end time, after a
 * restart too, and exactly once when several instances share one PostgreSQL; the close sets the
 * winner from the leader (or, for older data, from the highest bid) and is broadcast. A bid that
 * arrives after the end is refused and never extends it.
 */

async function placed(app: FastifyInstance, bidder: Bidder, auctionId: string, payload: { amount: number; maxAmount?: number }): Promise<BidAnswer> {
  const res = await placeBid({ app }, bidder, auctionId, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function auctionRow(db: Db, auctionId: string) {
  const [row] = await db.select().from(auctions).where(eq(auctions.id, auctionId));
  if (!row) throw new Error('no auction');
  return row;
}

describe('with the scheduler running', () => {
  let server: TestServer;
  let seller: Actor;
  const COMPANY = 'remates-cierre';
  const open: Socket[] = [];

  beforeAll(async () => {
    server = await startTestServer({ jobs: ['closing'] });
    seller = await signInAs(server, { email: 'vendedor-cierre@ejemplo.mx', roles: ['seller'], companyId: COMPANY });
  }, 60_000);
  afterEach(() => {
    for (const s of open.splice(0)) s.disconnect();
  });
  afterAll(async () => server?.close());

  function socket(cookie?: string): Socket {
    const s = connectSocket(server.url, cookie ? { cookie } : {});
    open.push(s);
    return s;
  }

  const activeAuction = (over: Partial<typeof auctions.$inferInsert> = {}) =>
    buildAuction(server.ctx.db, {
      status: 'active',
      endTime: new Date(Date.now() + 3_600_000),
      startingPrice: 500,
      companyId: COMPANY,
      sellerId: seller.id,
      ...over,
    });

  it('closes an auction at its end time with the leader as winner, and broadcasts the close', async () => {
    const auction = await activeAuction();
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];
    const first = await placed(server.app, ana, auction.id, { amount: 500, maxAmount: 800 });
    const second = await placed(server.app, beto, auction.id, { amount: 600 });
    expect(second.outcome).toBe('outbid');

    const viewer = socket();
    const panel = socket(seller.cookie);
    await Promise.all([connected(viewer), connected(panel)]);
    // The join answers with the version read after joining: the page compares it with what it holds.
    expect(await viewer.emitWithAck('joinAuction', { auctionId: auction.id })).toEqual({ ok: true, version: second.state.version });
    const publicClose = eventMatching<AuctionStateEvent>(viewer, 'auctionState', (e) => e.state.id === auction.id && e.state.status === 'ended');
    // The panel may still get the bids' own update (panels hear at most one a second); the close comes after it.
    const panelClose = eventMatching<{ id: string; version: number }>(panel, 'auctionUpdate', (e) => e.id === auction.id && e.version > second.state.version);

    // The bids are in; now the auction is about to end (moved here, so no bid falls in the anti-snipe window).
    const endsAt = Date.now() + 1_500;
    await server.ctx.db
      .update(auctions)
      .set({ endTime: new Date(endsAt) })
      .where(eq(auctions.id, auction.id));
    await eventually(async () => (await auctionRow(server.ctx.db, auction.id)).closedAt !== null);

    const row = await auctionRow(server.ctx.db, auction.id);
    expect(row).toMatchObject({
      status: 'ended',
      currentPrice: 620,
      currentWinnerId: ana.id,
      currentWinnerName: ana.name,
      winnerEmail: ana.email,
      winnerWhatsapp: ana.whatsapp,
    });
    // Closed after its end, never before (how soon after is the scheduler's business, not a test's).
    expect(row.closedAt?.getTime() ?? 0).toBeGreaterThanOrEqual(endsAt);
    expect(await closeAudits(server.ctx.db, auction.id)).toBe(1);

    const event = await publicClose;
    expect(event.state).toMatchObject({
      status: 'ended',
      currentPrice: 620,
      winnerTag: first.me.tag,
      winnerName: maskName(ana.name),
      leaderTag: first.me.tag,
      version: row.version,
    });
    expect(event.bids).toEqual([]);
    expect(JSON.stringify(event)).not.toContain(ana.email);
    expect(await panelClose).toEqual({ id: auction.id, companyId: COMPANY, version: row.version });

    // The public history shows the close too.
    const history = await server.app.inject({ method: 'GET', url: `/api/auctions/${auction.id}/bids` });
    expect(history.json().state).toMatchObject({ status: 'ended', winnerTag: first.me.tag });
  });

  it('ends an auction without bids without a winner', async () => {
    const auction = await activeAuction();
    const viewer = socket();
    await connected(viewer);
    expect(await viewer.emitWithAck('joinAuction', { auctionId: auction.id })).toMatchObject({ ok: true });
    const publicClose = eventMatching<AuctionStateEvent>(viewer, 'auctionState', (e) => e.state.id === auction.id && e.state.status === 'ended');
    await server.ctx.db
      .update(auctions)
      .set({ endTime: new Date(Date.now() + 1_000) })
      .where(eq(auctions.id, auction.id));
    await eventually(async () => (await auctionRow(server.ctx.db, auction.id)).closedAt !== null);
    expect(await auctionRow(server.ctx.db, auction.id)).toMatchObject({
      status: 'ended',
      currentPrice: null,
      bidCount: 0,
      currentWinnerId: null,
      currentWinnerName: null,
      winnerEmail: null,
      winnerWhatsapp: null,
    });
    expect((await publicClose).state).toMatchObject({ status: 'ended', currentPrice: null, winnerTag: null, winnerName: null, leaderTag: null });
    expect(await closeAudits(server.ctx.db, auction.id)).toBe(1);
  });

  it('infers the winner of an ended auction without one from its highest bid', async () => {
    const [xime, yola] = [await buildBidder(server), await buildBidder(server)];
    // Older data: marked ended, never closed, no leader, no winner; the last line is not the highest.
    const auction = await activeAuction({
      status: 'ended',
      endTime: new Date(Date.now() - 86_400_000),
      currentPrice: 800,
      bidCount: 3,
      leaderId: null,
      leaderMax: null,
      currentWinnerId: null,
      closedAt: null,
    });
    await server.ctx.db.insert(bids).values([
      { auctionId: auction.id, bidderId: xime.id, bidderName: 'Xime', seq: 1, amount: 600 },
      { auctionId: auction.id, bidderId: yola.id, bidderName: 'Yola', seq: 2, amount: 800 },
      { auctionId: auction.id, bidderId: xime.id, bidderName: 'Xime', seq: 3, amount: 700 },
    ]);
    await eventually(async () => (await auctionRow(server.ctx.db, auction.id)).closedAt !== null);
    expect(await auctionRow(server.ctx.db, auction.id)).toMatchObject({
      status: 'ended',
      currentWinnerId: yola.id,
      currentWinnerName: yola.name,
      winnerEmail: yola.email,
      winnerWhatsapp: yola.whatsapp,
    });
    expect(await closeAudits(server.ctx.db, auction.id)).toBe(1);
  });

  /**
   * Bids sent one after another from just before the end to just after it: those the engine
   * decides before the end are accepted, every one after it is refused with AUCTION_CLOSED, and
   * the end time never moves.
   */
  async function raceTheEnd(auctionId: string, bidders: Bidder[], endsAt: number) {
    const results: {
      sentAt: number;
      status: number;
      body: { outcome?: string; state?: { endTime: number; nextMinimum: number }; error?: { code: string; state?: { endTime: number } } };
    }[] = [];
    let nextMinimum = (await server.app.inject({ method: 'GET', url: `/api/auctions/${auctionId}/bids` })).json().state.nextMinimum as number;
    let turn = 0;
    while (Date.now() < endsAt + 400) {
      const bidder = bidders[turn++ % bidders.length] as Bidder;
      const sentAt = Date.now();
      const res = await placeBid(server, bidder, auctionId, { amount: nextMinimum });
      const body = res.json();
      results.push({ sentAt, status: res.statusCode, body });
      nextMinimum = body.state?.nextMinimum ?? body.error?.state?.nextMinimum ?? nextMinimum;
      await sleep(15);
    }
    const firstRefusal = results.findIndex((r) => r.status !== 201);
    const summary = JSON.stringify(results.map((r) => [r.sentAt - endsAt, r.status]));
    expect(firstRefusal, `some bids are accepted before the end: ${summary}`).toBeGreaterThan(0);
    for (const r of results.slice(0, firstRefusal)) {
      expect(r.sentAt).toBeLessThan(endsAt);
      expect(r.body.state?.endTime).toBe(endsAt);
    }
    const refused = results.slice(firstRefusal);
    expect(refused.length, `some bids arrive after the end: ${summary}`).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.error?.code).toBe('AUCTION_CLOSED');
      expect(r.body.error?.state?.endTime).toBe(endsAt);
    }
    const lines = await server.ctx.db.select({ createdAt: bids.createdAt }).from(bids).where(eq(bids.auctionId, auctionId));
    for (const l of lines) expect(l.createdAt.getTime()).toBeLessThan(endsAt);
    expect((await auctionRow(server.ctx.db, auctionId)).endTime?.getTime()).toBe(endsAt);
    return results;
  }

  it('refuses bids after the end and never extends it, when the bids do not take the lead', async () => {
    const auction = await activeAuction();
    const leader = await buildBidder(server);
    const challengers = await Promise.all(Array.from({ length: 6 }, () => buildBidder(server)));
    const lead = await placed(server.app, leader, auction.id, { amount: 500, maxAmount: 1_000_000 });
    const endsAt = Date.now() + 1_500;
    await server.ctx.db
      .update(auctions)
      .set({ endTime: new Date(endsAt) })
      .where(eq(auctions.id, auction.id));

    const results = await raceTheEnd(auction.id, challengers, endsAt);
    for (const r of results.filter((x) => x.status === 201)) expect(r.body.outcome).toBe('outbid');

    // A bid that would take the lead, after the end: refused, and the end stays.
    const late = await placeBid(server, challengers[0] as Bidder, auction.id, { amount: 2_000_000 });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('AUCTION_CLOSED');
    await eventually(async () => (await auctionRow(server.ctx.db, auction.id)).closedAt !== null);
    const row = await auctionRow(server.ctx.db, auction.id);
    expect(row).toMatchObject({ status: 'ended', currentWinnerId: leader.id });
    expect(row.endTime?.getTime()).toBe(endsAt);
    const history = await server.app.inject({ method: 'GET', url: `/api/auctions/${auction.id}/bids` });
    expect(history.json().state.winnerTag).toBe(lead.me.tag);
  });

  it('refuses bids after the end and never extends it, when the bids take the lead (no anti-snipe window)', async () => {
    const session = await buildSession(server.ctx.db, {
      sellerId: seller.id,
      companyId: COMPANY,
      biddingConfig: { minIncrement: 10, antiSnipeSeconds: 0, timerSecondsDefault: 60 },
    });
    const auction = await activeAuction();
    await server.ctx.db.insert(liveLots).values({ sessionId: session.id, auctionId: auction.id, order: 1 });
    const challengers = await Promise.all(Array.from({ length: 6 }, () => buildBidder(server)));
    const endsAt = Date.now() + 1_500;
    await server.ctx.db
      .update(auctions)
      .set({ endTime: new Date(endsAt) })
      .where(eq(auctions.id, auction.id));

    const results = await raceTheEnd(auction.id, challengers, endsAt);
    for (const r of results.filter((x) => x.status === 201)) expect(r.body.outcome).toBe('leading');
    await eventually(async () => (await auctionRow(server.ctx.db, auction.id)).closedAt !== null);
    const row = await auctionRow(server.ctx.db, auction.id);
    const lastLeader = challengers[(results.filter((x) => x.status === 201).length - 1) % challengers.length] as Bidder;
    expect(row).toMatchObject({ status: 'ended', currentWinnerId: lastLeader.id });
    expect(row.endTime?.getTime()).toBe(endsAt);
  });

  it('moves the end only for a bid that takes the lead inside the anti-snipe window', async () => {
    const auction = await activeAuction();
    const [ana, beto, caro] = [await buildBidder(server), await buildBidder(server), await buildBidder(server)];
    // Outside the window, taking the lead leaves the end alone.
    const farEnd = Date.now() + 60_000;
    await server.ctx.db
      .update(auctions)
      .set({ endTime: new Date(farEnd) })
      .where(eq(auctions.id, auction.id));
    expect((await placed(server.app, ana, auction.id, { amount: 500, maxAmount: 2_000 })).state.endTime).toBe(farEnd);

    const endsAt = Date.now() + 5_000;
    await server.ctx.db
      .update(auctions)
      .set({ endTime: new Date(endsAt) })
      .where(eq(auctions.id, auction.id));
    // Answered at once by the leader's maximum: the lead did not change hands, the end stays.
    const answered = await placed(server.app, beto, auction.id, { amount: 600 });
    expect(answered).toMatchObject({ outcome: 'outbid', state: { endTime: endsAt } });
    // The leader raising their maximum changes nothing public either.
    expect(await placed(server.app, ana, auction.id, { amount: 700, maxAmount: 2_500 })).toMatchObject({ outcome: 'maxRaised', state: { endTime: endsAt } });
    expect((await auctionRow(server.ctx.db, auction.id)).endTime?.getTime()).toBe(endsAt);

    // Taking the lead inside the window: the end becomes now plus the window (10 s by default).
    const sentAt = Date.now();
    const lead = await placed(server.app, caro, auction.id, { amount: 2_600 });
    const answeredAt = Date.now();
    expect(lead.outcome).toBe('leading');
    expect(lead.state.antiSnipeSeconds).toBe(10);
    // Order, not a tolerance: the database (this machine's clock) stamped it between the two instants.
    expect(lead.state.endTime).toBeGreaterThanOrEqual(sentAt + 10_000);
    expect(lead.state.endTime).toBeLessThanOrEqual(answeredAt + 10_000);
    // The engine keeps end times to the millisecond, so the row and the state agree exactly.
    expect((await auctionRow(server.ctx.db, auction.id)).endTime?.getTime()).toBe(lead.state.endTime);
  });

  it('refuses a bid on an auction whose end passed before the scheduler closed it', async () => {
    const auction = await activeAuction();
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];
    await placed(server.app, ana, auction.id, { amount: 500 });
    const endedAt = new Date(Date.now() - 1);
    await server.ctx.db.update(auctions).set({ endTime: endedAt }).where(eq(auctions.id, auction.id));
    const res = await placeBid(server, beto, auction.id, { amount: 10_000 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'AUCTION_CLOSED', state: { status: 'ended', endTime: endedAt.getTime(), currentPrice: 500 } });
    const row = await auctionRow(server.ctx.db, auction.id);
    expect(row).toMatchObject({ currentPrice: 500, bidCount: 1, leaderId: ana.id });
    expect(row.endTime?.getTime()).toBe(endedAt.getTime());
  });
});

describe('after a restart', () => {
  it('closes the auctions that fell due while no scheduler ran', async () => {
    const database = await createTestDatabase();
    const config = testConfig();
    let app: FastifyInstance | null = null;
    try {
      // The first instance takes bids but closes nothing.
      const first = await buildApp({ config, database, logger: false, jobs: [] });
      app = first.app;
      const db = first.ctx.db;
      const sellerRow = await buildUser(db, { email: 'vendedor-reinicio@ejemplo.mx', roles: ['seller'], companyId: 'remates-reinicio' });
      const make = (over: Partial<typeof auctions.$inferInsert> = {}) =>
        buildAuction(db, {
          status: 'active',
          endTime: new Date(Date.now() + 3_600_000),
          startingPrice: 300,
          companyId: 'remates-reinicio',
          sellerId: sellerRow.id,
          ...over,
        });
      const [ana, beto] = [await buildBidder(first), await buildBidder(first)];
      const withBids = await make();
      const withoutBids = await make();
      const notDue = await make();
      await placed(first.app, ana, withBids.id, { amount: 300 });
      await placed(first.app, beto, withBids.id, { amount: 350, maxAmount: 500 });
      await placed(first.app, ana, withBids.id, { amount: 400, maxAmount: 600 });
      await placed(first.app, ana, notDue.id, { amount: 300 });
      const legacy = await make({ status: 'ended', endTime: new Date(Date.now() - 3_600_000), currentPrice: 450, bidCount: 3 });
      await db.insert(bids).values([
        { auctionId: legacy.id, bidderId: beto.id, bidderName: 'Beto', seq: 1, amount: 300 },
        { auctionId: legacy.id, bidderId: ana.id, bidderName: 'Ana', seq: 2, amount: 450 },
        { auctionId: legacy.id, bidderId: beto.id, bidderName: 'Beto', seq: 3, amount: 420 },
      ]);
      // Overdue now.
      await db
        .update(auctions)
        .set({ endTime: new Date(Date.now() - 5_000) })
        .where(inArray(auctions.id, [withBids.id, withoutBids.id]));
      // Still open when the first instance stops, so the closing below is the next instance's.
      for (const id of [withBids.id, withoutBids.id, legacy.id]) expect((await auctionRow(db, id)).closedAt).toBeNull();
      await first.app.close();
      app = null;

      // The next instance, on the same database, closes them on start.
      const second = await buildApp({ config, database, logger: false, jobs: ['closing'] });
      app = second.app;
      const due = [withBids.id, withoutBids.id, legacy.id];
      await eventually(async () => {
        const closed = await db
          .select({ id: auctions.id })
          .from(auctions)
          .where(and(inArray(auctions.id, due), isNotNull(auctions.closedAt)));
        return closed.length === due.length;
      });
      expect(await auctionRow(db, withBids.id)).toMatchObject({
        status: 'ended',
        currentPrice: 520,
        currentWinnerId: ana.id,
        currentWinnerName: ana.name,
        winnerEmail: ana.email,
        winnerWhatsapp: ana.whatsapp,
      });
      expect(await auctionRow(db, withoutBids.id)).toMatchObject({ status: 'ended', currentWinnerId: null, winnerEmail: null });
      // Older data: the highest bid wins, not the last line.
      expect(await auctionRow(db, legacy.id)).toMatchObject({ status: 'ended', currentWinnerId: ana.id, winnerEmail: ana.email });
      for (const id of due) expect(await closeAudits(db, id)).toBe(1);
      expect(await auctionRow(db, notDue.id)).toMatchObject({ status: 'active', closedAt: null, currentWinnerId: null });
    } finally {
      await app?.close();
      await database.destroy();
    }
  }, 30_000);
});

describe.skipIf(engine !== 'postgresql')('two instances on one PostgreSQL', () => {
  it('close each auction exactly once', async () => {
    const target = await createEmptyPostgresDatabase();
    if (!target) throw new Error('no PostgreSQL');
    const databases: Database[] = [];
    const apps: { app: FastifyInstance; ctx: AppContext }[] = [];
    try {
      const config = testConfig();
      // Two instances, each with its own pool, both running the closing scheduler.
      for (let i = 0; i < 2; i++) {
        const database = await connectDatabase({ kind: 'postgresql', url: target.url }, { poolSize: 5 });
        databases.push(database);
        apps.push(await buildApp({ config, database, logger: false, jobs: ['closing'] }));
      }
      const closedBy = apps.map(({ ctx }) => {
        const seen: string[] = [];
        const broadcast = ctx.bidding.broadcaster.closed;
        ctx.bidding.broadcaster.closed = (state: EngineState) => {
          seen.push(state.id);
          broadcast(state);
        };
        return seen;
      });
      const ctx = (apps[0] as (typeof apps)[0]).ctx;
      const db = ctx.db;

      const sellerRow = await buildUser(db, { email: 'vendedor-dos@ejemplo.mx', roles: ['seller'], companyId: 'remates-dos' });
      const bidders = await Promise.all(Array.from({ length: 6 }, () => buildBidder({ ctx })));
      const COUNT = 200;
      const created = await db
        .insert(auctions)
        .values(
          Array.from({ length: COUNT }, (_, i) => ({
            name: `Lote ${i + 1}`,
            description: 'Cierre con dos instancias',
            startingPrice: 100,
            companyId: 'remates-dos',
            sellerId: sellerRow.id,
            status: 'active' as const,
            endTime: new Date(Date.now() + 3_600_000),
          })),
        )
        .returning({ id: auctions.id });
      const ids = created.map((a) => a.id);
      // Most get one to three bids from different bidders, straight through the engine; every tenth none.
      for (const [i, id] of ids.entries()) {
        if (i % 10 === 0) continue;
        for (let k = 0; k <= i % 3; k++) {
          const bidder = bidders[(i + k) % bidders.length] as Bidder;
          const amount = 100 + 50 * k;
          const max = k === 1 && i % 4 === 1 ? amount + 500 : null;
          await db.execute(sql`select place_bid(${id}::uuid, ${bidder.id}::uuid, ${amount}::integer, ${max}::integer, null)`);
        }
      }
      const before = await db
        .select({ id: auctions.id, leaderId: auctions.leaderId, version: auctions.version, bidCount: auctions.bidCount })
        .from(auctions)
        .where(inArray(auctions.id, ids));
      expect(before.filter((a) => a.leaderId !== null)).toHaveLength(COUNT - COUNT / 10);

      // All of them end within the next two seconds, while both schedulers run.
      await db.execute(sql`update auctions set end_time = clock_timestamp() + random() * interval '2 seconds' where company_id = 'remates-dos'`);
      await eventually(async () => {
        const closed = await db
          .select({ id: auctions.id })
          .from(auctions)
          .where(and(inArray(auctions.id, ids), isNotNull(auctions.closedAt)));
        return closed.length === COUNT;
      });

      // Exactly once: one audit line each, one version bump each, one broadcast each, by one instance.
      const audits = await db
        .select({ entityId: auditLog.entityId, n: sql<number>`count(*)::integer` })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'auction.closed'), inArray(auditLog.entityId, ids)))
        .groupBy(auditLog.entityId);
      expect(audits).toHaveLength(COUNT);
      for (const a of audits) expect(a.n, a.entityId).toBe(1);
      const [byFirst, bySecond] = closedBy as [string[], string[]];
      expect(byFirst.filter((id) => bySecond.includes(id))).toEqual([]);
      expect(new Set([...byFirst, ...bySecond]).size).toBe(COUNT);
      expect(byFirst.length + bySecond.length).toBe(COUNT);
      // Both instances took part: their passes raced for the same rows.
      expect(byFirst.length, 'closes by the first instance').toBeGreaterThan(0);
      expect(bySecond.length, 'closes by the second instance').toBeGreaterThan(0);

      const after = await db.select().from(auctions).where(inArray(auctions.id, ids));
      const profile = new Map(bidders.map((b) => [b.id, b]));
      for (const a of after) {
        const was = before.find((b) => b.id === a.id);
        expect(a.status).toBe('ended');
        expect(a.version, a.id).toBe((was?.version ?? 0) + 1);
        expect(a.currentWinnerId, a.id).toBe(was?.leaderId ?? null);
        expect(a.winnerEmail).toBe(a.currentWinnerId ? profile.get(a.currentWinnerId)?.email : null);
        expect(a.winnerWhatsapp).toBe(a.currentWinnerId ? profile.get(a.currentWinnerId)?.whatsapp : null);
        expect(a.closedAt?.getTime()).toBeGreaterThanOrEqual(a.endTime?.getTime() ?? Number.POSITIVE_INFINITY);
      }
    } finally {
      for (const { app } of apps) await app.close();
      for (const d of databases) await d.close();
      await target.drop();
    }
  }, 60_000);
});
