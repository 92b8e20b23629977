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

/**
 * How a lot's clock answers a late leading bid:
 * - counterBid ('Contrapuja', Whatnot's counter-bid time): a leading bid with fewer than W seconds
 *   left sets the clock to R seconds from now (never earlier than it was);
 * - suddenDeath ('Muerte súbita'): nothing moves the clock; the lot sells at 00:00 to the leader;
 * - extend ('Extender', SPEC §9's anti-snipe): a leading bid with W seconds or fewer left moves
 *   the end to now plus W.
 */
export const TIMER_MODES = ['counterBid', 'suddenDeath', 'extend'] as const;
export type TimerMode = (typeof TIMER_MODES)[number];

/** One row of a price-band increment table: from this price (inclusive) up, bids rise by `increment`. */
export interface IncrementBand {
  from: number;
  increment: number;
}

/** The default band table for pesos, offered in 'Editar Sesión' (the seller may edit it). */
export const DEFAULT_INCREMENT_BANDS: readonly IncrementBand[] = [
  { from: 0, increment: 5 },
  { from: 100, increment: 10 },
  { from: 500, increment: 20 },
  { from: 1000, increment: 50 },
  { from: 5000, increment: 100 },
  { from: 10000, increment: 200 },
];

/** What decides the increment: a flat one, or the band table when the session has one. */
export interface IncrementRule {
  minIncrement: number;
  incrementBands?: readonly IncrementBand[] | null;
}

/** The increment at a price: the band whose `from` is the highest not above it, else the flat one. */
export function incrementAt(price: number, rule: IncrementRule): number {
  const bands = rule.incrementBands;
  if (!bands || bands.length === 0) return rule.minIncrement;
  let increment = bands[0]?.increment ?? rule.minIncrement;
  for (const band of bands) {
    if (price >= band.from) increment = band.increment;
    else break;
  }
  return increment;
}

/** The lowest bid the auction takes now: the starting price first, then the price plus the increment at that price. */
export function nextMinimumBid(a: { currentPrice: number | null; startingPrice: number } & IncrementRule): number {
  return a.currentPrice === null ? a.startingPrice : a.currentPrice + incrementAt(a.currentPrice, a);
}

/** Whether 'Comprar ahora' is offered: a buy-now price above the current price, on an auction that takes bids. */
export function canBuyNow(a: { buyNowPrice: number | null; currentPrice: number | null; status: string }): boolean {
  return a.buyNowPrice !== null && (a.status === 'active' || a.status === 'live') && (a.currentPrice ?? -1) < a.buyNowPrice;
}

/**
 * Whether an auction may still take a 'Puja anticipada', as far as its public state tells: not
 * ended, no bids, and no clock running (a show's lot waiting for the seller). The server decides
 * with the lot and its show too; a page asks it only when this holds, so an ordinary auction's page
 * makes no extra request.
 */
export function mayTakePrebids(a: { status: string; bidCount: number; endTime: number | null }): boolean {
  return a.status !== 'ended' && a.bidCount === 0 && (a.endTime === null || a.status === 'pending');
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
