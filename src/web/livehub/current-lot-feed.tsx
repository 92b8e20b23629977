import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { flattenHistory } from '../api/bid-cache';
import { useAuctionLive, useBidHistory } from '../api/bids';
import { type LiveSessionData, liveCache, liveKeys } from '../api/live';
import { leaderName } from './lot-rows';

/**
 * Follows the current lot the way a buyer's phone does: its auction's room (`auctionState` after
 * every bid, anti-snipe extension and close) and its bid history (the masked names). Bids reach the
 * session's lot through `useLiveSession`; the history's state, read when the Hub joins, goes there
 * too, so a bid placed before the join is not missed. Renders nothing; keyed by auction.
 */
export function CurrentLotFeed({ sessionId, auctionId, onLeader }: { sessionId: string; auctionId: string; onLeader: (name: string | null) => void }) {
  const queryClient = useQueryClient();
  useAuctionLive(auctionId);
  const history = useBidHistory(auctionId);
  const state = history.data?.pages[0]?.state ?? null;
  const name = state ? leaderName(flattenHistory(history.data), state.leaderTag ?? state.winnerTag) : null;

  useEffect(() => {
    if (!state) return;
    queryClient.setQueryData<LiveSessionData | null>(liveKeys.detail(sessionId), (data) => liveCache.auction(data, state) ?? data);
  }, [queryClient, sessionId, state]);

  useEffect(() => onLeader(name), [name, onLeader]);
  useEffect(() => () => onLeader(null), [onLeader]);
  return null;
}
