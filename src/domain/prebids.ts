import { z } from 'zod';
import type { SessionStatus } from './live-public.js';
import { MAX_PRICE } from './money.js';

/**
 * 'Puja anticipada': a buyer's maximum on a show's lot before it goes on the block. It waits until
 * the seller opens the lot; then every waiting maximum enters the bid engine by the time it was
 * left (the earlier wins a tie), so the lot opens at the proxy price with its leader. A maximum may
 * be raised at any time before the opening, and withdrawn only until the show goes live.
 */

/** POST /api/auctions/{id}/prebids: the buyer's maximum, in whole pesos. */
export const ZPrebidInput = z
  .object({
    maxAmount: z
      .number({ error: 'prebidRequired' })
      .int({ error: 'prebidInteger' })
      .min(1, { error: 'prebidPositive' })
      .max(MAX_PRICE, { error: 'prebidTooHigh' }),
  })
  .strict();
export type PrebidInput = z.input<typeof ZPrebidInput>;

/** What the opening made of a pre-bid: it leads, it was overtaken, or the engine refused it. */
export const PREBID_OUTCOMES = ['leading', 'outbid', 'BID_TOO_LOW', 'BUYER_BLOCKED', 'PROFILE_INCOMPLETE', 'OWN_AUCTION', 'AUCTION_CLOSED'] as const;
export type PrebidOutcome = (typeof PREBID_OUTCOMES)[number];

/** The buyer's own pre-bid on one auction (no one else's maximum ever leaves the server). */
export interface MyPrebid {
  auctionId: string;
  maxAmount: number;
  /** epoch ms: its place in line at the opening (a raise keeps it). */
  createdAt: number;
  /** epoch ms */
  updatedAt: number;
  /** The show is live (or the lot opened): it can no longer be withdrawn, only raised. */
  binding: boolean;
  /** epoch ms: when the lot opened and it entered the engine; null while it waits. */
  enteredAt: number | null;
  outcome: PrebidOutcome | null;
}

/** GET /api/auctions/{id}/prebids/mine: whether pre-bids are taken on this auction, and the buyer's own. */
export interface PrebidStatus {
  auctionId: string;
  /** The auction is a lot of a scheduled or live show that has not opened yet. */
  open: boolean;
  sessionId: string | null;
  sessionStatus: SessionStatus | null;
  /** The least maximum taken: the auction's starting price. */
  minimum: number;
  /** null when signed out or without a pre-bid. */
  mine: MyPrebid | null;
}

/** GET /api/live-sessions/{id}/prebids/mine: the buyer's own pre-bids on the show's lots. */
export interface MySessionPrebids {
  sessionId: string;
  items: MyPrebid[];
}

/** The answer of POST /api/auctions/{id}/prebids (201 made, 200 raised or repeated). */
export interface PrebidAnswer {
  prebid: MyPrebid;
  status: PrebidStatus;
}

/** To each pre-bidder's own room when the lot opens: whether their maximum leads. */
export interface PrebidResultEvent {
  auctionId: string;
  auctionName: string;
  sessionId: string | null;
  outcome: PrebidOutcome;
  maxAmount: number;
  /** The lot's opening price. */
  currentPrice: number | null;
}
