import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MIN_INCREMENT, nextMinimumBid } from '../../../../src/domain/bid-rules.js';
import { type BidAnswer, type BidHistory, maskName } from '../../../../src/domain/bidding.js';
import { rows } from '../../../../src/server/db/connect.js';
import { auctions, liveLots } from '../../../../src/server/db/schema.js';
import { BiddingModel, type ModelOp, replay } from '../../../domain/bidding-model.js';
import { buildBidder } from '../../../support/actors.js';
import { buildAuction, buildSession, buildUser } from '../../../support/factories.js';
import { placeBid, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * The bid engine against the reference model (test/domain/bidding-model.ts): any sequence of bids
 * and maximums, sent over HTTP to the real engine, leaves the same leader, price and outcomes as
 * the model, and a history that keeps its invariants. Each run bids on a fresh auction.
 */

let server: TestServer;
let sellerId: string;
const COMPANY = 'remates-propiedades';

interface Bidder {
  id: string;
  name: string;
  cookie: string;
  /** When this account's bid requests were sent (30 per 10 s per user is the route's limit). */
  sent: number[];
}
const accounts: Bidder[] = [];
/** Accounts that can send `needed[i]` more bids now without reaching the rate limit; new ones when none can. */
async function takeBidders(needed: number[]): Promise<Bidder[]> {
  const now = Date.now();
  const taken: Bidder[] = [];
  for (const n of needed) {
    let found = accounts.find((a) => !taken.includes(a) && a.sent.filter((t) => t > now - 11_000).length + n <= 28);
    if (!found) {
      found = { ...(await buildBidder(server)), sent: [] };
      accounts.push(found);
    }
    taken.push(found);
  }
  return taken;
}

/** Live sessions whose biddingConfig sets the increment of their lots. */
const sessionsByIncrement = new Map<number, string>();
let lotOrder = 0;

async function freshAuction(opts: { startingPrice: number; minIncrement: number }): Promise<string> {
  const auction = await buildAuction(server.ctx.db, {
    status: 'active',
    endTime: new Date(Date.now() + 3_600_000),
    startingPrice: opts.startingPrice,
    companyId: COMPANY,
    sellerId,
  });
  if (opts.minIncrement !== DEFAULT_MIN_INCREMENT) {
    const sessionId = sessionsByIncrement.get(opts.minIncrement);
    if (!sessionId) throw new Error(`no session for increment ${opts.minIncrement}`);
    await server.ctx.db.insert(liveLots).values({ sessionId, auctionId: auction.id, order: ++lotOrder });
  }
  return auction.id;
}

function bid(bidder: Bidder, auctionId: string, payload: { amount: number; maxAmount?: number }): Promise<LightMyRequestResponse> {
  bidder.sent.push(Date.now());
  return placeBid(server, bidder, auctionId, payload);
}

function history(auctionId: string, viewer: Bidder | null): Promise<LightMyRequestResponse> {
  return server.app.inject({ method: 'GET', url: `/api/auctions/${auctionId}/bids?limit=100`, headers: viewer ? { cookie: viewer.cookie } : {} });
}

/** Nothing private leaves the server: no leader fields, no maxima but the viewer's own, no user ids. */
function expectNothingPrivate(body: string, userIds: string[]) {
  for (const key of ['"leaderId"', '"leaderMax"', '"maxAmount"', '"max_amount"', '"bidderId"', '"winnerId"', '"email"', '"whatsapp"']) {
    expect(body, `answer leaks ${key}`).not.toContain(key);
  }
  for (const id of userIds) expect(body, 'answer leaks a user id').not.toContain(id);
}

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  const seller = await buildUser(server.ctx.db, { email: 'vendedor-prop@ejemplo.mx', roles: ['seller'], companyId: COMPANY });
  sellerId = seller.id;
  for (const minIncrement of [1, 7, 50]) {
    const session = await buildSession(server.ctx.db, {
      sellerId,
      companyId: COMPANY,
      biddingConfig: { minIncrement, antiSnipeSeconds: 10, timerSecondsDefault: 60 },
    });
    sessionsByIncrement.set(minIncrement, session.id);
  }
  accounts.push(...(await Promise.all(Array.from({ length: 8 }, async (): Promise<Bidder> => ({ ...(await buildBidder(server)), sent: [] })))));
}, 60_000);
afterAll(async () => server?.close());

