import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MySessionPrebids, PrebidAnswer, PrebidStatus } from '../../domain/prebids.js';
import { api } from './client';

/**
 * 'Puja anticipada' (domain/prebids.ts): the buyer's own maximum on a show's lot before it opens.
 * The auction page reads one auction's status; the live page reads the buyer's pre-bids on the
 * whole show in one request. A change refreshes both.
 */
export const prebidKeys = {
  all: ['prebids'] as const,
  auction: (auctionId: string) => [...prebidKeys.all, 'auction', auctionId] as const,
  session: (sessionId: string) => [...prebidKeys.all, 'session', sessionId] as const,
};

const auctionPath = (auctionId: string) => `/api/auctions/${encodeURIComponent(auctionId)}/prebids`;

/** GET /api/auctions/{id}/prebids/mine: whether the auction takes pre-bids, and the viewer's own. */
export function usePrebidStatus(auctionId: string, enabled: boolean) {
  return useQuery({
    queryKey: prebidKeys.auction(auctionId),
    queryFn: ({ signal }) => api.get<PrebidStatus>(`${auctionPath(auctionId)}/mine`, signal),
    enabled,
  });
}

/** GET /api/live-sessions/{id}/prebids/mine: the signed-in buyer's pre-bids on the show's lots. */
export function useSessionPrebids(sessionId: string, enabled: boolean) {
  return useQuery({
    queryKey: prebidKeys.session(sessionId),
    queryFn: ({ signal }) => api.get<MySessionPrebids>(`/api/live-sessions/${encodeURIComponent(sessionId)}/prebids/mine`, signal),
    enabled,
  });
}

/** POST (leave or raise) and DELETE (withdraw) the buyer's pre-bid on one auction. */
export function usePrebidActions(auctionId: string) {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: prebidKeys.all });
  const place = useMutation({
    mutationFn: (maxAmount: number) => api.post<PrebidAnswer>(auctionPath(auctionId), { maxAmount }),
    onSuccess: (answer) => {
      queryClient.setQueryData(prebidKeys.auction(auctionId), answer.status);
      refresh();
    },
  });
  const withdraw = useMutation({
    mutationFn: () => api.del<null>(`${auctionPath(auctionId)}/mine`),
    onSuccess: refresh,
  });
  return { place, withdraw };
}
