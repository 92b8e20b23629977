import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BidAnswer } from '../../../../src/domain/bidding.js';
import { auctions, auditLog, bids } from '../../../../src/server/db/schema.js';
import { closeDueAuctions } from '../../../../src/server/features/bids/scheduler.js';
import { type Bidder, buildBidder } from '../../../support/actors.js';
import { buildAuction, buildUser } from '../../../support/factories.js';
import { bidCaller, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * The bid engine is exact under contention. Every request below is in flight at the same
 * time; whatever order the database decides them in, nothing is lost, nothing is duplicated, and
 * the auction ends with one winner. Runs on PGlite and, in its own project, on PostgreSQL.
 */

let server: TestServer;
let sellerId: string;
const COMPANY = 'remates-concurrencia';

const bid = bidCaller(() => server);

/** A small seeded generator, so a failing run can be repeated with the seed it prints. */
function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

async function storedLines(auctionId: string) {
  return server.ctx.db
    .select({ seq: bids.seq, bidderId: bids.bidderId, amount: bids.amount, maxAmount: bids.maxAmount, isAutomatic: bids.isAutomatic, key: bids.idempotencyKey })
    .from(bids)
    .where(eq(bids.auctionId, auctionId))
    .orderBy(asc(bids.seq));
}

async function auctionRow(auctionId: string) {
  const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auctionId));
  if (!row) throw new Error('no auction');
  return row;
}

beforeAll(async () => {
  // The tests close auctions by hand; a scheduler running beside them could hold the row just then (SKIP LOCKED).
  server = await startTestServer({ listen: false });
  const seller = await buildUser(server.ctx.db, { email: 'vendedor-concurrencia@ejemplo.mx', roles: ['seller'], companyId: COMPANY });
  sellerId = seller.id;
}, 60_000);
afterAll(async () => server?.close());

