import { livePath } from '../../../domain/live-public.js';
import type { SearchItem, StorefrontAuction, StorefrontShow } from '../../../domain/storefront.js';
import type { ShowRow } from './shows.js';

/** One show as every front-door list shows it. */
export function presentShow(row: ShowRow, opts: { viewerCount: number; reminded: boolean }): StorefrontShow {
  return {
    id: row.id,
    title: row.title,
    url: livePath({ id: row.id, sellerSlug: row.sellerSlugOfShow }),
    sellerId: row.sellerId,
    sellerName: row.sellerName,
    sellerSlug: row.storeSlug,
    status: row.status,
    scheduledAt: row.scheduledAt,
    viewerCount: row.status === 'live' || row.status === 'paused' ? opts.viewerCount : 0,
    coverUrl: row.coverUrl,
    lots: row.lots,
    currentLot: row.currentLot,
    categoryIds: row.categoryIds,
    lotCount: row.lotCount,
    soldCount: row.soldCount,
    reminded: opts.reminded,
    replay: row.replay,
  };
}

export interface SearchRow {
  auctionId: string;
  name: string;
  imageUrl: string | null;
  price: number;
  endTime: number | null;
  sessionId: string | null;
  sessionSlug: string | null;
  sessionStatus: string | null;
  scheduledAt: number | null;
}

/** A search hit: a lot links to its show at that lot, an auction to its own page. */
export function presentSearchItem(r: SearchRow): SearchItem {
  if (r.sessionId) {
    const show = livePath({ id: r.sessionId, sellerSlug: r.sessionSlug });
    return {
      kind: 'lot',
      auctionId: r.auctionId,
      sessionId: r.sessionId,
      name: r.name,
      imageUrl: r.imageUrl,
      price: r.price,
      startsAt: r.scheduledAt,
      endsAt: null,
      live: r.sessionStatus === 'live' || r.sessionStatus === 'paused',
      url: `${show}?lote=${r.auctionId}`,
    };
  }
  return {
    kind: 'auction',
    auctionId: r.auctionId,
    sessionId: null,
    name: r.name,
    imageUrl: r.imageUrl,
    price: r.price,
    startsAt: null,
    endsAt: r.endTime,
    live: false,
    url: `/auctions/${r.auctionId}`,
  };
}

export function presentAuction(r: {
  id: string;
  name: string;
  imageUrl: string | null;
  price: number;
  bidCount: number;
  endTime: number | null;
}): StorefrontAuction {
  return { ...r, url: `/auctions/${r.id}` };
}