// ── Generated operations ──────────────────────────────────────────────────────
// Amounts are chosen when the operation runs, relative to the auction as it stands then, so that
// a shrunk sequence still means the same thing: below the minimum, at it, above it, or around the
// leader's private maximum (where the proxy rules have their edges).

type AmountSpec = { kind: 'below'; by: number } | { kind: 'at' } | { kind: 'above'; by: number } | { kind: 'aroundLeaderMax'; by: number };
type MaxSpec =
  | { kind: 'none' }
  | { kind: 'same' }
  | { kind: 'plus'; by: number }
  | { kind: 'aroundLeaderMax'; by: number }
  /** Below the amount: the route refuses it (400) before the engine sees it. */
  | { kind: 'belowAmount' };
interface OpSpec {
  bidder: number;
  amount: AmountSpec;
  max: MaxSpec;
}

const BIDDERS = 4;

const amountSpec: fc.Arbitrary<AmountSpec> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('below' as const), by: fc.integer({ min: 1, max: 60 }) }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'at' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('above' as const), by: fc.integer({ min: 1, max: 250 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('aroundLeaderMax' as const), by: fc.integer({ min: -3, max: 60 }) }) },
);
const maxSpec: fc.Arbitrary<MaxSpec> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'same' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('plus' as const), by: fc.integer({ min: 0, max: 400 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('aroundLeaderMax' as const), by: fc.integer({ min: -2, max: 2 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'belowAmount' as const }) },
);
const opSpec: fc.Arbitrary<OpSpec> = fc.record({ bidder: fc.integer({ min: 0, max: BIDDERS - 1 }), amount: amountSpec, max: maxSpec });
const scenario = fc.record({
  startingPrice: fc.integer({ min: 100, max: 5_000 }),
  minIncrement: fc.constantFrom(DEFAULT_MIN_INCREMENT, 1, 7, 50),
  ops: fc.array(opSpec, { minLength: 1, maxLength: 25 }),
});

/** The request an operation sends, given the auction as the model sees it now. */
function request(spec: OpSpec, model: BiddingModel): { amount: number; maxAmount?: number } {
  const minimum = model.minimum();
  const leaderMax = model.leaderMax ?? minimum;
  const amount = Math.max(
    1,
    spec.amount.kind === 'below'
      ? minimum - spec.amount.by
      : spec.amount.kind === 'at'
        ? minimum
        : spec.amount.kind === 'above'
          ? minimum + spec.amount.by
          : leaderMax + spec.amount.by,
  );
  switch (spec.max.kind) {
    case 'none':
      return { amount };
    case 'same':
      return { amount, maxAmount: amount };
    case 'plus':
      return { amount, maxAmount: amount + spec.max.by };
    case 'aroundLeaderMax':
      return { amount, maxAmount: Math.max(amount, leaderMax + spec.max.by) };
    case 'belowAmount':
      return amount > 1 ? { amount, maxAmount: amount - 1 } : { amount };
  }
}

/** The auction row ends as the model does: the leader, their maximum, the price, and one count per line. */
async function expectRowAsModel(auctionId: string, model: BiddingModel, lineCount: number) {
  const [row] = await server.ctx.db
    .select({ leaderId: auctions.leaderId, leaderMax: auctions.leaderMax, currentPrice: auctions.currentPrice, bidCount: auctions.bidCount })
    .from(auctions)
    .where(eq(auctions.id, auctionId));
  expect(row).toEqual({ leaderId: model.leader, leaderMax: model.leaderMax, currentPrice: model.price, bidCount: lineCount });
}

/** The generator reached every branch of the rules. */
function expectEveryBranch(runs: Record<'leading' | 'outbid' | 'maxRaised' | 'tooLow', number>) {
  expect(runs.leading).toBeGreaterThan(0);
  expect(runs.outbid).toBeGreaterThan(0);
  expect(runs.maxRaised).toBeGreaterThan(0);
  expect(runs.tooLow).toBeGreaterThan(0);
}

