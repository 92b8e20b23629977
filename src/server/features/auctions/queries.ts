import { and, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { AuctionCounts, AuctionFilter, AuctionListQuery, AuctionListResponse } from '../../../domain/auctions.js';
import { foldText } from '../../../domain/text.js';
import type { Db } from '../../db/connect.js';
import { auctionCounts, auctions, categories, uploads } from '../../db/schema.js';
import { type AuctionScope, scopeWhere } from './policies.js';
import { presentListItem } from './presenters.js';
import { companyNames } from './search-text.js';

/**
 * SPEC §4, on the server. A winner is set when an auction closes, so 'won' implies ended:
 * 'paid' is in a paid payment, 'pending' has a winner but is not paid, 'all' is everything not
 * yet won. The same three conditions drive the auction_counts triggers (drizzle/0002).
 */
const FILTERS: Record<AuctionFilter, SQL> = {
  all: sql`(${auctions.currentWinnerId} is null and not ${auctions.isPaid})`,
  pending: sql`(${auctions.currentWinnerId} is not null and not ${auctions.isPaid})`,
  paid: sql`${auctions.isPaid}`,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every word must appear in the folded search text ('bicicleta' finds 'Bicicléta'); a full id finds its auction. */
export function searchWhere(search: string): SQL | undefined {
  const trimmed = search.trim();
  if (!trimmed) return undefined;
  if (UUID.test(trimmed)) return eq(auctions.id, trimmed.toLowerCase());
  const words = foldText(trimmed).split(' ').filter(Boolean).slice(0, 8);
  if (words.length === 0) return undefined;
  return and(...words.map((word) => sql`${auctions.searchText} like ${`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`));
}

/** The same scope over auction_counts, which holds one row per company and seller. */
function countsScopeWhere(scope: AuctionScope): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'company':
      return or(eq(auctionCounts.companyId, scope.companyId), eq(auctionCounts.sellerId, scope.userId));
    case 'seller':
      return eq(auctionCounts.sellerId, scope.userId);
  }
}

/** The filter buttons' counts: read from auction_counts, or counted over the search's matches. */
export async function countAuctions(db: Db, opts: { scope: AuctionScope; search: string }): Promise<AuctionCounts> {
  const search = searchWhere(opts.search);
  const [row] = search
    ? await db
        .select({
          all: sql<number>`(count(*) filter (where ${FILTERS.all}))::int`,
          pending: sql<number>`(count(*) filter (where ${FILTERS.pending}))::int`,
          paid: sql<number>`(count(*) filter (where ${FILTERS.paid}))::int`,
        })
        .from(auctions)
        .where(and(scopeWhere(opts.scope), search))
    : await db
        .select({
          all: sql<number>`coalesce(sum(${auctionCounts.open}), 0)::int`,
          pending: sql<number>`coalesce(sum(${auctionCounts.wonUnpaid}), 0)::int`,
          paid: sql<number>`coalesce(sum(${auctionCounts.paid}), 0)::int`,
        })
        .from(auctionCounts)
        .where(countsScopeWhere(opts.scope));
  return { all: Number(row?.all ?? 0), pending: Number(row?.pending ?? 0), paid: Number(row?.paid ?? 0) };
}

/** GET /api/auctions: one page of the admin table, newest first, with the three counts. */
export async function listAuctions(db: Db, opts: { scope: AuctionScope; query: AuctionListQuery }): Promise<AuctionListResponse> {
  const { scope, query } = opts;
  const where = and(scopeWhere(scope), searchWhere(query.search), FILTERS[query.filter]);
  const [counts, page] = await Promise.all([
    countAuctions(db, { scope, search: query.search }),
    db
      .select({
        auction: {
          id: auctions.id,
          name: auctions.name,
          companyId: auctions.companyId,
          categoryId: auctions.categoryId,
          condicion: auctions.condicion,
          status: auctions.status,
          endTime: auctions.endTime,
          startingPrice: auctions.startingPrice,
          buyNowPrice: auctions.buyNowPrice,
          currentPrice: auctions.currentPrice,
          bidCount: auctions.bidCount,
          currentWinnerName: auctions.currentWinnerName,
          sellerId: auctions.sellerId,
          version: auctions.version,
        },
        categoryName: categories.name,
        thumbnailUrl: uploads.thumbnailUrl,
        coverUrl: sql<string | null>`${auctions.images}[1]`,
      })
      .from(auctions)
      .leftJoin(categories, eq(categories.id, auctions.categoryId))
      .leftJoin(uploads, sql`${uploads.url} = ${auctions.images}[1]`)
      .where(where)
      .orderBy(desc(auctions.createdAt), desc(auctions.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
  ]);
  const names = await companyNames(
    db,
    page.map((r) => r.auction.companyId),
  );
  const now = Date.now();
  return {
    items: page.map((r) =>
      presentListItem(
        { ...r.auction, categoryName: r.categoryName, thumbnailUrl: r.thumbnailUrl ?? r.coverUrl, companyName: names.get(r.auction.companyId) ?? null },
        now,
      ),
    ),
    total: counts[query.filter],
    page: query.page,
    pageSize: query.pageSize,
    counts,
    serverNow: now,
  };
}
