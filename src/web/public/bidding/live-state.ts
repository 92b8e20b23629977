import type { PublicAuction } from '../../../domain/auctions.js';
import { DEFAULT_ANTI_SNIPE_SECONDS, DEFAULT_MIN_INCREMENT, nextMinimumBid } from '../../../domain/bid-rules.js';
import type { AuctionLiveState } from '../../../domain/bidding.js';

/**
 * The live state as the auction record already tells it, for the moment before the bid history
 * (which carries the real state) arrives, or when it cannot load.
 */
export function stateFromAuction(auction: PublicAuction): AuctionLiveState {
  const minIncrement = DEFAULT_MIN_INCREMENT;
  return {
    id: auction.id,
    version: auction.version,
    status: auction.status,
    currentPrice: auction.bidCount > 0 ? auction.currentPrice : null,
    bidCount: auction.bidCount,
    startingPrice: auction.startingPrice,
    buyNowPrice: auction.buyNowPrice,
    nextMinimum: nextMinimumBid({ currentPrice: auction.bidCount > 0 ? auction.currentPrice : null, startingPrice: auction.startingPrice, minIncrement }),
    minIncrement,
    incrementBands: null,
    timerMode: 'extend',
    antiSnipeSeconds: DEFAULT_ANTI_SNIPE_SECONDS,
    counterBidResetSeconds: DEFAULT_ANTI_SNIPE_SECONDS,
    endTime: auction.endTime,
    leaderTag: null,
    winnerName: auction.status === 'ended' ? auction.currentWinnerName : null,
    winnerTag: null,
    serverNow: auction.serverNow,
  };
}

export interface Transitions {
  /** The viewer led and no longer does. */
  outbid: boolean;
  /** The end time moved later while the auction runs (anti-sniping). */
  extended: boolean;
  ended: boolean;
  /** Ended with the viewer as the winner. */
  won: boolean;
}

const NONE: Transitions = { outbid: false, extended: false, ended: false, won: false };

/** What changed between two states the page held, as the viewer should hear about it. */
export function liveTransitions(prev: AuctionLiveState | null, next: AuctionLiveState, myTag: string | null): Transitions {
  if (!prev || prev.id !== next.id || next.version <= prev.version) return NONE;
  const ended = prev.status !== 'ended' && next.status === 'ended';
  const isRunning = next.status === 'active' || next.status === 'live';
  return {
    outbid: Boolean(myTag) && isRunning && prev.leaderTag === myTag && next.leaderTag !== myTag,
    extended: isRunning && prev.endTime !== null && next.endTime !== null && next.endTime > prev.endTime,
    ended,
    won: ended && Boolean(myTag) && next.winnerTag === myTag,
  };
}

/** A state and the clock offset it came with (server time minus device time). */
export interface TimedState {
  state: AuctionLiveState;
  offset: number;
}

/**
 * The state the bid panel shows. `page` is the bid history's (bid answers and the auction room keep
 * it current); `source` is what the page knew before it: the auction record (`isAuthoritative`
 * false: a stand-in until the history arrives) or a live session's lot (true: the session room
 * also moves it, e.g. a timer the seller set, so the newer of the two wins, the lot on a tie).
 */
export function pickState(page: TimedState | null, source: TimedState & { isAuthoritative: boolean }): TimedState {
  const fromSource = { state: source.state, offset: source.offset };
  if (!page || page.state.id !== source.state.id) return fromSource;
  if (!source.isAuthoritative) return page;
  return source.state.version >= page.state.version ? fromSource : page;
}
