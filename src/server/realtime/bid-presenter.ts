import { createHmac } from 'node:crypto';
import { deriveAuctionStatus } from '../../domain/auctions.js';
import { incrementAt, nextMinimumBid } from '../../domain/bid-rules.js';
import { type AuctionLiveState, type BidderView, type BidView, maskName } from '../../domain/bidding.js';
import type { EngineLine, EngineState } from '../db/engine-rows.js';

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
      minIncrement: incrementAt(s.currentPrice ?? s.startingPrice, s),
      incrementBands: s.incrementBands ?? null,
      timerMode: s.timerMode,
      antiSnipeSeconds: s.antiSnipeSeconds,
      counterBidResetSeconds: s.counterBidResetSeconds,
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
