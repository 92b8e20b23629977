import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { AuctionDetail } from '../../domain/auctions.js';
import {
  type LiveSessionDetail,
  type LiveSessionList,
  type LotUpdateInput,
  PICKER_DEBOUNCE_MS,
  type PickerAnswer,
  type QuickAuctionInput,
  type SessionCreateInput,
  type SessionUpdateInput,
} from '../../domain/live.js';
import { auctionKeys } from './auctions';
import { api, isApiError } from './client';
import { fetchLiveSession, type LiveSessionData, liveKeys, liveSessionPath } from './live';
import { acceptDetail, pickerKeyPart } from './live-hub-cache';
import { useResync } from './socket';

/**
 * The Live Hub's own calls (the seller's side): the scoped session list, the session's changes,
 * its lots, its timer, the quick auction and the picker. Every change answers the session's whole
 * detail, which goes straight into `liveKeys.detail` (the query `useLiveSession` follows).
 */
export const hubKeys = {
  list: () => [...liveKeys.all, 'hub-list'] as const,
  pickers: (sessionId: string) => [...liveKeys.all, 'picker', sessionId] as const,
  picker: (sessionId: string, q: string) => [...hubKeys.pickers(sessionId), q] as const,
};

const sessionsPath = '/api/live-sessions';

/** The server's answer to a change that would move an ended session out of `ended` without `reopen: true`. */
export const SESSION_ENDED_CODE = 'SESSION_ENDED';

export function isSessionEndedError(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && error.code === SESSION_ENDED_CODE;
}

/** One submission of a creating form: its body and the Idempotency-Key its retries share. */
export interface KeyedSubmission<T> {
  input: T;
  key: string;
}

const withKey = (key: string) => ({ 'Idempotency-Key': key });

function storeDetail(queryClient: QueryClient, detail: LiveSessionDetail): void {
  const receivedAt = Date.now();
  queryClient.setQueryData<LiveSessionData | null>(liveKeys.detail(detail.session.id), (cached) => acceptDetail(cached, detail, receivedAt));
  // The list shows titles, statuses and lot counts: any change may touch them.
  void queryClient.invalidateQueries({ queryKey: hubKeys.list() });
}

/**
 * The loaded session as the cache holds it (kept current by `useLiveSession` where the session is
 * followed), read without fetching or joining its room again: a window asks what it needs of it.
 */
export function useCachedSession(id: string | null): LiveSessionData | null | undefined {
  const query = useQuery({
    queryKey: liveKeys.detail(id ?? ''),
    queryFn: ({ signal }) => fetchLiveSession(id ?? '', signal),
    enabled: false,
  });
  return id ? query.data : undefined;
}

/** GET /api/live-sessions: the sessions in the user's scope (SPEC §6), by scheduledAt ascending. */
export function useHubSessions() {
  const queryClient = useQueryClient();
  useResync(() => void queryClient.invalidateQueries({ queryKey: hubKeys.list() }));
  return useQuery({
    queryKey: hubKeys.list(),
    queryFn: ({ signal }) => api.get<LiveSessionList>(sessionsPath, signal),
  });
}

export function useCreateSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: KeyedSubmission<SessionCreateInput>) => api.post<LiveSessionDetail>(sessionsPath, input, withKey(key)),
    onSuccess: (detail) => storeDetail(queryClient, detail),
  });
}

export function useUpdateSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: SessionUpdateInput }) => api.put<LiveSessionDetail>(liveSessionPath(id), input),
    onSuccess: (detail) => storeDetail(queryClient, detail),
  });
}

export function useDeleteSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<{ id: string }>(liveSessionPath(id)),
    onSuccess: ({ id }) => {
      queryClient.setQueryData(liveKeys.detail(id), null);
      void queryClient.invalidateQueries({ queryKey: hubKeys.list() });
    },
  });
}

