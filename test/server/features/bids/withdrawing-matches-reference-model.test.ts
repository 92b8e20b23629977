import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INCREMENT_BANDS } from '../../../../src/domain/bid-rules.js';
import { rows } from '../../../../src/server/db/connect.js';
import { auctions, bids, liveLots } from '../../../../src/server/db/schema.js';
import { BiddingModel, bandTables, type ModelBand } from '../../../domain/bidding-model.js';
import { buildBidder } from '../../../support/actors.js';
import { buildAuction, buildSession, buildUser } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

/**
 * Withdrawing a bidder's bids (what a block does: withdraw_bids, src/server/db/functions/withdraw-bids.sql)
 * against the reference model (test/domain/bidding-model.ts), where a withdrawal replays the others'
 * accepted bids as if the withdrawn bidder had never bid. Any sequence of bids, maximums and
 * withdrawals, bidding going on after them, leaves the engine with the model's leader, maximum and
 * price, and a history whose last standing line is the leader at the price, counted by bid_count.
 */

let server: TestServer;
let sellerId: string;
const COMPANY = 'remates-retiros';
const BIDDERS = 4;
let bidderIds: string[] = [];

type AmountSpec = { kind: 'at' } | { kind: 'above'; by: number } | { kind: 'aroundLeaderMax'; by: number };
type Op =
  | { kind: 'bid'; bidder: number; amount: AmountSpec; max: { kind: 'none' } | { kind: 'plus'; by: number } | { kind: 'aroundLeaderMax'; by: number } }
  | { kind: 'withdraw'; bidder: number };

const amountSpec: fc.Arbitrary<AmountSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'at' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('above' as const), by: fc.integer({ min: 1, max: 300 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('aroundLeaderMax' as const), by: fc.integer({ min: -3, max: 40 }) }) },
);
const bidOp: fc.Arbitrary<Op> = fc.record({
  kind: fc.constant('bid' as const),
  bidder: fc.integer({ min: 0, max: BIDDERS - 1 }),
  amount: amountSpec,
  max: fc.oneof(
    { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('plus' as const), by: fc.integer({ min: 0, max: 600 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('aroundLeaderMax' as const), by: fc.integer({ min: -2, max: 2 }) }) },
  ),
});
const withdrawOp: fc.Arbitrary<Op> = fc.record({ kind: fc.constant('withdraw' as const), bidder: fc.integer({ min: 0, max: BIDDERS - 1 }) });
const scenario = fc.record({
  startingPrice: fc.integer({ min: 1, max: 3000 }),
  bands: fc.oneof(fc.constant(null), fc.constant([...DEFAULT_INCREMENT_BANDS] as ModelBand[]), bandTables),
  ops: fc.array(fc.oneof({ weight: 4, arbitrary: bidOp }, { weight: 1, arbitrary: withdrawOp }), { minLength: 2, maxLength: 22 }),
});

async function freshAuction(startingPrice: number, bands: ModelBand[] | null): Promise<string> {
  const auction = await buildAuction(server.ctx.db, {
    status: 'active',
    endTime: new Date(Date.now() + 3_600_000),
    startingPrice,
    companyId: COMPANY,
    sellerId,
  });
  const session = await buildSession(server.ctx.db, {
    sellerId,
    companyId: COMPANY,
    biddingConfig: { minIncrement: 20, antiSnipeSeconds: 0, timerSecondsDefault: 60, timerMode: 'suddenDeath', incrementBands: bands },
  });
  await server.ctx.db.insert(liveLots).values({ sessionId: session.id, auctionId: auction.id, order: 1 });
  return auction.id;
}

/** What an engine function answers (one row, column r). */
async function engine<T>(query: SQL): Promise<T> {
  const [row] = rows<{ r: T }>(await server.ctx.db.execute(query));
  return row?.r as T;
}

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  sellerId = (await buildUser(server.ctx.db, { email: 'vende-retiros@ejemplo.mx', roles: ['seller'], companyId: COMPANY })).id;
  bidderIds = [];
  for (let i = 0; i < BIDDERS; i++) bidderIds.push((await buildBidder(server)).id);
}, 60_000);
afterAll(async () => server?.close());

