/**
 * The auction list's rules without Zod (auctions.ts adds the schemas), so the admin panel's first
 * screen (the auctions list) does not download Zod.
 */

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const SEARCH_DEBOUNCE_MS = 250;

export const AUCTION_FILTERS = ['all', 'paid', 'pending'] as const;
export type AuctionFilter = (typeof AUCTION_FILTERS)[number];

/** What besides bids keeps an auction from being deleted. */
export type AuctionHold = 'payment' | 'liveSession';
/** Why an auction cannot be deleted, in the order the server checks (bids first). */
export type DeleteBlock = 'bids' | AuctionHold;

/** Why an auction cannot be deleted: the panel disables 'Eliminar' and says why, instead of refusing after the confirmation. */
export function deleteBlock(item: { bidCount: number; heldBy: AuctionHold | null }): DeleteBlock | null {
  if (item.bidCount > 0) return 'bids';
  return item.heldBy;
}
