import type { BidAnswer } from '../../domain/bidding.js';
import { isUuid } from '../../domain/ids.js';
import { formatMoney } from '../../domain/money.js';
import { AppError } from '../http/errors.js';
import { messages } from '../messages.js';
import type { BidPresenter } from '../realtime/bid-presenter.js';
import type { DomainEvent } from '../realtime/publisher.js';
import type { BidBatcher } from './batcher.js';
import { answerEvents, type EngineAnswer } from './engine.js';

/**
 * The one entry for a person's bid: the batcher decides it with the engine (engine.ts), and the
 * answer comes back as what the bidder is told and the events the room hears.
 */

/** A decided bid, for the caller to answer and publish after the commit. */
export interface PlacedBid {
  answer: BidAnswer;
  /** None on a replay or a raised maximum: nothing public changed. */
  events: DomainEvent[];
}

const notFound = () => new AppError('NOT_FOUND', messages.errors.notFound);

/** Turns a refusal into the HTTP error the bid and buy-now endpoints answer; 409s carry the state. */
export function bidRefusal(answer: EngineAnswer, present: BidPresenter): AppError {
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
  const answer = await batcher.place({
    auctionId: opts.auctionId,
    bidderId: opts.bidderId,
    amount: opts.amount,
    maxAmount: opts.maxAmount,
    key: opts.idempotencyKey,
  });
  if (!answer) throw new Error('bid engine returned no answer');
  if (answer.error || !answer.state || !answer.outcome) throw bidRefusal(answer, present);
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
    events: outcome === 'maxRaised' ? [] : answerEvents(answer, state, opts.bidderId),
  };
}