describe('the bid engine against the reference model', () => {
  it('agrees on every outcome, the leader and the price, and keeps the history consistent', async () => {
    const runs = { count: 0, bids: 0, leading: 0, outbid: 0, maxRaised: 0, tooLow: 0, invalid: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, async ({ startingPrice, minIncrement, ops }) => {
        runs.count++;
        const perBidder = Array.from({ length: BIDDERS }, (_, i) => ops.filter((o) => o.bidder === i).length);
        const bidders = await takeBidders(perBidder);
        const userIds = bidders.map((b) => b.id);
        const auctionId = await freshAuction({ startingPrice, minIncrement });
        const model = new BiddingModel({ startingPrice, minIncrement });
        /** Each bidder's tag on this auction, as their own answers give it. */
        const tagOf = new Map<string, string>();
        const lastLineSeq = { value: 0 };

        for (const spec of ops) {
          const bidder = bidders[spec.bidder] as Bidder;
          const payload = request(spec, model);
          const res = await bid(bidder, auctionId, payload);
          runs.bids++;
          const context = `${JSON.stringify(payload)} by bidder ${spec.bidder}: ${res.statusCode} ${res.body}`;

          if (payload.maxAmount !== undefined && payload.maxAmount < payload.amount) {
            runs.invalid++;
            expect(res.statusCode, context).toBe(400);
            expect(res.json().error.code, context).toBe('VALIDATION');
            expect(res.json().error.fields, context).toHaveProperty('maxAmount');
            continue;
          }
          expectNothingPrivate(res.body, userIds);

          const step = model.bid({ bidder: bidder.id, amount: payload.amount, max: payload.maxAmount ?? null });
          if (!step.accepted) {
            runs.tooLow++;
            expect(res.statusCode, context).toBe(409);
            const error = res.json().error;
            expect(error.code, context).toBe('BID_TOO_LOW');
            expect(error.state.currentPrice, context).toBe(model.price);
            expect(error.state.nextMinimum, context).toBe(model.minimum());
            continue;
          }

          runs[step.outcome]++;
          expect(res.statusCode, context).toBe(201);
          const answer: BidAnswer = res.json();
          tagOf.set(bidder.id, answer.me.tag);
          expect(answer.replayed, context).toBe(false);
          expect(answer.outcome, context).toBe(step.outcome);
          expect(answer.state.currentPrice, context).toBe(step.price);
          expect(answer.state.nextMinimum, context).toBe(model.minimum());
          expect(answer.state.minIncrement, context).toBe(minIncrement);
          expect(answer.state.leaderTag, context).toBe(tagOf.get(step.leader));
          // Only the leader learns a maximum, and it is their own.
          expect(answer.me.myMaxAmount, context).toBe(step.leader === bidder.id ? step.leaderMax : null);

          // The bidder's own lines: none when they raised their maximum; otherwise the bid as it
          // stands in the history (at the new price when it leads, at the amount typed when a
          // maximum answered it), after every line already there.
          for (const line of answer.bids) expect(line.bidderTag, context).toBe(answer.me.tag);
          if (step.outcome === 'maxRaised') expect(answer.bids, context).toEqual([]);
          else {
            const [first] = answer.bids;
            expect(first, context).toBeDefined();
            expect(first?.isAutomatic, context).toBe(false);
            expect(first?.amount, context).toBe(step.outcome === 'leading' ? step.price : payload.amount);
            expect(first?.seq, context).toBeGreaterThan(lastLineSeq.value);
            for (const line of answer.bids) expect(line.amount, context).toBeLessThanOrEqual(step.price);
            lastLineSeq.value = answer.state.bidCount;
          }
        }

        // The end state, as an outsider reads it.
        const leader = bidders.find((b) => b.id === model.leader) ?? null;
        const outsider = bidders.find((b) => b.id !== model.leader) as Bidder;
        const publicRes = await history(auctionId, outsider);
        expect(publicRes.statusCode).toBe(200);
        expectNothingPrivate(publicRes.body, userIds);
        const seen: BidHistory = publicRes.json();
        expect(seen.state.currentPrice).toBe(model.price);
        expect(seen.state.leaderTag).toBe(model.leader ? tagOf.get(model.leader) : null);
        expect(seen.me?.myMaxAmount).toBeNull();

        // The history: seq 1..n, amounts never falling, the last line the leader at the price.
        const lines = [...seen.items].reverse();
        expect(seen.total).toBe(seen.state.bidCount);
        expect(lines.length).toBe(seen.state.bidCount);
        expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
        for (let i = 1; i < lines.length; i++) expect(lines[i]?.amount).toBeGreaterThanOrEqual(lines[i - 1]?.amount as number);
        const last = lines[lines.length - 1];
        if (model.leader === null) expect(lines).toEqual([]);
        else {
          expect(last?.bidderTag).toBe(seen.state.leaderTag);
          expect(last?.amount).toBe(model.price);
          for (const l of lines) expect(l.bidderName).toMatch(/^.{1,2}\*\*\*$/u);
        }

        // The leader alone sees their maximum; a visitor signed out sees no viewer block at all.
        if (leader) {
          const mine: BidHistory = (await history(auctionId, leader)).json();
          expect(mine.me).toEqual({ tag: tagOf.get(leader.id), myMaxAmount: model.leaderMax });
        }
        const anonymous = await history(auctionId, null);
        expect(anonymous.json().me).toBeNull();
        expectNothingPrivate(anonymous.body, userIds);
        // The auction page's own data neither.
        const page = await server.app.inject({ method: 'GET', url: `/api/auctions/${auctionId}`, headers: { cookie: outsider.cookie } });
        expect(page.json()).toMatchObject({ currentPrice: model.price, bidCount: lines.length });
        expectNothingPrivate(page.body, userIds);

        // And the row itself.
        await expectRowAsModel(auctionId, model, lines.length);
      }),
      { numRuns: 80 },
    );
    expectEveryBranch(runs);
    expect(runs.invalid).toBeGreaterThan(0);
  }, 120_000);
});

