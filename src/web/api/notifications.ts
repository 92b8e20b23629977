import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

export type NotificationKind = 'show_live' | 'show_soon' | 'application_approved' | 'application_declined';

/** One line of the bell (GET /api/notifications). Times are epoch ms. */
export interface NotificationItem {
  id: string;
  kind: NotificationKind;
  title: string;
  url: string;
  createdAt: number;
  readAt: number | null;
}

export interface NotificationsAnswer {
  items: NotificationItem[];
  unread?: number;
}

/** The user-room event that says the bell changed; it carries the unread count. */
export const NOTIFICATION_EVENT = 'notification';
export interface NotificationEvent {
  unread: number;
}

export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
};

/** The unread count: the server's when it sends one, else counted from the list. */
export function unreadCount(answer: NotificationsAnswer | undefined): number {
  if (!answer) return 0;
  if (typeof answer.unread === 'number') return answer.unread;
  return answer.items.filter((item) => item.readAt === null).length;
}

export function useNotifications(enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.list(),
    queryFn: ({ signal }) => api.get<NotificationsAnswer>('/api/notifications', signal),
    enabled,
    refetchOnWindowFocus: true,
  });
}

/** POST /api/notifications/read { ids }: marks them read, here at once and then from the server. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => api.post<unknown>('/api/notifications/read', { ids }),
    onMutate: (ids) => {
      queryClient.setQueryData<NotificationsAnswer>(notificationKeys.list(), (old) => {
        if (!old) return old;
        const now = Date.now();
        const items = old.items.map((item) => (ids.includes(item.id) && item.readAt === null ? { ...item, readAt: now } : item));
        return { ...old, items, unread: items.filter((item) => item.readAt === null).length };
      });
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