describe('50 bidders placing 20 bids each, all at once', () => {
  it('loses nothing, duplicates nothing, ends consistent, and closes with one winner', async () => {
    const seed = Date.now() % 1_000_000;
    const random = prng(seed);
    const BIDDERS = 50;
    const EACH = 20;
    const startingPrice = 1_000;
    const increment = 20;
    const bidders = await Promise.all(Array.from({ length: BIDDERS }, () => buildBidder(server)));
    const auction = await buildAuction(server.ctx.db, {
      status: 'active',
      endTime: new Date(Date.now() + 3_600_000),
      startingPrice,
      companyId: COMPANY,
      sellerId,
    });
    const startVersion = auction.version;

    // Twenty rounds, each bidder bidding once per round, sent round after round with the bidders
    // shuffled within each round. The amounts climb along the sending order by two increments a
    // bid, with a random step of up to two increments either way, so neighbours race for the same
    // price; half the bidders bid whole increments, the rest odd amounts, and a third of those add
    // a maximum a few increments higher, which the engine then defends.
    const plan: { bidder: Bidder; payload: { amount: number; maxAmount?: number } }[] = [];
    for (let j = 0; j < EACH; j++) {
      const order = bidders.map((bidder, b) => ({ bidder, b, sortKey: random(1_000_000) })).sort((x, y) => x.sortKey - y.sortKey);
      for (const { bidder, b } of order) {
        const amount = startingPrice + increment * (2 * plan.length + random(5) - 2 + (plan.length === 0 ? 2 : 0)) + (b % 2 === 1 ? random(increment) : 0);
        const withMax = b % 2 === 1 && random(3) === 0;
        plan.push({ bidder, payload: withMax ? { amount, maxAmount: amount + increment * random(8) + random(increment) } : { amount } });
      }
    }

    const answers = await Promise.all(plan.map(async (p) => ({ ...p, res: await bid(p.bidder, auction.id, p.payload) })));
    const context = `seed ${seed}`;

    // Every refusal is a lost race: 409 BID_TOO_LOW, with a minimum the amount did not reach.
    const refused = answers.filter((a) => a.res.statusCode !== 201);
    for (const r of refused) {
      expect(r.res.statusCode, `${context}: ${r.res.body}`).toBe(409);
      const error = r.res.json().error;
      expect(error.code, context).toBe('BID_TOO_LOW');
      expect(error.state.nextMinimum, context).toBeGreaterThan(r.payload.amount);
    }
    const accepted = answers.filter((a) => a.res.statusCode === 201).map((a) => ({ ...a, answer: a.res.json() as BidAnswer }));
    expect(accepted.length + refused.length).toBe(BIDDERS * EACH);
    expect(accepted.length, context).toBeGreaterThan(BIDDERS);
    for (const a of accepted) expect(['leading', 'outbid', 'maxRaised'], context).toContain(a.answer.outcome);

    const lines = await storedLines(auction.id);
    const row = await auctionRow(auction.id);
    const bySeq = new Map(lines.map((l) => [l.seq, l]));

    // Nothing duplicated: seq runs 1..bidCount without a gap or a repeat.
    expect(row.bidCount, context).toBe(lines.length);
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(new Set(lines.map((l) => l.seq)).size).toBe(lines.length);

    // Nothing lost: every line an answer announced is stored, as announced, under its bidder.
    for (const a of accepted) {
      for (const line of a.answer.bids) {
        const stored = bySeq.get(line.seq);
        expect(stored, `${context}: seq ${line.seq} of ${a.res.body}`).toBeDefined();
        expect({ bidderId: stored?.bidderId, amount: stored?.amount, isAutomatic: stored?.isAutomatic }).toEqual({
          bidderId: a.bidder.id,
          amount: line.amount,
          isAutomatic: line.isAutomatic,
        });
      }
    }
    // Each accepted bid that changed the price wrote exactly one line of its own (the others are
    // the engine's automatic answers), and a raised maximum wrote none.
    const placing = accepted.filter((a) => a.answer.outcome !== 'maxRaised');
    const typedLines = lines.filter((l) => !l.isAutomatic);
    expect(typedLines.length, context).toBe(placing.length);
    expect(new Set(placing.map((a) => a.answer.bids[0]?.seq))).toEqual(new Set(typedLines.map((l) => l.seq)));
    for (const a of accepted.filter((x) => x.answer.outcome === 'maxRaised')) expect(a.answer.bids).toEqual([]);

    // One at a time: each bid that changed the price saw its own version of the auction.
    const versions = placing.map((a) => a.answer.state.version).sort((x, y) => x - y);
    expect(versions).toEqual(placing.map((_, i) => startVersion + i + 1));
    expect(row.version).toBe(startVersion + placing.length);

    // The final state: the last line is the leader at the price; amounts never fall.
    for (let i = 1; i < lines.length; i++) expect(lines[i]?.amount, context).toBeGreaterThanOrEqual(lines[i - 1]?.amount as number);
    const last = lines[lines.length - 1];
    expect(row.currentPrice, context).toBe(last?.amount);
    expect(row.leaderId, context).toBe(last?.bidderId);
    // Every accepted amount was reached, and the highest maximum leads, held by one who asked for it.
    const maxOf = (p: { amount: number; maxAmount?: number }) => Math.max(p.amount, p.maxAmount ?? p.amount);
    expect(row.currentPrice as number).toBeGreaterThanOrEqual(Math.max(...accepted.map((a) => a.payload.amount)));
    const highestMax = Math.max(...accepted.map((a) => maxOf(a.payload)));
    expect(row.leaderMax, context).toBe(highestMax);
    expect(accepted.filter((a) => maxOf(a.payload) === highestMax).map((a) => a.bidder.id)).toContain(row.leaderId);
    expect(row.currentPrice as number).toBeLessThanOrEqual(highestMax);

    // The public history agrees with the row.
    const history = await server.app.inject({ method: 'GET', url: `/api/auctions/${auction.id}/bids?limit=1` });
    expect(history.json().total).toBe(lines.length);
    expect(history.json().items[0]).toMatchObject({ seq: lines.length, amount: row.currentPrice });
    expect(history.json().state.leaderTag).toBe(history.json().items[0].bidderTag);

    // The close: exactly one winner, the leader, with the profile's contact details.
    await server.ctx.db.execute(sql`update auctions set end_time = now() - interval '1 second' where id = ${auction.id}`);
    await closeDueAuctions(server.ctx.db);
    const closed = await auctionRow(auction.id);
    const winner = bidders.find((b) => b.id === row.leaderId) as Bidder;
    expect(closed).toMatchObject({
      status: 'ended',
      currentWinnerId: winner.id,
      winnerEmail: winner.email,
      winnerWhatsapp: winner.whatsapp,
      currentPrice: row.currentPrice,
      bidCount: lines.length,
    });
    expect(closed.currentWinnerName).toMatch(/^Postor\d+ Prueba$/);
    expect(closed.closedAt).not.toBeNull();
    // Closing again changes nothing.
    expect((await closeDueAuctions(server.ctx.db)).map((s) => s.id)).not.toContain(auction.id);
    const audits = await server.ctx.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auction.closed'), eq(auditLog.entityId, auction.id)));
    expect(audits).toHaveLength(1);
    expect(await auctionRow(auction.id)).toEqual(closed);
  }, 120_000);
});