describe('a group of bids decided together (group commit)', () => {
  /** What place_bids answers per bid (place-bids.sql), private leader fields included. */
  interface GroupAnswer {
    error?: string;
    outcome?: 'leading' | 'outbid' | 'maxRaised';
    lines?: { seq: number; amount: number; bidderId: string; isAutomatic: boolean }[];
    state?: { currentPrice: number | null; leaderId: string | null; leaderMax: number | null; bidCount: number; version: number };
  }

  it('decides every bid of one place_bids call exactly as the model decides them one by one', async () => {
    const runs = { groups: 0, leading: 0, outbid: 0, maxRaised: 0, tooLow: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, async ({ startingPrice, minIncrement, ops }) => {
        runs.groups++;
        const bidders = await takeBidders(Array.from({ length: BIDDERS }, () => 0));
        const auctionId = await freshAuction({ startingPrice, minIncrement });
        const model = new BiddingModel({ startingPrice, minIncrement });
        // The requests, each chosen against the model as it stands at its turn (the engine sees them all at once).
        const group: { auctionId: string; bidderId: string; amount: number; maxAmount: number | null; key: null }[] = [];
        const steps = [];
        for (const spec of ops) {
          const payload = request(spec, model);
          if (payload.maxAmount !== undefined && payload.maxAmount < payload.amount) continue; // the route refuses it
          const bidderId = (bidders[spec.bidder] as Bidder).id;
          group.push({ auctionId, bidderId, amount: payload.amount, maxAmount: payload.maxAmount ?? null, key: null });
          steps.push(model.bid({ bidder: bidderId, amount: payload.amount, max: payload.maxAmount ?? null }));
        }
        if (group.length === 0) return;
        const [row] = rows<{ r: GroupAnswer[] }>(await server.ctx.db.execute(sql`select place_bids(${JSON.stringify(group)}::jsonb) as r`));
        const answers = row?.r ?? [];
        expect(answers).toHaveLength(group.length);

        let lastVersion = 0;
        let lastSeq = 0;
        for (const [i, step] of steps.entries()) {
          const answer = answers[i] as GroupAnswer;
          const context = `bid ${i} ${JSON.stringify(group[i])}: ${JSON.stringify(answer)}`;
          if (!step.accepted) {
            runs.tooLow++;
            expect(answer.error, context).toBe('BID_TOO_LOW');
            continue;
          }
          runs[step.outcome]++;
          expect(answer.error, context).toBeUndefined();
          expect(answer.outcome, context).toBe(step.outcome);
          // The state as it stood right after this bid.
          expect(answer.state?.currentPrice, context).toBe(step.price);
          expect(answer.state?.leaderId, context).toBe(step.leader);
          expect(answer.state?.leaderMax, context).toBe(step.leaderMax);
          expect(answer.state?.version, context).toBeGreaterThanOrEqual(lastVersion);
          lastVersion = answer.state?.version ?? lastVersion;
          for (const line of answer.lines ?? []) {
            expect(line.seq, context).toBeGreaterThan(lastSeq);
            lastSeq = line.seq;
          }
        }
        // Every refusal carries the state at its turn: the model's price then.
        let price: number | null = null;
        for (const [i, step] of steps.entries()) {
          if (step.accepted) price = step.price;
          else expect((answers[i] as GroupAnswer).state?.currentPrice, `refusal ${i}`).toBe(price);
        }

        const lines = rows<{ seq: number; bidder_id: string; bidder_name: string }>(
          await server.ctx.db.execute(sql`select seq, bidder_id, bidder_name from bids where auction_id = ${auctionId}::uuid order by seq`),
        );
        expect(lines.map((l) => Number(l.seq))).toEqual(lines.map((_, i) => i + 1));
        // Lines a maximum placed for the leader carry the leader's name, as their own bids do.
        for (const line of lines) expect(line.bidder_name, `line ${line.seq}`).toBe(bidders.find((b) => b.id === line.bidder_id)?.name);
        // The row, written once at the end of the group, holds the final state.
        await expectRowAsModel(auctionId, model, lines.length);
      }),
      { numRuns: 60 },
    );
    expectEveryBranch(runs);
  }, 120_000);
});

