import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReminderListResponse, ReminderView } from '../../domain/reminders.js';
import { api } from './client';
import { paymentKeys } from './payments';

/** Under the payments' root: a billing change (a bill paid, canceled) refreshes the reminders too. */
export const reminderKeys = {
  all: [...paymentKeys.all, 'reminders'] as const,
  due: () => [...reminderKeys.all, 'due'] as const,
};

/** GET /api/reminders?status=due: "Recordatorios pendientes". Refetched each minute, as reminders fall due with time. */
export function useDueReminders() {
  return useQuery({
    queryKey: reminderKeys.due(),
    queryFn: ({ signal }) => api.get<ReminderListResponse>('/api/reminders?status=due', signal),
    refetchInterval: 60_000,
  });
}

/** POST /api/reminders/{id}/sent: idempotent on the server. */
export function useMarkReminderSent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<{ reminder: ReminderView }>(`/api/reminders/${encodeURIComponent(id)}/sent`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reminderKeys.all }),
  });
}
