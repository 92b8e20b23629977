import type { IncrementBand, TimerMode } from '../../domain/bid-rules.js';
import type { AuctionLiveState } from '../../domain/bidding.js';

/**
 * The rows the bid engine's SQL functions answer (src/server/db/functions/), private fields
 * included. Below the features: the bids and live features read them, and the publisher carries
 * them to the bid broadcaster.
 */

/** The auction as the engine's SQL functions describe it (auction_bid_state, src/server/db/functions/auction-bid-state.sql): private fields included. */
export interface EngineState {
  id: string;
  name: string;
  companyId: string;
  version: number;
  status: AuctionLiveState['status'];
  currentPrice: number | null;
  bidCount: number;
  startingPrice: number;
  buyNowPrice: number | null;
  endTime: number | null;
  leaderId: string | null;
  leaderMax: number | null;
  winnerId: string | null;
  winnerName: string | null;
  /** The flat increment; with incrementBands the band of the price decides (domain/bid-rules.ts incrementAt). */
  minIncrement: number;
  incrementBands: IncrementBand[] | null;
  timerMode: TimerMode;
  /** The window W in force (0 under suddenDeath). */
  antiSnipeSeconds: number;
  /** Where a leading bid inside the window sets the clock, in seconds. */
  counterBidResetSeconds: number;
  serverNow: number;
}

/** One history line as the engine returns it (bid_line, src/server/db/functions/bid-line.sql). */
export interface EngineLine {
  seq: number;
  bidderId: string;
  bidderName: string;
  amount: number;
  isAutomatic: boolean;
  createdAt: number;
}
