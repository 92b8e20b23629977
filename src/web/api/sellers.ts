import { useQuery } from '@tanstack/react-query';
import type { SellerPageAnswer, StorefrontAuction, StorefrontShow } from '../../domain/storefront.js';
import { api } from './client';
import { initialData } from './initial-data';

/** A show as the home and the seller's page list it (GET /api/home, GET /api/sellers/{slug}). */
export type ShowCard = StorefrontShow;
/** One of the seller's open auctions, outside any show. */
export type StoreAuction = StorefrontAuction;
/** GET /api/sellers/{slug}: the seller's page. */
export type StorePage = SellerPageAnswer;

export const sellerKeys = {
  all: ['sellers'] as const,
  detail: (slug: string) => [...sellerKeys.all, slug] as const,
};

export function storePageUrl(slug: string): string {
  return `/api/sellers/${encodeURIComponent(slug)}`;
}

/** The seller's page; its first answer comes inside the HTML when the server put it there. */
export function useStorePage(slug: string) {
  const url = storePageUrl(slug);
  return useQuery({
    queryKey: sellerKeys.detail(slug),
    queryFn: ({ signal }) => api.get<StorePage>(url, signal),
    // As fresh as the HTML it came in: the client's staleTime keeps it from being fetched again at once.
    initialData: () => initialData<StorePage>(url),
  });
}