describe('one Idempotency-Key sent several times at once', () => {
  it('makes one bid, and the other requests replay it', async () => {
    const [buyer, rival] = await Promise.all([buildBidder(server), buildBidder(server)]);
    if (!buyer || !rival) throw new Error('no bidders');
    const auction = await buildAuction(server.ctx.db, {
      status: 'active',
      endTime: new Date(Date.now() + 3_600_000),
      startingPrice: 700,
      companyId: COMPANY,
      sellerId,
    });
    const key = `clic-${randomUUID()}`;

    const answers = await Promise.all(Array.from({ length: 5 }, () => bid(buyer, auction.id, { amount: 750, maxAmount: 900 }, { 'idempotency-key': key })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    const bodies = answers.map((r) => r.json() as BidAnswer);
    expect(bodies.filter((b) => b.replayed)).toHaveLength(4);
    for (const b of bodies) {
      expect(b.outcome).toBe('leading');
      expect(b.bids).toHaveLength(1);
      expect(b.bids[0]).toMatchObject({ seq: 1, amount: 750, isAutomatic: false });
      expect(b.state).toMatchObject({ currentPrice: 750, bidCount: 1 });
    }
    let lines = await storedLines(auction.id);
    expect(lines).toEqual([{ seq: 1, bidderId: buyer.id, amount: 750, maxAmount: 900, isAutomatic: false, key }]);

    // The key is the bidder's own: another bidder sending the same key places their own bid.
    const rivalAnswers = await Promise.all(Array.from({ length: 3 }, () => bid(rival, auction.id, { amount: 800 }, { 'idempotency-key': key })));
    expect(rivalAnswers.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    for (const r of rivalAnswers) expect(r.json().outcome).toBe('outbid');
    lines = await storedLines(auction.id);
    expect(lines.filter((l) => l.key === key && l.bidderId === rival.id)).toHaveLength(1);
    // The rival's 800 stands, and the buyer's maximum answers it at 820.
    expect(lines.map((l) => [l.bidderId, l.amount])).toEqual([
      [buyer.id, 750],
      [rival.id, 800],
      [buyer.id, 820],
    ]);
    expect(await auctionRow(auction.id)).toMatchObject({ bidCount: 3, currentPrice: 820, leaderId: buyer.id });

    // A replay later still answers the first attempt, and writes nothing.
    const later = await bid(buyer, auction.id, { amount: 750, maxAmount: 900 }, { 'idempotency-key': key });
    expect(later.statusCode).toBe(200);
    expect(later.json()).toMatchObject({ replayed: true, outcome: 'leading', bids: [{ seq: 1, amount: 750 }] });
    expect(await storedLines(auction.id)).toHaveLength(3);

    // The same key on another auction is a conflict, not a bid.
    const other = await buildAuction(server.ctx.db, {
      status: 'active',
      endTime: new Date(Date.now() + 3_600_000),
      startingPrice: 700,
      companyId: COMPANY,
      sellerId,
    });
    const reused = await bid(buyer, other.id, { amount: 750 }, { 'idempotency-key': key });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error.code).toBe('CONFLICT');
    expect(await storedLines(other.id)).toEqual([]);
  });

  it('keeps many keyed bids apart when they race each other', async () => {
    const racers = await Promise.all(Array.from({ length: 10 }, () => buildBidder(server)));
    const auction = await buildAuction(server.ctx.db, {
      status: 'active',
      endTime: new Date(Date.now() + 3_600_000),
      startingPrice: 100,
      companyId: COMPANY,
      sellerId,
    });
    // Each racer sends one bid three times with its key; the amounts are far apart, so any order accepts or refuses each once.
    const sent = racers.flatMap((r, i) => Array.from({ length: 3 }, () => ({ racer: r, key: `k-${i}`, amount: 100 + 1_000 * (i + 1) })));
    const answers = await Promise.all(sent.map((s) => bid(s.racer, auction.id, { amount: s.amount }, { 'idempotency-key': s.key })));
    const lines = await storedLines(auction.id);
    for (const r of racers) {
      const mine = answers.filter((_, i) => sent[i]?.racer === r);
      const stored = lines.filter((l) => l.bidderId === r.id && !l.isAutomatic);
      expect(stored.length).toBeLessThanOrEqual(1);
      if (stored.length === 1) {
        expect(mine.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
        for (const a of mine) expect(a.json().bids[0].seq).toBe(stored[0]?.seq);
      } else {
        // Refused: a refusal stores nothing, so every attempt is decided afresh, and refused again.
        for (const a of mine) expect(a.json().error?.code).toBe('BID_TOO_LOW');
      }
    }
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
  });
});
