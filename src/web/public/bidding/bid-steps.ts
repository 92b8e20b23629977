import { incrementAt, nextMinimumBid } from '../../../domain/bid-rules.js';
import type { AuctionLiveState } from '../../../domain/bidding.js';
import { MAX_PRICE } from '../../../domain/money.js';

/**
 * How bids step up from a price, by the session's band table when it has one (bid-rules.ts
 * incrementAt): the quick-bid buttons, the amount field's arrows and the proxy's explanation all
 * read the band of the amount they start from, as the engine does.
 */
type StepRule = Pick<AuctionLiveState, 'minIncrement' | 'incrementBands'>;

/** The increment after `amount`: the band's, or the flat one. */
export function stepAt(amount: number, rule: StepRule): number {
  return incrementAt(amount, rule);
}

/**
 * The lowest bid the lot takes now: the server's next minimum, checked against the band of the
 * current price, so a state from before a band change never offers a bid the engine would refuse.
 */
export function nextMinimumOf(
  state: Pick<AuctionLiveState, 'nextMinimum' | 'currentPrice' | 'bidCount' | 'startingPrice' | 'minIncrement' | 'incrementBands'>,
): number {
  const banded = nextMinimumBid({
    currentPrice: state.bidCount > 0 ? state.currentPrice : null,
    startingPrice: state.startingPrice,
    minIncrement: state.minIncrement,
    incrementBands: state.incrementBands,
  });
  return Math.min(Math.max(state.nextMinimum, banded), MAX_PRICE);
}

/**
 * The quick-bid amounts: the next minimum (or what the buyer typed above it), then each following
 * one adds the increment at the amount before it, never past the top price.
 */
export function quickBidAmounts(from: number, rule: StepRule, count = 3): number[] {
  const amounts: number[] = [];
  let amount = Math.min(from, MAX_PRICE);
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      const next = Math.min(amount + stepAt(amount, rule), MAX_PRICE);
      if (next === amount) break;
      amount = next;
    }
    amounts.push(amount);
  }
  return amounts;
}

/** Whether the increment changes with the price (a band table with more than one row). */
export function hasBands(rule: StepRule): boolean {
  return (rule.incrementBands?.length ?? 0) > 1;
}
