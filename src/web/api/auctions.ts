import { useQuery } from '@tanstack/react-query';
import { api, isApiError } from './client';

/**
 * What the public auction page reads from GET /api/auctions/:id. Only the fields it shows are
 * typed here; the auctions issue owns the full shape (SPEC §3).
 */
export interface AuctionSummary {
  id: string;
  name: string;
  description?: string | null;
  startingPrice?: number | null;
  endTime?: number | null;
  images?: string[] | null;
}

export const auctionKeys = {
  all: ['auctions'] as const,
  detail: (id: string) => [...auctionKeys.all, 'detail', id] as const,
};

/** A 404 is an answer (no such auction → null), not an error. */
export function usePublicAuction(id: string) {
  return useQuery({
    queryKey: auctionKeys.detail(id),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<AuctionSummary>(`/api/auctions/${encodeURIComponent(id)}`, signal);
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
  });
}