describe('the reference model on its own', () => {
  const ops = fc.array(
    fc.record({
      bidder: fc.constantFrom('ana', 'beto', 'caro'),
      amount: fc.integer({ min: 1, max: 3_000 }),
      max: fc.option(fc.integer({ min: 1, max: 4_000 }), { nil: null }),
    }),
    { maxLength: 40 },
  );
  const auction = fc.record({ startingPrice: fc.integer({ min: 0, max: 1_000 }), minIncrement: fc.integer({ min: 1, max: 100 }) });

  it('never lowers the price, never sets it above the leader’s maximum, and takes every accepted amount', () => {
    fc.assert(
      fc.property(auction, ops, (a, sequence) => {
        const model = new BiddingModel(a);
        let price: number | null = null;
        for (const op of sequence) {
          const minimum = model.minimum();
          const step = model.bid(op);
          if (!step.accepted) {
            expect(op.amount).toBeLessThan(minimum);
            expect(model.price).toBe(price);
            continue;
          }
          expect(op.amount).toBeGreaterThanOrEqual(minimum);
          expect(step.price).toBeGreaterThanOrEqual(price ?? step.price);
          if (step.outcome !== 'maxRaised') expect(step.price).toBeGreaterThanOrEqual(op.amount);
          else expect(step.price).toBe(price);
          expect(step.price).toBeLessThanOrEqual(step.leaderMax);
          price = step.price;
        }
      }),
    );
  });

  it('gives the lead to the highest maximum, the earliest on a tie', () => {
    fc.assert(
      fc.property(auction, ops, (a, sequence) => {
        const { steps, model } = replay(a, sequence);
        const accepted = sequence.filter((_, i) => steps[i]?.accepted);
        if (accepted.length === 0) {
          expect(model.leader).toBeNull();
          return;
        }
        const maxOf = (op: ModelOp) => Math.max(op.amount, op.max ?? op.amount);
        const best = Math.max(...accepted.map(maxOf));
        expect(model.leaderMax).toBe(best);
        expect(model.leader).toBe(accepted.find((op) => maxOf(op) === best)?.bidder);
      }),
    );
  });
});

describe('nextMinimumBid and maskName', () => {
  it('asks for the starting price first, then the price plus the increment', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.option(fc.integer({ min: 0, max: 100_000_000 }), { nil: null }),
        fc.integer({ min: 1, max: 1_000 }),
        (startingPrice, currentPrice, minIncrement) => {
          const next = nextMinimumBid({ currentPrice, startingPrice, minIncrement });
          expect(next).toBe(currentPrice === null ? startingPrice : currentPrice + minIncrement);
        },
      ),
    );
  });

  it('shows at most the first two characters of a name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (name) => {
        const masked = maskName(name);
        expect(masked.endsWith('***')).toBe(true);
        const shown = [...masked.slice(0, -3)];
        expect(shown.length).toBeLessThanOrEqual(2);
        const trimmed = [...name.trim()];
        expect(shown).toEqual(trimmed.slice(0, 2));
      }),
    );
    expect(maskName('Juan Pérez')).toBe('Ju***');
    expect(maskName('  ')).toBe('***');
    expect(maskName(null)).toBe('***');
  });
});
