import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ShowSummary } from '../../domain/show-summary.js';
import { api } from './client';

/** A show's summary (the Hub's 'Resumen del show'): one query per session. */
export const showSummaryKeys = {
  all: ['show-summary'] as const,
  detail: (sessionId: string) => [...showSummaryKeys.all, sessionId] as const,
};

const summaryPath = (sessionId: string) => `/api/live-sessions/${encodeURIComponent(sessionId)}/summary`;

/** The CSV of the table per buyer: a plain link, so the browser downloads it with the session cookie. */
export const showSummaryCsvUrl = (sessionId: string) => `${summaryPath(sessionId)}.csv`;

/** While the show is live the summary refetches on its own this often (viewers are sampled every 5 s). */
export const LIVE_REFRESH_MS = 10_000;

/**
 * GET /api/live-sessions/{id}/summary. `isLive` refetches every LIVE_REFRESH_MS; `version` (the
 * session's, which every lot change bumps through the room's events) refetches when a lot opens,
 * sells or closes, so the summary follows the show without a request per bid.
 */
export function useShowSummary(sessionId: string, opts: { isLive: boolean; version: number }) {
  return useQuery({
    queryKey: [...showSummaryKeys.detail(sessionId), opts.version] as const,
    queryFn: ({ signal }) => api.get<ShowSummary>(summaryPath(sessionId), signal),
    placeholderData: keepPreviousData,
    refetchInterval: opts.isLive ? LIVE_REFRESH_MS : false,
    staleTime: 2_000,
  });
}
