import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PAYMENT_STATUS_EVENT } from '../../domain/realtime.js';
import type { ShippingRulesInput, ShowBillAnswer, ShowBillOverview, ShowLinksAnswer, ShowShipping } from '../../domain/show-billing.js';
import { api } from './client';
import { invalidateBilling } from './payments';
import { useResync, useSocketEvent } from './socket';

/** 'Cobrar el show' in the Live Hub: the show's shipping rules, who is left to bill, and its bills. */
export const showBillingKeys = {
  all: ['show-billing'] as const,
  overview: (sessionId: string) => [...showBillingKeys.all, sessionId] as const,
};

const path = (sessionId: string, rest: string) => `/api/live-sessions/${encodeURIComponent(sessionId)}/${rest}`;

/** GET /api/live-sessions/{id}/bill; refetched when a payment of the company changes (a buyer pays) and after a reconnection. */
export function useShowBill(sessionId: string) {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: showBillingKeys.overview(sessionId) });
  useSocketEvent(PAYMENT_STATUS_EVENT, refresh);
  useResync(refresh);
  return useQuery({
    queryKey: showBillingKeys.overview(sessionId),
    queryFn: ({ signal }) => api.get<ShowBillOverview>(path(sessionId, 'bill'), signal),
  });
}

function useShowMutation<I, O>(sessionId: string, fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      void invalidateBilling(queryClient);
      await queryClient.invalidateQueries({ queryKey: showBillingKeys.overview(sessionId) });
    },
  });
}

/** PUT /api/live-sessions/{id}/shipping. */
export const useSaveShowShipping = (sessionId: string) =>
  useShowMutation(sessionId, (input: Partial<ShippingRulesInput>) => api.put<ShowShipping>(path(sessionId, 'shipping'), input));

/** POST /api/live-sessions/{id}/bill ('Cobrar el show'). */
export const useBillShow = (sessionId: string) => useShowMutation(sessionId, () => api.post<ShowBillAnswer>(path(sessionId, 'bill')));

/** POST /api/live-sessions/{id}/bill/links ('Generar enlaces'). */
export const useMakeShowLinks = (sessionId: string) => useShowMutation(sessionId, () => api.post<ShowLinksAnswer>(path(sessionId, 'bill/links')));
