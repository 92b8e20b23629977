/**
 * The bid rules a public page needs (minimum, buy-now, error codes), without Zod: bidding.ts has the
 * schemas. Import these from here, so a buyer's phone does not download Zod to show a price.
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
  /** 403: the company's moderators blocked this buyer from its shows and auctions. */
  blocked: 'BUYER_BLOCKED',
} as const;
