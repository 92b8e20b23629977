import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { SEARCH_MAX, SEARCH_MIN, searchApiUrl } from '../../domain/search-links.js';
import { api } from './client';
import { initialData } from './initial-data';

/** One of a show's first lots, as the home shows it under the card. */
export interface HomeLot {
  auctionId: string;
  name: string;
  imageUrl: string | null;
  startingPrice: number;
}

/** The lot on the block of a live show, with its price now. */
export interface HomeCurrentLot {
  auctionId: string;
  name: string;
  imageUrl: string | null;
  price: number;
}

/** A show on the home (GET /api/home's `live` and `upcoming`). Times are epoch ms. */
export interface HomeShow {
  id: string;
  title: string;
  /** The show's public page (livePath). */
  url: string;
  sellerName: string;
  sellerSlug: string | null;
  status: 'scheduled' | 'live' | 'paused' | 'ended';
  scheduledAt: number;
  viewerCount: number;
  coverUrl: string | null;
  lots: HomeLot[];
  currentLot?: HomeCurrentLot | null;
  /** Whether the signed-in buyer asked for *Avísame* (absent when signed out). */
  reminded?: boolean;
  categoryIds?: string[];
}

export interface HomeCategory {
  id: string;
  name: string;
}

export interface HomeAnswer {
  live: HomeShow[];
  upcoming: HomeShow[];
  categories: HomeCategory[];
  /** The server's clock when it answered (epoch ms): "today" is the server's day, whatever the phone's clock says. */
  serverNow?: number;
}

/** One search result (GET /api/search): a lot of a live or scheduled show, or an open auction. */
export interface SearchItem {
  kind: 'lot' | 'auction';
  auctionId: string;
  sessionId: string | null;
  name: string;
  imageUrl: string | null;
  price: number;
  /** The show's time for a lot (epoch ms), null while it is live; for an auction, when it ends (or null). */
  startsAt: number | null;
  url: string;
  /** Whether the lot's show is on now (live or paused). */
  live?: boolean;
  /** An auction's end (epoch ms). */
  endsAt?: number | null;
}

export interface SearchAnswer {
  items: SearchItem[];
}

export const HOME_URL = '/api/home';
/** The search's limits, as the server checks them. */
export { SEARCH_MAX, SEARCH_MIN } from '../../domain/search-links.js';

export const homeKeys = {
  all: ['home'] as const,
  home: () => [...homeKeys.all, 'front'] as const,
  search: (q: string, categoryId: string | null) => [...homeKeys.all, 'search', q, categoryId ?? ''] as const,
};

/** GET /api/home: the first load comes with the HTML (initialData), so a cold load paints at once. */
export function useHome() {
  return useQuery({
    queryKey: homeKeys.home(),
    queryFn: ({ signal }) => api.get<HomeAnswer>(HOME_URL, signal),
    initialData: () => initialData<HomeAnswer>(HOME_URL),
    // Inline data is as fresh as the HTML: refetch when the buyer comes back to the tab a while later.
    refetchOnWindowFocus: true,
  });
}

/**
 * GET /api/search, for a query of 2–100 characters (the page says so before asking otherwise). A
 * shared link's first search comes with the HTML (initialData), under the same address.
 */
export function useSearch(q: string, categoryId: string | null) {
  const trimmed = q.trim();
  const enabled = trimmed.length >= SEARCH_MIN && trimmed.length <= SEARCH_MAX;
  return useQuery({
    queryKey: homeKeys.search(trimmed, categoryId),
    queryFn: ({ signal }) => api.get<SearchAnswer>(searchApiUrl(trimmed, categoryId), signal),
    initialData: () => initialData<SearchAnswer>(searchApiUrl(trimmed, categoryId)),
    enabled,
    // While the next word is fetched the last results stay (dimmed), not a flash of skeletons.
    placeholderData: keepPreviousData,
  });
}
