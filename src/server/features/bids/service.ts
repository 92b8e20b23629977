import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { BidAnswer, BidHistory, BidOutcome, BuyNowAnswer } from '../../../domain/bidding.js';
import { isUuid } from '../../../domain/ids.js';
import { formatMoney } from '../../../domain/money.js';
import { recordAudit } from '../../audit.js';
import type { BidBatcher } from '../../bidding/batcher.js';
import { type Db, rows } from '../../db/connect.js';
import type { EngineLine, EngineState } from '../../db/engine-rows.js';
import { bids } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { refreshAuctionSearchText } from '../../reads/search-text.js';
import type { BidPresenter } from '../../realtime/bid-presenter.js';
import type { DomainEvent } from '../../realtime/publisher.js';

/** What the engine's functions answer (src/server/db/functions/): a refusal, or the lines written and the new state. */
interface EngineAnswer {
  error?:
    | 'PROFILE_INCOMPLETE'
    | 'NOT_FOUND'
    | 'AUCTION_CLOSED'
    | 'OWN_AUCTION'
    | 'BID_TOO_LOW'
    | 'BUY_NOW_UNAVAILABLE'
    | 'IDEMPOTENCY_REUSED'
    | 'BUYER_BLOCKED'
    | 'BUYER_STRUCK';
  replayed?: boolean;
  outcome?: BidOutcome;
  lines?: EngineLine[];
  allLines?: EngineLine[];
  previousLeaderId?: string | null;
  state?: EngineState;
}

/** A decided bid, for the caller to answer and publish after the commit. */
export interface PlacedBid {
  answer: BidAnswer;
  /** None on a replay or a raised maximum: nothing public changed. */
  events: DomainEvent[];
}

const notFound = () => new AppError('NOT_FOUND', messages.errors.notFound);

/** Turns a refusal into the HTTP error the bid and buy-now endpoints answer; 409s carry the state. */
function refusal(answer: EngineAnswer, present: BidPresenter): AppError {
  const state = answer.state ? present.state(answer.state) : undefined;
  const extra = state ? { state } : undefined;
  switch (answer.error) {
    case 'PROFILE_INCOMPLETE':
      return new AppError('PROFILE_INCOMPLETE', messages.bidding.profileIncomplete);
    case 'NOT_FOUND':
      return notFound();
    case 'OWN_AUCTION':
      return new AppError('OWN_AUCTION', messages.bidding.ownAuction, undefined, extra);
    case 'AUCTION_CLOSED': {
      // Pending, or a live lot whose timer the seller has not started yet: not started, not over.
      const notStarted = state?.status === 'pending' || (state !== undefined && state.status !== 'ended' && state.endTime === null);
      return new AppError('AUCTION_CLOSED', notStarted ? messages.bidding.notStarted : messages.bidding.ended, undefined, extra);
    }
    case 'BID_TOO_LOW':
      return new AppError('BID_TOO_LOW', messages.bidding.tooLow.replace('{{amount}}', formatMoney(state?.nextMinimum ?? 0)), undefined, extra);
    case 'BUYER_BLOCKED':
      return new AppError('BUYER_BLOCKED', messages.bidding.blocked, undefined, extra);
    case 'BUYER_STRUCK':
      // Blocked for unpaid bills: the same code, its own message.
      return new AppError('BUYER_BLOCKED', messages.unpaid.struck, undefined, extra);
    case 'BUY_NOW_UNAVAILABLE':
      return new AppError('BUY_NOW_UNAVAILABLE', messages.bidding.buyNowUnavailable, undefined, extra);
    case 'IDEMPOTENCY_REUSED':
      return new AppError('CONFLICT', messages.bidding.idempotencyReused);
    default:
      throw new Error(`unknown bid engine answer: ${JSON.stringify(answer)}`);
  }
}

function engineAnswer(result: unknown): EngineAnswer {
  const [row] = rows<{ r: EngineAnswer }>(result);
  if (!row) throw new Error('bid engine returned no row');
  return row.r;
}

/**
 * Places one bid. The decision is `place_bids` (db/functions/place-bids.sql), inside one statement and one
 * transaction that locks the auction row, so bids on one auction are decided one at a time, in any
 * number of server instances; bids arriving together share the transaction (batcher.ts). The
 * caller publishes `events` after this returns, that is, after the commit.
 */
