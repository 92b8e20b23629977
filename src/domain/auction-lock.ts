import type { AuctionStatus, Condicion } from './auctions.js';

/**
 * Once an auction has a bid, nothing bidders relied on may change. The server refuses
 * such an edit inside the transaction that holds the auction row; the form runs the same rule to
 * show the locks before Save. Codes are catalogue keys, like ZAuctionInput's.
 */

/** What bidders saw: the auction as stored (endTime in epoch ms). */
export interface LockableAuction {
  name: string;
  description: string;
  condicion: Condicion | null;
  marca: string | null;
  envio: string | null;
  startingPrice: number;
  buyNowPrice: number | null;
  endTime: number | null;
  images: readonly string[];
  status: AuctionStatus;
}

/** The edit as validated; an omitted status keeps the stored one. */
export type LockableEdit = Omit<LockableAuction, 'status'> & { status?: AuctionStatus | undefined };

/**
 * Frozen outright once there is a bid. Marca and envío describe the item and what it costs to get
 * it, so they freeze too; the category only files it, so it stays editable.
 */
export const BID_LOCKED_FIELDS = ['name', 'description', 'condicion', 'marca', 'envio', 'startingPrice', 'status'] as const;
export type BidLockedField = (typeof BID_LOCKED_FIELDS)[number];

/** Fields that may still move in one direction: end time later, buy-now removed, images added. */
export type BidLimitedField = 'endTime' | 'buyNowPrice' | 'images';

export const LOCK_CODES = ['lockedByBids', 'endTimeOnlyLater', 'buyNowOnlyRemove', 'imagesKeepExisting'] as const;
export type LockCode = (typeof LOCK_CODES)[number];
export type LockErrors = Partial<Record<BidLockedField | BidLimitedField, LockCode>>;

/** The form sends the whole auction: blank and missing text are the same, and surrounding spaces are not a change. */
const text = (value: string | null | undefined): string => (value ?? '').trim();

/** Later or equal; with no end time stored (a live lot, timed from the Live Hub) none may be set here, and a set one may not be cleared. */
export function isEndTimeAllowed(before: number | null, after: number | null): boolean {
  if (before === null) return after === null;
  return after !== null && after >= before;
}

/** The field errors an edit would cause; empty when it may be saved (always so without bids). */
export function lockedChanges(before: LockableAuction, edit: LockableEdit, opts: { hasBids: boolean }): LockErrors {
  if (!opts.hasBids) return {};
  const errors: LockErrors = {};
  for (const field of ['name', 'description', 'marca', 'envio'] as const) {
    if (text(before[field]) !== text(edit[field])) errors[field] = 'lockedByBids';
  }
  if ((before.condicion || null) !== (edit.condicion || null)) errors.condicion = 'lockedByBids';
  if (before.startingPrice !== edit.startingPrice) errors.startingPrice = 'lockedByBids';
  if (edit.status !== undefined && edit.status !== before.status) errors.status = 'lockedByBids';
  if (!isEndTimeAllowed(before.endTime, edit.endTime)) errors.endTime = 'endTimeOnlyLater';
  if (edit.buyNowPrice !== null && edit.buyNowPrice !== before.buyNowPrice) errors.buyNowPrice = 'buyNowOnlyRemove';
  // Photos may be added (and reordered); every photo bidders saw stays.
  if (before.images.some((url) => !edit.images.includes(url))) errors.images = 'imagesKeepExisting';
  return errors;
}
