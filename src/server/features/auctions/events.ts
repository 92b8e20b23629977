import type { DomainEvent } from '../../realtime/publisher.js';

type AuctionRow = { id: string; companyId: string; version: number };

/**
 * What an auction change tells the company's panels and the auction's public viewers, once
 * published after commit (realtime/publisher.ts): the id and version only, so a panel refetches
 * what its scope allows.
 */
export const auctionCreated = (row: AuctionRow): DomainEvent => ({ type: 'auctionCreated', auction: ref(row) });
export const auctionUpdated = (row: AuctionRow): DomainEvent => ({ type: 'auctionUpdated', auction: ref(row) });
/** The deleted row's version plus one, so a client holding the last version sees a newer one. */
export const auctionDeleted = (row: AuctionRow): DomainEvent => ({ type: 'auctionDeleted', auction: { ...ref(row), version: row.version + 1 } });

const ref = (row: AuctionRow) => ({ id: row.id, companyId: row.companyId, version: row.version });
