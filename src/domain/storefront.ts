import { z } from 'zod';
import { isUuid } from './ids.js';
import type { SessionStatus } from './live-public.js';
import { SEARCH_MAX, SEARCH_MIN } from './search-links.js';
import { foldText, zText } from './text.js';

/**
 * The buyers' front door: the home (`GET /api/home`), the search (`GET /api/search`) and a seller's
 * page (`GET /api/sellers/{slug}`). The query schemas are the server's; the answer types are what
 * the web pages read (import them with `import type`, so a buyer's phone does not download Zod).
 * Times are epoch ms, money integer pesos.
 */

export { SEARCH_MAX, SEARCH_MIN } from './search-links.js';
/** At most this many words of a search reach the database (each must match). */
export const SEARCH_MAX_WORDS = 8;

/** `?categoryId=`: a category's id; anything else is refused rather than ignored. */
const ZCategoryId = z
  .string()
  .max(64, { error: 'categoryIdInvalid' })
  .refine((v) => isUuid(v), { error: 'categoryIdInvalid' })
  .transform((v) => v.toLowerCase());

export const ZHomeQuery = z.object({ categoryId: ZCategoryId.optional() });
export type HomeQuery = z.output<typeof ZHomeQuery>;

export const ZSearchQuery = z.object({
  q: zText({ error: 'searchRequired' }).trim().min(SEARCH_MIN, { error: 'searchTooShort' }).max(SEARCH_MAX, { error: 'searchTooLong' }),
  categoryId: ZCategoryId.optional(),
});
export type SearchQuery = z.output<typeof ZSearchQuery>;

export const ZSellerParams = z.object({ slug: z.string().min(1, { error: 'sellerSlugInvalid' }).max(100, { error: 'sellerSlugInvalid' }) });

/**
 * The words of a search as the index holds them: accents folded and lower-cased (as the
 * `public_search_vector` column folds name and description), split on anything but letters and
 * digits, each at most 40 characters, deduplicated, at most SEARCH_MAX_WORDS. Only letters and
 * digits remain, so no word can carry a text-search operator.
 */
export function searchWords(q: string): string[] {
  const words = foldText(q)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.slice(0, 40));
  return [...new Set(words)].slice(0, SEARCH_MAX_WORDS);
}

/** A lot of a show as the cards show it: its photo (a thumbnail when there is one) and starting price. */
export interface StorefrontLot {
  auctionId: string;
  name: string;
  imageUrl: string | null;
  startingPrice: number;
}

/** The lot on the block of a live show: `price` is the current bid, or the starting price before any. */
export interface StorefrontCurrentLot {
  auctionId: string;
  name: string;
  imageUrl: string | null;
  price: number;
}

/** An ended show's replay anyone may watch on its page (`url`): how long it is, and its poster if it has one. */
export interface StorefrontReplay {
  durationMs: number | null;
  posterUrl: string | null;
}

/** One show, as the home, the seller's page and their lists show it. */
export interface StorefrontShow {
  id: string;
  title: string;
  /** The show's public page (`livePath`). */
  url: string;
  sellerId: string;
  /** The shop as buyers know it: the seller's company name (as the live page's `sellerName`). */
  sellerName: string;
  /** The seller's page is `/tienda/{sellerSlug}`; null for a seller who has none yet. */
  sellerSlug: string | null;
  status: SessionStatus;
  scheduledAt: number;
  /** Pages following the show now (the live page's counter); 0 for a show not on. */
  viewerCount: number;
  /** The cover the seller chose, or null (the card may show `currentLot` or the first lot's photo). */
  coverUrl: string | null;
  /** Live: the next lots in the queue after the one on the block; scheduled: its first lots. Up to 4. */
  lots: StorefrontLot[];
  /** Live or paused: the lot on the block, or null between lots. Null otherwise. */
  currentLot: StorefrontCurrentLot | null;
  /** The categories of the lots still to come, so a page filters without asking again. */
  categoryIds: string[];
  /** How many lots the show has in all. */
  lotCount: number;
  /** Ended shows: how many of its lots sold. Null for a show not ended. */
  soldCount: number | null;
  /** The signed-in viewer asked to be told about this show (*Avísame*); false when signed out. */
  reminded: boolean;
  /** Ended shows: its replay when anyone may watch it (ready, public, not expired). Null otherwise. */
  replay: StorefrontReplay | null;
}

export interface StorefrontCategory {
  id: string;
  name: string;
}

/** GET /api/home. */
export interface HomeAnswer {
  /** Live or paused, busiest first. */
  live: StorefrontShow[];
  /** Scheduled, soonest first (those due in the last two hours still listed: late starts happen). */
  upcoming: StorefrontShow[];
  /** The categories with something for sale now: a lot of a listed show or an open auction. */
  categories: StorefrontCategory[];
  serverNow: number;
}

/**
 * One search result. 'lot': a lot of a live or scheduled show, `url` its show at that lot
 * (`?lote={auctionId}`), `startsAt` the show's scheduled time. 'auction': an open auction not in a
 * show, `url` its page, `startsAt` null and `endsAt` its end time.
 */
export interface SearchItem {
  kind: 'lot' | 'auction';
  auctionId: string;
  sessionId: string | null;
  name: string;
  imageUrl: string | null;
  /** The current bid, or the starting price before any. */
  price: number;
  startsAt: number | null;
  endsAt: number | null;
  /** The lot's show is on now (live or paused). */
  live: boolean;
  url: string;
}

export interface SearchAnswer {
  items: SearchItem[];
}

/** An open auction on a seller's page. */
export interface StorefrontAuction {
  id: string;
  name: string;
  imageUrl: string | null;
  price: number;
  bidCount: number;
  endTime: number | null;
  url: string;
}

export interface SellerPageSeller {
  id: string;
  slug: string;
  /** The seller's own name (never an e-mail). */
  name: string;
  companyName: string | null;
  city: string | null;
  /** How many follow them: a count, never who. */
  followers: number;
  /** The signed-in viewer follows them; false when signed out. */
  following: boolean;
}

/** GET /api/sellers/{slug}. */
export interface SellerPageAnswer {
  seller: SellerPageSeller;
  live: StorefrontShow[];
  upcoming: StorefrontShow[];
  /** Ended shows, newest first. */
  past: StorefrontShow[];
  /** Open auctions not in a show, ending soonest first. */
  auctions: StorefrontAuction[];
  serverNow: number;
}

/** What a public answer says of the seller's page: `/tienda/{slug}`, and the seller's name. */
export interface StoreLink {
  slug: string;
  name: string;
}
