import { z } from 'zod';
import { MAX_PRICE } from './auctions.js';

/**
 * The buyer's side of an auction: what a bid may be, what the public sees of it, and the shapes the
 * bid API and the auction's public room exchange. The engine that decides bids runs inside the
 * database (`place_bids`, src/server/db/functions/place-bids.sql), in one transaction per group of bids that
 * arrive together, each decided in order as if alone; these rules are the ones it applies, and
 * `test/domain/bidding-model.ts` replays them as a reference model.
 */

/** SPEC §9: minimum increment 20 and anti-snipe 10 s, unless a live session's biddingConfig says otherwise. */
export const DEFAULT_MIN_INCREMENT = 20;
export const DEFAULT_ANTI_SNIPE_SECONDS = 10;

/** How many bids one GET /api/auctions/{id}/bids page holds at most. */
export const BID_PAGE_MAX = 100;
export const BID_PAGE_DEFAULT = 30;
/** An Idempotency-Key longer than this is refused. */
export const IDEMPOTENCY_KEY_MAX = 100;

/** The lowest bid the auction takes now: the starting price first, then the price plus the increment. */
export function nextMinimumBid(a: { currentPrice: number | null; startingPrice: number; minIncrement: number }): number {
  return a.currentPrice === null ? a.startingPrice : a.currentPrice + a.minIncrement;
}

/** Whether 'Comprar ahora' is offered: a buy-now price above the current price, on an auction that takes bids. */
export function canBuyNow(a: { buyNowPrice: number | null; currentPrice: number | null; status: string }): boolean {
  return a.buyNowPrice !== null && (a.status === 'active' || a.status === 'live') && (a.currentPrice ?? -1) < a.buyNowPrice;
}

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
  minIncrement: number;
  antiSnipeSeconds: number;
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

/**
 * Error codes of the bid and buy-now endpoints (in `error.code`), beyond the shared ones. 409s also
 * carry `state`, so the page shows the new price at once.
 */
export const BID_ERROR_CODES = {
  /** 409: below the minimum now, usually because another bid got there first. */
  tooLow: 'BID_TOO_LOW',
  /** 409: the auction is pending, ended, or its time ran out. */
  closed: 'AUCTION_CLOSED',
  /** 409: no buy-now price, or the price already reached it. */
  buyNowUnavailable: 'BUY_NOW_UNAVAILABLE',
  /** 403: a seller or admin bidding on their own company's auction. */
  ownAuction: 'OWN_AUCTION',
  /** 403: the profile lacks WhatsApp or consent; the page opens the profile form. */
  profileIncomplete: 'PROFILE_INCOMPLETE',
} as const;

/** Realtime payloads live in realtime.ts; re-exported for the existing importers. */
export { AUCTION_STATE_EVENT, type AuctionStateEvent, BID_EVENT_MAX, OUTBID_EVENT, type OutbidEvent } from './realtime.js';
