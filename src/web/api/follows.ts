import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { AlertShow, FollowAnswer, FollowedSeller, MyFollowing, ReminderAnswer } from '../../domain/alerts.js';
import { api } from './client';

export type { AlertShow, FollowAnswer, FollowedSeller, ReminderAnswer };
/** GET /api/me/following: the sellers followed and the shows bookmarked (*Avísame*). */
export type Following = MyFollowing;

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
