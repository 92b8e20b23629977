import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { LotView } from '../../../domain/live.js';
import { liveKeys } from '../../api/live';
import { useBidding } from '../bidding/use-bidding';
import type { LiveNotice } from '../bidding/use-live-notices';

interface LotBiddingOptions {
  sessionId: string;
  lot: LotView;
  /** The session's company, known to its editors only (they see 'your auction', not the form). */
  companyId: string | null;
  /** Server time minus device time, from the session's detail. */
  offset: number;
  /** The phone shows the notices over the video instead of as toasts. */
  onNotice?: (notice: LiveNotice) => void;
}

/** The bidding on the lot on the block, as both layouts of the live page run it. */
export function useLotBidding({ sessionId, lot, companyId, offset, onNotice }: LotBiddingOptions) {
  const queryClient = useQueryClient();
  // The lot's close may reach the session room first or not at all (a sleeping phone): ask for both.
  const onOverdue = useCallback(() => void queryClient.invalidateQueries({ queryKey: liveKeys.detail(sessionId) }), [queryClient, sessionId]);
  return useBidding({
    auctionId: lot.auctionId,
    auctionName: lot.auction.name,
    companyId,
    source: { state: lot.auction.state, offset, isAuthoritative: true },
    onOverdue,
    onNotice,
  });
}
