import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MyPurchases } from '../../domain/purchases.js';
import { api } from './client';

/** 'Mis compras': the signed-in buyer's own wins and bills (GET /api/me/purchases). */
export const purchaseKeys = {
  all: ['purchases'] as const,
  mine: () => [...purchaseKeys.all, 'mine'] as const,
};

export function useMyPurchases(enabled: boolean) {
  return useQuery({
    queryKey: purchaseKeys.mine(),
    queryFn: ({ signal }) => api.get<MyPurchases>('/api/me/purchases', signal),
    enabled,
    // A bill paid in another tab or a link just sent: fresh when the buyer comes back to the page.
    refetchOnWindowFocus: true,
  });
}

/** 'No me interesa': the buyer turns down a second-chance offer (POST /api/second-chance/{id}/decline); its bill is canceled. */
export function useDeclineOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (offerId: string) => api.post<{ declined: true }>(`/api/second-chance/${encodeURIComponent(offerId)}/decline`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: purchaseKeys.all }),
  });
}
