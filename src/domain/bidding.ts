import { z } from 'zod';
import type { IncrementBand, TimerMode } from './bid-rules.js';
import { MAX_PRICE } from './money.js';

/**
 * The buyer's side of an auction: what a bid may be, what the public sees of it, and the shapes the
 * bid API and the auction's public room exchange. The engine that decides bids runs inside the
 * database (`place_bids`, src/server/db/functions/place-bids.sql), in one transaction per group of bids that
 * arrive together, each decided in order as if alone; these rules are the ones it applies, and
 * `test/domain/bidding-model.ts` replays them as a reference model.
 */

/** 'Juan Pérez' → 'Ju***'. Bidders are never named in full in public. */
export function maskName(name: string | null | undefined): string {
  const trimmed = (name ?? '').trim();
  if (!trimmed) return '***';
  return `${[...trimmed].slice(0, 2).join('')}***`;
}

const ZPesos = (required: string) =>
  z.number({ message: required }).int({ message: 'bidInteger' }).min(1, { message: 'bidPositive' }).max(MAX_PRICE, { message: 'bidTooHigh' });

/** POST /api/auctions/{id}/bids. Codes in `message` are keys of `messages.fields` (server) and `bidding.errors` (web). */
export const ZBidInput = z
  .object({
    amount: ZPesos('bidRequired'),
    /** The bidder's private maximum: the engine bids for them, by the increment, up to it. */
    maxAmount: ZPesos('bidRequired').nullish(),
  })
  .strict()
  .refine((v) => v.maxAmount == null || v.maxAmount >= v.amount, { path: ['maxAmount'], message: 'maxBelowAmount' });
export type BidInput = z.input<typeof ZBidInput>;

/** One line of the public history. */
export interface BidView {
  /** Position in the auction's history, 1-based; also the order. */
  seq: number;
  /** Masked: 'Ju***'. */
  bidderName: string;
  /** A pseudonym that is stable within this auction only, so one bidder's lines can be told apart. */
  bidderTag: string;
  amount: number;
  /** Placed by the engine from the bidder's maximum. */
  isAutomatic: boolean;
  /** epoch ms */
  createdAt: number;
}

/**
 * A lot whose standing bids were withdrawn (the company blocked their bidder): the price it fell
 * back to, by the engine's own rules, from the others' bids (src/server/db/functions/withdraw-bids.sql).
 */
export interface WithdrawnBids {
  auctionId: string;
  auctionName: string;
  /** The price now; null when no bid is left (it is back at its starting price, with no leader). */
  currentPrice: number | null;
  startingPrice: number;
}

/** What changes while an auction runs; sent after every bid, extension and close, and in every bid answer. */
export interface AuctionLiveState {
  id: string;
  version: number;
  status: 'pending' | 'active' | 'live' | 'ended';
  currentPrice: number | null;
  bidCount: number;
  startingPrice: number;
  buyNowPrice: number | null;
  /** The lowest bid accepted now. */
  nextMinimum: number;
  /** The increment at the current price (the band's, when the session uses a band table). */
  minIncrement: number;
  /** The band table in force, ascending (null: the flat minIncrement); clients step bids with it. */
  incrementBands: IncrementBand[] | null;
  /** How the clock answers a late leading bid (bid-rules.ts TIMER_MODES), the lot's own or its session's. */
  timerMode: TimerMode;
  /** The window W: a leading bid with this little time left moves the clock (0 under suddenDeath). */
  antiSnipeSeconds: number;
  /** Where such a bid sets the clock, in seconds from the bid: R under counterBid, W under extend, 0 under suddenDeath. */
  counterBidResetSeconds: number;
  /** epoch ms */
  endTime: number | null;
  /** The leading bidder's tag (see BidView.bidderTag), null before the first bid. */
  leaderTag: string | null;
  /** Once ended: the winner, masked, and their tag. */
  winnerName: string | null;
  winnerTag: string | null;
  /** epoch ms, when the server produced this state: clients correct their countdown with it. */
  serverNow: number;
}

/**
 * What a signed-in viewer learns about themself on this auction: their tag (to recognise their own
 * lines and whether they lead) and their own maximum while it stands. Nobody else's maximum is sent.
 */
export interface BidderView {
  tag: string;
  myMaxAmount: number | null;
}

/** GET /api/auctions/{id}/bids?limit&before */
export interface BidHistory {
  /** Newest first. */
  items: BidView[];
  total: number;
  /** Pass as `before` for the next (older) page; null when there is none. */
  nextBefore: number | null;
  state: AuctionLiveState;
  /** Null when signed out. */
  me: BidderView | null;
}

/**
 * - leading: the bid leads.
 * - outbid: accepted, but another bidder's maximum answered it at once.
 * - maxRaised: the bidder already led; the bid raised their private maximum, the price is unchanged.
 */
export type BidOutcome = 'leading' | 'outbid' | 'maxRaised';

/** 201 from POST /api/auctions/{id}/bids (200 when an Idempotency-Key replays an earlier answer). */
export interface BidAnswer {
  outcome: BidOutcome;
  /** The bidder's own lines this bid produced, oldest first. */
  bids: BidView[];
  state: AuctionLiveState;
  me: BidderView;
  replayed: boolean;
}

/** 200 from POST /api/auctions/{id}/buy-now. */
export interface BuyNowAnswer {
  bid: BidView;
  state: AuctionLiveState;
  me: BidderView;
}