export async function placeBid(
  batcher: BidBatcher,
  present: BidPresenter,
  opts: { auctionId: string; bidderId: string; amount: number; maxAmount: number | null; idempotencyKey: string | null },
): Promise<PlacedBid> {
  if (!isUuid(opts.auctionId)) throw notFound();
  const answer = (await batcher.place({
    auctionId: opts.auctionId,
    bidderId: opts.bidderId,
    amount: opts.amount,
    maxAmount: opts.maxAmount,
    key: opts.idempotencyKey,
  })) as EngineAnswer | undefined;
  if (!answer) throw new Error('bid engine returned no answer');
  if (answer.error || !answer.state || !answer.outcome) throw refusal(answer, present);
  // Stamped now, after the commit (a grouped bid's own stamp is taken before its group commits).
  const state = { ...answer.state, serverNow: Date.now() };
  const outcome = answer.outcome;
  return {
    answer: {
      outcome,
      bids: (answer.lines ?? []).map((l) => present.line(state.id, l)),
      state: present.state(state),
      me: present.me(state, opts.bidderId),
      replayed: answer.replayed === true,
    },
    events: outcome === 'maxRaised' ? [] : publicEvents(answer, state, opts.bidderId),
  };
}

/** What the room and the overtaken leader hear of an answer, and the close it caused; nothing for a replay. */
function publicEvents(answer: EngineAnswer, state: EngineState, actorId: string): DomainEvent[] {
  if (answer.replayed) return [];
  const outbid = answer.previousLeaderId ?? null;
  const placed: DomainEvent = { type: 'bidPlaced', state, lines: answer.allLines ?? [], outbidUserId: outbid !== actorId ? outbid : null };
  return state.status === 'ended' ? [placed, { type: 'auctionClosed', state }] : [placed];
}

/** Buys at the buy-now price: the auction ends with the buyer as its winner (db/functions/buy-now.sql). */
export async function buyNow(
  db: Db,
  present: BidPresenter,
  opts: Acting<{ id: string }> & { auctionId: string; idempotencyKey: string | null },
): Promise<{ answer: BuyNowAnswer; events: DomainEvent[] }> {
  if (!isUuid(opts.auctionId)) throw notFound();
  const answer = await db.transaction(async (tx) => {
    const found = engineAnswer(await tx.execute(sql`select buy_now(${opts.auctionId}::uuid, ${opts.actor.id}::uuid, ${opts.idempotencyKey}::text) as r`));
    if (!found.error && !found.replayed) {
      // The winner's name is searchable in the admin table.
      await refreshAuctionSearchText(tx, { auctionIds: [opts.auctionId] });
      await recordAudit(tx, {
        by: opts,
        action: 'auction.buy_now',
        entityType: 'auction',
        entityId: opts.auctionId,
        after: { price: found.state?.currentPrice },
      });
    }
    return found;
  });
  if (answer.error || !answer.state) throw refusal(answer, present);
  // Stamped now, after the commit (a grouped bid's own stamp is taken before its group commits).
  const state = { ...answer.state, serverNow: Date.now() };
  const [line] = answer.lines ?? [];
  if (!line) throw new Error('buy_now returned no line');
  return {
    answer: { bid: present.line(state.id, line), state: present.state(state), me: present.me(state, opts.actor.id) },
    events: publicEvents(answer, state, opts.actor.id),
  };
}

/** The engine's view of one auction, without locking it. */
export async function readEngineState(db: Db, auctionId: string): Promise<EngineState | null> {
  if (!isUuid(auctionId)) return null;
  const [row] = rows<{ s: EngineState }>(
    await db.execute(sql`select auction_bid_state(a, auction_bidding_config(a.id)) as s from auctions a where a.id = ${auctionId}::uuid`),
  );
  return row?.s ?? null;
}

/** GET /api/auctions/{id}/bids: the public history (standing lines), newest first, a page at a time, with the state. */
export async function bidHistory(
  db: Db,
  present: BidPresenter,
  opts: { auctionId: string; viewerId: string | null; limit: number; before: number | null },
): Promise<BidHistory> {
  const state = await readEngineState(db, opts.auctionId);
  if (!state) throw notFound();
  const found = await db
    .select({
      seq: bids.seq,
      bidderId: bids.bidderId,
      bidderName: bids.bidderName,
      amount: bids.amount,
      isAutomatic: bids.isAutomatic,
      createdAt: bids.createdAt,
    })
    .from(bids)
    // Withdrawn lines (a blocked bidder's, and what answered them) are out of the history.
    .where(and(eq(bids.auctionId, state.id), isNull(bids.withdrawnAt), opts.before === null ? undefined : lt(bids.seq, opts.before)))
    .orderBy(desc(bids.seq))
    .limit(opts.limit);
  const items = found.map((b) => present.line(state.id, { ...b, createdAt: b.createdAt.getTime() }));
  const last = items[items.length - 1];
  return {
    items,
    total: state.bidCount,
    nextBefore: last && last.seq > 1 && items.length === opts.limit ? last.seq : null,
    state: present.state(state),
    me: opts.viewerId ? present.me(state, opts.viewerId) : null,
  };
}
