import type { AuctionEvent } from '../../../domain/auctions.js';
import type { Realtime } from '../../realtime/index.js';

/**
 * Sent after commit (STYLE.md) to the company's panels and to the auction's public viewers. The
 * payload is the id and version only: a panel refetches what its scope allows.
 */
export function emitAuctionCreated(realtime: Realtime, auction: { id: string; companyId: string; version: number }): void {
  const event: AuctionEvent = { id: auction.id, companyId: auction.companyId, version: auction.version };
  realtime.toCompany(auction.companyId, 'auctionCreatedSuccessfully', event);
}

/** `publicRoom: false` when the public room hears of the change another way (bids send `auctionState`). */
export function emitAuctionUpdated(
  realtime: Realtime,
  auction: { id: string; companyId: string; version: number },
  opts: { deleted?: boolean; publicRoom?: boolean } = {},
): void {
  const event: AuctionEvent = { id: auction.id, companyId: auction.companyId, version: auction.version, ...(opts.deleted ? { deleted: true } : {}) };
  realtime.toCompany(auction.companyId, 'auctionUpdate', event);
  if (opts.publicRoom !== false) realtime.toAuction(auction.id, 'auctionUpdate', event);
}
