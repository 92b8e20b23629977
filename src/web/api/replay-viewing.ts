import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ReplayAnswer, ReplayChatPage } from '../../domain/replays.js';
import { api } from './client';
import { shouldRetry } from './query-client';

/**
 * What buyers watch after a show: its replay on the show's page (GET /api/live-sessions/{id}/replay)
 * with its chat at their moments (GET …/replay/chat, asked only once the chat is opened), and a
 * bought lot's clip, the buyer's video receipt (GET /api/auctions/{id}/clip). The seller's
 * own controls over a replay (hide, delete, retry) live in replays.ts.
 */
export const replayViewingKeys = {
  all: ['replay-viewing'] as const,
  replay: (sessionId: string) => [...replayViewingKeys.all, 'replay', sessionId] as const,
  chat: (sessionId: string) => [...replayViewingKeys.all, 'replay', sessionId, 'chat'] as const,
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

export const replayChatPath = (sessionId: string, after: string | null) =>
  `${replayPath(sessionId)}/chat${after === null ? '' : `?after=${encodeURIComponent(after)}`}`;

/**
 * The replay's chat, a page at a time from its start: the lines of an ended show hardly change, so
 * they are read once; a 404 (a replay without its chat's moments, or no longer public) is final.
 */
export const replayChatQueryOptions = (sessionId: string) =>
  infiniteQueryOptions({
    queryKey: replayViewingKeys.chat(sessionId),
    queryFn: ({ pageParam, signal }) => api.get<ReplayChatPage>(replayChatPath(sessionId, pageParam), signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ReplayChatPage) => last.next,
    staleTime: Number.POSITIVE_INFINITY,
    retry: shouldRetry,
    refetchOnWindowFocus: false,
  });

/** The replay's chat, asked once it is opened: the pages read so far, and the next on `fetchNextPage`. */
export function useReplayChat(sessionId: string) {
  return useInfiniteQuery(replayChatQueryOptions(sessionId));
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
