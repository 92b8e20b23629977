import { type QueryClient, useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { ShowCard } from './sellers';

/** A show as *Mis alertas* lists it: the home's show without its lots. */
export type AlertShow = Pick<ShowCard, 'id' | 'title' | 'url' | 'sellerName' | 'sellerSlug' | 'status' | 'scheduledAt' | 'coverUrl' | 'viewerCount'> & {
  reminded: boolean;
};

/** POST/DELETE /api/sellers/{id}/follow */
export interface FollowAnswer {
  following: boolean;
  followers: number;
}

/** POST/DELETE /api/live-sessions/{id}/reminder (*Avísame*) */
export interface ReminderAnswer {
  reminded: boolean;
}

/** A seller the buyer follows, on *Mis alertas*. */
export interface FollowedSeller {
  id: string;
  slug: string | null;
  name: string;
  companyName: string | null;
  /** The show on now, if any. */
  live: AlertShow | null;
  nextShow: AlertShow | null;
}

/** GET /api/me/following */
export interface Following {
  sellers: FollowedSeller[];
  /** The shows the buyer bookmarked (*Avísame*), upcoming or live. */
  shows: AlertShow[];
}

export const followingKeys = {
  all: ['following'] as const,
};

export function useFollowing(enabled: boolean) {
  return useQuery({
    queryKey: followingKeys.all,
    queryFn: ({ signal }) => api.get<Following>('/api/me/following', signal),
    enabled,
  });
}

export function followSeller(sellerId: string, follow: boolean): Promise<FollowAnswer> {
  const path = `/api/sellers/${encodeURIComponent(sellerId)}/follow`;
  return follow ? api.post<FollowAnswer>(path) : api.del<FollowAnswer>(path);
}

export function remindShow(sessionId: string, remind: boolean): Promise<ReminderAnswer> {
  const path = `/api/live-sessions/${encodeURIComponent(sessionId)}/reminder`;
  return remind ? api.post<ReminderAnswer>(path) : api.del<ReminderAnswer>(path);
}

/**
 * After a follow or a bookmark changed: the lists that show it (the seller's page, *Mis alertas*, the
 * home's cards) are read again. Other pages' caches keep their own keys; these are the ones that
 * carry `following` or `reminded`.
 */
export function refreshAlertLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => ['sellers', 'following', 'home'].includes(String(query.queryKey[0])) });
}
