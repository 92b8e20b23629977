import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { AuctionFilter } from '../../domain/auction-list.js';
import type { AuctionDetail, AuctionInput, AuctionListResponse, PublicAuction } from '../../domain/auctions.js';
import type { AuctionEvent } from '../../domain/realtime.js';
import { api, isApiError } from './client';
import { useResync, useSocketEvent } from './socket';

export interface AuctionListParams {
  filter: AuctionFilter;
  search: string;
  page: number;
  pageSize: number;
}

export const auctionKeys = {
  all: ['auctions'] as const,
  lists: () => [...auctionKeys.all, 'list'] as const,
  list: (params: AuctionListParams) => [...auctionKeys.lists(), params] as const,
  detail: (id: string) => [...auctionKeys.all, 'detail', id] as const,
};

function listUrl(params: AuctionListParams): string {
  const query = new URLSearchParams({ filter: params.filter, page: String(params.page), pageSize: String(params.pageSize) });
  if (params.search.trim()) query.set('search', params.search.trim());
  return `/api/auctions?${query}`;
}

/** One page of the admin table; the previous page stays on screen while the next loads. */
export function useAuctionList(params: AuctionListParams) {
  return useQuery({
    queryKey: auctionKeys.list(params),
    queryFn: ({ signal }) => api.get<AuctionListResponse>(listUrl(params), signal),
    placeholderData: keepPreviousData,
  });
}

/** A 404 is an answer (no such auction → null), not an error. */
export function usePublicAuction(id: string) {
  return useQuery({
    queryKey: auctionKeys.detail(id),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<PublicAuction | AuctionDetail>(`/api/auctions/${encodeURIComponent(id)}`, signal);
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** The edit form reads the full record (the panel's own auctions carry the private fields). */
export function useAuctionDetail(id: string | null) {
  return useQuery({
    queryKey: auctionKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<AuctionDetail>(`/api/auctions/${encodeURIComponent(id ?? '')}`, signal),
    enabled: Boolean(id),
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
}

export function useCreateAuction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AuctionInput) => api.post<AuctionDetail>('/api/auctions', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auctionKeys.all }),
  });
}

export function useUpdateAuction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: AuctionInput }) => api.put<AuctionDetail>(`/api/auctions/${encodeURIComponent(id)}`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auctionKeys.all }),
  });
}

export function useDeleteAuction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<{ id: string }>(`/api/auctions/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auctionKeys.all }),
  });
}

/** While auctions are being bid on, the list refetches at most this often. */
const LIST_REFRESH_MS = 500;

/**
 * SPEC §4 refresh triggers: the list refetches on auctionUpdate and auctionCreatedSuccessfully.
 * A busy company sends many updates a second, so refetches are merged: the first at once, the
 * rest at most one per LIST_REFRESH_MS.
 */
export function useAuctionListRefresh(): void {
  const queryClient = useQueryClient();
  const throttle = useRef<{ last: number; timer: ReturnType<typeof setTimeout> | null }>({ last: 0, timer: null });
  useEffect(() => {
    const state = throttle.current;
    return () => {
      if (state.timer) clearTimeout(state.timer);
    };
  }, []);
  const refresh = (event: AuctionEvent) => {
    if (event?.id) void queryClient.invalidateQueries({ queryKey: auctionKeys.detail(event.id) });
    const state = throttle.current;
    if (state.timer) return;
    const run = () => {
      state.timer = null;
      state.last = Date.now();
      void queryClient.invalidateQueries({ queryKey: auctionKeys.lists() });
    };
    const wait = state.last + LIST_REFRESH_MS - Date.now();
    if (wait <= 0) run();
    else state.timer = setTimeout(run, wait);
  };
  useSocketEvent('auctionUpdate', refresh);
  useSocketEvent('auctionCreatedSuccessfully', refresh);
  // Changes made while the socket was down reach the list on the next connection.
  useResync(() => void queryClient.invalidateQueries({ queryKey: auctionKeys.all }));
}
