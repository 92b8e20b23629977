import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SellerApplication, SellerApplicationInput, SellerApplicationList, SellerApplicationStatus } from '../../domain/seller-application-rules.js';
import { api } from './client';
import { meKeys } from './me';

/** *Quiero vender*: the applicant's own requests, or every request for a platform admin (GET /api/seller-applications). */
export const applicationKeys = {
  all: ['seller-applications'] as const,
  list: (status: SellerApplicationStatus | 'all') => [...applicationKeys.all, status] as const,
};

export function useSellerApplications(opts: { enabled: boolean; status?: SellerApplicationStatus | 'all' }) {
  const status = opts.status ?? 'all';
  return useQuery({
    queryKey: applicationKeys.list(status),
    queryFn: ({ signal }) =>
      api.get<SellerApplicationList>(`/api/seller-applications${status === 'all' ? '' : `?status=${encodeURIComponent(status)}`}`, signal),
    enabled: opts.enabled,
    // A decision taken meanwhile shows when the person comes back to the page.
    refetchOnWindowFocus: true,
  });
}

export function useApplyToSell() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SellerApplicationInput) => api.post<SellerApplication>('/api/seller-applications', input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: applicationKeys.all }),
  });
}

/** A platform admin's decision; the applicant's roles change on the server, so `me` is read again too. */
export function useDecideApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: { id: string; verb: 'approve' } | { id: string; verb: 'decline'; reason: string }) =>
      api.post<SellerApplication>(
        `/api/seller-applications/${encodeURIComponent(decision.id)}/${decision.verb}`,
        decision.verb === 'decline' ? { reason: decision.reason } : {},
      ),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: applicationKeys.all });
      void queryClient.invalidateQueries({ queryKey: meKeys.all });
    },
  });
}
