import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExpiredAnswer, StrikesAnswer } from '../../domain/unpaid.js';
import { api } from './client';
import { invalidateBilling, paymentKeys } from './payments';

/**
 * When a buyer does not pay: the seller's expired bills and struck buyers (under the payments
 * root, so any billing change refreshes them). A buyer's own warning is public/bidding/unpaid-warning.tsx (it stays out of the panel's modules).
 */
export const unpaidKeys = {
  all: [...paymentKeys.all, 'unpaid'] as const,
  expired: () => [...unpaidKeys.all, 'expired'] as const,
  strikes: () => [...unpaidKeys.all, 'strikes'] as const,
};

const lotPath = (paymentId: string, auctionId: string, action: string) =>
  `/api/unpaid/expired/${encodeURIComponent(paymentId)}/lots/${encodeURIComponent(auctionId)}/${action}`;

/** GET /api/unpaid/expired: expired bills in the panel user's scope, and late payments to refund. */
export function useExpiredBills() {
  return useQuery({ queryKey: unpaidKeys.expired(), queryFn: ({ signal }) => api.get<ExpiredAnswer>('/api/unpaid/expired', signal) });
}

/** GET /api/unpaid/strikes: the company's buyers with strikes. */
export function useStruckBuyers() {
  return useQuery({ queryKey: unpaidKeys.strikes(), queryFn: ({ signal }) => api.get<StrikesAnswer>('/api/unpaid/strikes', signal) });
}

export type LotChoice = { kind: 'secondChance' } | { kind: 'futureShow'; sessionId: string } | { kind: 'release' };

/** One choice for one lot of an expired bill; refreshes billing (a Segunda oportunidad makes a bill) on success and failure. */
export function useLotChoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ paymentId, auctionId, choice }: { paymentId: string; auctionId: string; choice: LotChoice }) => {
      if (choice.kind === 'secondChance') return api.post<unknown>(lotPath(paymentId, auctionId, 'second-chance'));
      if (choice.kind === 'futureShow') return api.post<unknown>(lotPath(paymentId, auctionId, 'future-show'), { sessionId: choice.sessionId });
      return api.post<unknown>(lotPath(paymentId, auctionId, 'release'));
    },
    onSettled: () => invalidateBilling(queryClient),
  });
}

/** POST /api/unpaid/strikes/{userId}/lift ("Quitar bloqueo"). */
export function useLiftStrikes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.post<unknown>(`/api/unpaid/strikes/${encodeURIComponent(userId)}/lift`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: unpaidKeys.all }),
  });
}
