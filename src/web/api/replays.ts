import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NO_REPLAY, type ReplayAnswer, type ReplayVisibility } from '../../domain/replays.js';
import { api } from './client';
import { liveSessionPath } from './live';
import { replayViewingKeys } from './replay-viewing';

export type { ReplayAnswer };
/** What the server answers for a show without a replay (and after one is deleted). */
export { NO_REPLAY };

export const replayKeys = {
  all: ['replays'] as const,
  detail: (sessionId: string) => [...replayKeys.all, sessionId] as const,
};

const replayPath = (sessionId: string) => `${liveSessionPath(sessionId)}/replay`;

/** While a replay is recorded or made, its state is asked again this often. */
export const REPLAY_POLL_MS = 2_000;

/** Polls only while the replay is still coming: recorded, or being made into its MP4. */
export function replayRefetchInterval(replay: ReplayAnswer | undefined): number | false {
  return replay?.status === 'recording' || replay?.status === 'processing' ? REPLAY_POLL_MS : false;
}

/**
 * A show's replay. `enabled`: the screen shows it (a hidden tab does not poll either). `revision`
 * (the show's status, say) asks again when it changes: a show that goes live or ends starts or
 * finishes its recording, which no room event announces.
 */
export function useSessionReplay(sessionId: string, opts: { enabled?: boolean; revision?: string | number } = {}) {
  return useQuery({
    queryKey: [...replayKeys.detail(sessionId), opts.revision ?? null] as const,
    queryFn: ({ signal }) => api.get<ReplayAnswer>(replayPath(sessionId), signal),
    enabled: opts.enabled ?? true,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => replayRefetchInterval(query.state.data),
  });
}

/**
 * Puts the server's answer in every revision of the show's replay query, and has the show's public
 * page (its own cache of the same answer, replay-viewing.ts, with its chat) read it again: a seller
 * who hides or deletes the replay and opens the page sees it gone.
 */
function storeReplay(queryClient: QueryClient, sessionId: string, replay: ReplayAnswer): void {
  queryClient.setQueriesData<ReplayAnswer>({ queryKey: replayKeys.detail(sessionId) }, replay);
  void queryClient.invalidateQueries({ queryKey: replayViewingKeys.replay(sessionId) });
}

/** PUT …/replay `{ visibility }`: 'Ocultar repetición' / 'Publicar repetición'. */
export function replayVisibilityOptions(queryClient: QueryClient, sessionId: string) {
  return {
    mutationFn: (visibility: ReplayVisibility) => api.put<ReplayAnswer>(replayPath(sessionId), { visibility }),
    onSuccess: (replay: ReplayAnswer) => storeReplay(queryClient, sessionId, replay),
  };
}

/** DELETE …/replay: its files leave storage; the show then has none. */
export function replayDeleteOptions(queryClient: QueryClient, sessionId: string) {
  return {
    mutationFn: () => api.del<null>(replayPath(sessionId)),
    onSuccess: () => {
      storeReplay(queryClient, sessionId, NO_REPLAY);
      void queryClient.invalidateQueries({ queryKey: replayKeys.detail(sessionId) });
    },
  };
}

/** POST …/replay/retry (a failed replay only): answers it as 'processing', which polls again. */
export function replayRetryOptions(queryClient: QueryClient, sessionId: string) {
  return {
    mutationFn: () => api.post<ReplayAnswer>(`${replayPath(sessionId)}/retry`, {}),
    onSuccess: (replay: ReplayAnswer) => storeReplay(queryClient, sessionId, replay),
  };
}

export function useReplayVisibility(sessionId: string) {
  return useMutation(replayVisibilityOptions(useQueryClient(), sessionId));
}

export function useDeleteReplay(sessionId: string) {
  return useMutation(replayDeleteOptions(useQueryClient(), sessionId));
}

export function useRetryReplay(sessionId: string) {
  return useMutation(replayRetryOptions(useQueryClient(), sessionId));
}
