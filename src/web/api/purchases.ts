import { useQuery } from '@tanstack/react-query';
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
