import { createHmac } from 'node:crypto';
import { deriveAuctionStatus } from '../../../domain/auctions.js';
import { type AuctionLiveState, type BidderView, type BidView, maskName, nextMinimumBid } from '../../../domain/bidding.js';

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
  minIncrement: number;
  antiSnipeSeconds: number;
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

/**
 * Builds what leaves the server from the engine's rows: names masked, bidder ids replaced by a
 * per-auction pseudonym, the leader's maximum dropped. The pseudonym is keyed with the server
 * secret, so it cannot be reversed into a user id or linked across auctions.
 */
export function createBidPresenter(secret: string) {
  const tagKey = createHmac('sha256', secret).update('bidder-tag').digest();

  function tag(auctionId: string, userId: string): string {
    return createHmac('sha256', tagKey).update(`${auctionId}:${userId}`).digest('base64url').slice(0, 10);
  }

  function state(s: EngineState): AuctionLiveState {
    const status = deriveAuctionStatus(s.status, s.endTime, s.serverNow);
    return {
      id: s.id,
      version: s.version,
      status,
      currentPrice: s.currentPrice,
      bidCount: s.bidCount,
      startingPrice: s.startingPrice,
      buyNowPrice: s.buyNowPrice,
      nextMinimum: nextMinimumBid(s),
      minIncrement: s.minIncrement,
      antiSnipeSeconds: s.antiSnipeSeconds,
      endTime: s.endTime,
      leaderTag: s.leaderId ? tag(s.id, s.leaderId) : null,
      winnerName: s.status === 'ended' && s.winnerId ? maskName(s.winnerName) : null,
      winnerTag: s.status === 'ended' && s.winnerId ? tag(s.id, s.winnerId) : null,
      serverNow: s.serverNow,
    };
  }

  function line(auctionId: string, l: EngineLine): BidView {
    return {
      seq: l.seq,
      bidderName: maskName(l.bidderName),
      bidderTag: tag(auctionId, l.bidderId),
      amount: l.amount,
      isAutomatic: l.isAutomatic,
      createdAt: l.createdAt,
    };
  }

  /** The viewer's own tag, and their maximum only while they lead with it. */
  function me(s: EngineState, userId: string): BidderView {
    return { tag: tag(s.id, userId), myMaxAmount: s.leaderId === userId && s.status !== 'ended' ? s.leaderMax : null };
  }

  return { tag, state, line, me };
}
export type BidPresenter = ReturnType<typeof createBidPresenter>;
