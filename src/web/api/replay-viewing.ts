import { useQuery } from '@tanstack/react-query';
import type { ReplayAnswer } from '../../domain/replays.js';
import { api } from './client';
import { shouldRetry } from './query-client';

/**
 * What buyers watch after a show: its replay on the show's page (GET /api/live-sessions/{id}/replay)
 * and a bought lot's clip, the buyer's video receipt (GET /api/auctions/{id}/clip). The seller's
 * own controls over a replay (hide, delete, retry) live in replays.ts.
 */
export const replayViewingKeys = {
  all: ['replay-viewing'] as const,
  replay: (sessionId: string) => [...replayViewingKeys.all, 'replay', sessionId] as const,
  clip: (auctionId: string) => [...replayViewingKeys.all, 'clip', auctionId] as const,
};

/** A replay as a buyer reads it: 'ready' with its video and chapters, 'recording' or 'processing' while it is made, else nothing to show. */
export type PublicReplay = ReplayAnswer;

/** A clip's signed address: it opens the video without a session until `expiresAt` (epoch ms). */
export interface ClipLink {
  url: string;
  durationMs: number | null;
  expiresAt: number;
}

/** While a replay is made the page asks now and then, calmly, so its progress moves and the video shows once ready. */
export const REPLAY_PENDING_POLL_MS = 20_000;

export const isReplayPending = (replay: Pick<PublicReplay, 'status'> | undefined): boolean => replay?.status === 'recording' || replay?.status === 'processing';

export const replayPath = (sessionId: string) => `/api/live-sessions/${encodeURIComponent(sessionId)}/replay`;
export const clipPath = (auctionId: string) => `/api/auctions/${encodeURIComponent(auctionId)}/clip`;

export const replayQueryOptions = (sessionId: string) => ({
  queryKey: replayViewingKeys.replay(sessionId),
  queryFn: ({ signal }: { signal?: AbortSignal }) => api.get<PublicReplay>(replayPath(sessionId), signal),
});

/** The ended show's replay; asked only once the show ended (`enabled`). */
export function usePublicReplay(sessionId: string, enabled: boolean) {
  return useQuery({
    ...replayQueryOptions(sessionId),
    enabled,
    staleTime: 60_000,
    refetchInterval: (query) => (isReplayPending(query.state.data) ? REPLAY_PENDING_POLL_MS : false),
  });
}

/** How long before its end a clip's address counts as spent: a video opened then would stop loading mid-way. */
export const CLIP_EXPIRY_MARGIN_MS = 60_000;

export const isClipExpired = (clip: Pick<ClipLink, 'expiresAt'>, now: number): boolean => now >= clip.expiresAt - CLIP_EXPIRY_MARGIN_MS;

export const clipQueryOptions = (auctionId: string) => ({
  queryKey: replayViewingKeys.clip(auctionId),
  queryFn: ({ signal }: { signal?: AbortSignal }) => api.get<ClipLink>(clipPath(auctionId), signal),
  // Asked once when the row shows: a 404 (no clip, or not the buyer's) is final; the address lasts an hour.
  staleTime: Number.POSITIVE_INFINITY,
  retry: shouldRetry,
  refetchOnWindowFocus: false,
});

/** A bought lot's clip, or its 404 when there is none for this viewer. */
export function useClipLink(auctionId: string) {
  return useQuery(clipQueryOptions(auctionId));
}
