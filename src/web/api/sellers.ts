import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { initialData } from './initial-data';

/** A lot shown on a show's card: its photo and starting price. */
export interface ShowLot {
  auctionId: string;
  name: string;
  imageUrl: string | null;
  startingPrice: number;
}

/** A show as the home and the seller's page list it (GET /api/home, GET /api/sellers/{slug}). */
export interface ShowCard {
  id: string;
  title: string;
  /** The show's public page (livePath). */
  url: string;
  /** The shop as buyers know it (the company name, as the live page's). */
  sellerName: string;
  sellerSlug: string | null;
  status: 'scheduled' | 'live' | 'paused' | 'ended';
  /** epoch ms */
  scheduledAt: number;
  viewerCount: number;
  coverUrl: string | null;
  lots: ShowLot[];
  /** A live show's lot on the block. */
  currentLot?: { auctionId: string; name: string; imageUrl: string | null; price: number } | null;
  /** The signed-in buyer bookmarked it (*Avísame*); absent or false when signed out. */
  reminded?: boolean;
}

/** One of the seller's open auctions, outside any show. */
export interface StoreAuction {
  id: string;
  name: string;
  imageUrl: string | null;
  /** The current bid, or the starting price. */
  price: number;
  /** epoch ms: when bidding closes. */
  endTime: number | null;
  /** `/auctions/{id}` */
  url: string;
}

export interface StoreSeller {
  id: string;
  slug: string;
  name: string;
  companyName: string | null;
  city: string | null;
  /** A count, never who. */
  followers: number;
  /** The signed-in viewer follows this seller; false when signed out. */
  following: boolean;
}

/** GET /api/sellers/{slug}: the seller's page. */
export interface StorePage {
  seller: StoreSeller;
  live: ShowCard[];
  upcoming: ShowCard[];
  past: ShowCard[];
  auctions: StoreAuction[];
}

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