describe('withdrawing bids against the reference model', () => {
  it('agrees on the leader, the maximum and the price after every bid and withdrawal, and keeps the history consistent', async () => {
    const runs = { withdrawals: 0, leaderChanged: 0, emptied: 0, bids: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, async ({ startingPrice, bands, ops }) => {
        const auctionId = await freshAuction(startingPrice, bands);
        const model = new BiddingModel({ startingPrice, minIncrement: 20, incrementBands: bands });
        for (const op of ops) {
          const bidder = bidderIds[op.bidder] as string;
          let context: string;
          if (op.kind === 'withdraw') {
            const before = model.leader;
            model.withdraw(bidder);
            await engine(sql`select withdraw_bids(${auctionId}::uuid, array[${bidder}::uuid]) as r`);
            runs.withdrawals++;
            if (before !== model.leader) runs.leaderChanged++;
            if (model.leader === null && before !== null) runs.emptied++;
            context = `withdraw ${op.bidder}`;
          } else {
            const minimum = model.minimum();
            const leaderMax = model.leaderMax ?? minimum;
            const amount = Math.max(
              1,
              op.amount.kind === 'at' ? minimum : op.amount.kind === 'above' ? minimum + op.amount.by : Math.max(minimum, leaderMax + op.amount.by),
            );
            const max = op.max.kind === 'none' ? null : op.max.kind === 'plus' ? amount + op.max.by : Math.max(amount, leaderMax + op.max.by);
            const step = model.bid({ bidder, amount, max });
            const answer = await engine<{ outcome?: string; error?: string }>(
              sql`select place_bid(${auctionId}::uuid, ${bidder}::uuid, ${amount}::integer, ${max}::integer, null::text) as r`,
            );
            runs.bids++;
            context = `bid ${op.bidder} ${amount}/${max}: ${JSON.stringify(answer)}`;
            expect(answer.outcome ?? answer.error, context).toBe(step.accepted ? step.outcome : 'BID_TOO_LOW');
          }
          const [row] = await server.ctx.db
            .select({ leaderId: auctions.leaderId, leaderMax: auctions.leaderMax, currentPrice: auctions.currentPrice, bidCount: auctions.bidCount })
            .from(auctions)
            .where(eq(auctions.id, auctionId));
          const trail = `${context} after ${JSON.stringify(ops)} from ${startingPrice}, bands ${JSON.stringify(bands)}`;
          expect({ leaderId: row?.leaderId, leaderMax: row?.leaderMax, currentPrice: row?.currentPrice }, trail).toEqual({
            leaderId: model.leader,
            leaderMax: model.leaderMax,
            currentPrice: model.price,
          });
          const standing = await server.ctx.db
            .select({ bidderId: bids.bidderId, amount: bids.amount, seq: bids.seq })
            .from(bids)
            .where(and(eq(bids.auctionId, auctionId), isNull(bids.withdrawnAt)))
            .orderBy(bids.seq);
          expect(row?.bidCount, trail).toBe(standing.length);
          const last = standing.at(-1);
          expect(last ? { bidderId: last.bidderId, amount: last.amount } : null, trail).toEqual(
            model.leader === null ? null : { bidderId: model.leader, amount: model.price },
          );
          // No standing line above the price.
          expect(
            standing.every((l) => model.price !== null && l.amount <= model.price),
            trail,
          ).toBe(true);
        }
      }),
      { numRuns: 120 },
    );
    // The generator reached what matters: withdrawals that changed the leader, and ones that left no bid.
    expect(runs.leaderChanged).toBeGreaterThan(0);
    expect(runs.emptied).toBeGreaterThan(0);
  }, 300_000);
});