/** The lot calls of one session (SPEC §3 lots): add, remove, reorder, set current, timer. */
export function useLotActions(sessionId: string) {
  const queryClient = useQueryClient();
  const base = liveSessionPath(sessionId);
  const onSuccess = (detail: LiveSessionDetail) => storeDetail(queryClient, detail);
  const add = useMutation({
    mutationFn: (auctionId: string) => api.post<LiveSessionDetail>(`${base}/lots`, { auctionId }),
    onSuccess: (detail) => {
      onSuccess(detail);
      void queryClient.invalidateQueries({ queryKey: hubKeys.pickers(sessionId) });
    },
  });
  const remove = useMutation({
    mutationFn: (lotId: string) => api.del<LiveSessionDetail>(`${base}/lots/${encodeURIComponent(lotId)}`),
    onSuccess: (detail) => {
      onSuccess(detail);
      void queryClient.invalidateQueries({ queryKey: hubKeys.pickers(sessionId) });
    },
  });
  const reorder = useMutation({
    mutationFn: (lotIds: string[]) => api.put<LiveSessionDetail>(`${base}/lots/order`, { lotIds }),
    onSuccess,
  });
  const setCurrent = useMutation({
    // `reopen` only once the seller agreed to open an ended session again.
    mutationFn: ({ lotId, reopen }: { lotId: string; reopen?: boolean }) =>
      api.post<LiveSessionDetail>(`${base}/current`, reopen ? { lotId, reopen: true } : { lotId }),
    onSuccess,
  });
  const timer = useMutation({
    mutationFn: (seconds: number) => api.post<LiveSessionDetail>(`${base}/timer`, { seconds }),
    onSuccess,
  });
  /** 'Siguiente lote': the next queued lot becomes current and its timer starts, in one server transaction. */
  const next = useMutation({
    mutationFn: (opts: { reopen?: boolean } = {}) => api.post<LiveSessionDetail>(`${base}/next`, opts.reopen ? { reopen: true } : {}),
    onSuccess,
  });
  /** 'Volver a subastar': an unsold lot goes back in the queue. */
  const requeue = useMutation({
    mutationFn: (lotId: string) => api.post<LiveSessionDetail>(`${base}/lots/${encodeURIComponent(lotId)}/requeue`, {}),
    onSuccess,
  });
  /** A lot's own timer format (null fields follow the session's). */
  const format = useMutation({
    mutationFn: ({ lotId, input }: { lotId: string; input: LotUpdateInput }) => api.put<LiveSessionDetail>(`${base}/lots/${encodeURIComponent(lotId)}`, input),
    onSuccess,
  });
  return { add, remove, reorder, setCurrent, timer, next, requeue, format };
}

export interface QuickAuctionAnswer {
  auction: AuctionDetail;
  detail: LiveSessionDetail | null;
}

/** 'Agregar subasta rápida' (SPEC §5): 201 with the auction, and the session when it became a lot. */
export function useQuickAuction(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key, reopen }: KeyedSubmission<QuickAuctionInput> & { reopen?: boolean }) =>
      api.post<QuickAuctionAnswer>(`${liveSessionPath(sessionId)}/quick-auction`, reopen ? { ...input, reopen: true } : input, withKey(key)),
    onSuccess: (answer) => {
      if (answer.detail) storeDetail(queryClient, answer.detail);
      void queryClient.invalidateQueries({ queryKey: auctionKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: hubKeys.pickers(sessionId) });
    },
  });
}

/**
 * 'Añadir Lote' (SPEC §5 "Auction picker search"): what is typed is searched 300 ms after the last
 * key; under 2 characters the default list. The previous answer stays on screen while the next loads.
 */
export function usePicker(sessionId: string, typed: string, enabled: boolean) {
  const [debounced] = useDebouncedValue(typed, PICKER_DEBOUNCE_MS);
  const q = pickerKeyPart(debounced);
  const query = useQuery({
    queryKey: hubKeys.picker(sessionId, q),
    queryFn: ({ signal }) => api.get<PickerAnswer>(`${liveSessionPath(sessionId)}/picker?${new URLSearchParams({ q })}`, signal),
    enabled: enabled && Boolean(sessionId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  return { ...query, searched: q, isDebouncing: pickerKeyPart(typed) !== q };
}

/**
 * 'Iniciar' / 'Detener' on the server (SPEC §4): live with streamType and lastStreamStart, or
 * scheduled with lastStreamStop. Called once the provider accepted (or dropped) the seller's media.
 * Starting an ended session needs `reopen` (the seller was asked first).
 */
export function useStreamActions() {
  const queryClient = useQueryClient();
  return useCallback(
    async (sessionId: string, action: 'start' | 'stop', opts: { reopen?: boolean } = {}) => {
      const detail = await api.post<LiveSessionDetail>(`${liveSessionPath(sessionId)}/stream/${action}`, opts.reopen ? { reopen: true } : {});
      storeDetail(queryClient, detail);
      return detail;
    },
    [queryClient],
  );
}

/**
 * 'Detener' as the page goes (the tab closes or reloads, another screen of the app takes the Hub's
 * place): sent with `keepalive`, so the browser delivers it after the page is gone, and nobody
 * waits for its answer. `startedAt` is the lastStreamStart the page's own 'Iniciar' got. The server also stops a broadcast whose publisher stays gone
 * (features/live/show/publisher-watch.ts) for when even this cannot be sent (a crash, no signal).
 */
export function stopStreamOnLeave(sessionId: string, startedAt: number | null): void {
  void fetch(`${liveSessionPath(sessionId)}/stream/stop`, {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    // Only the broadcast this page started: one another tab or device started since carries on.
    body: JSON.stringify(startedAt === null ? {} : { startedAt }),
  }).catch(() => {});
}
