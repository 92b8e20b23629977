import { and, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AuctionCounts, AuctionFilter, AuctionListQuery, AuctionListResponse } from '../../../domain/auctions.js';
import { nameTokens } from '../../../domain/text.js';
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

/**
 * Every word of the search must start a word of the auction's folded search text, so 'bicicleta'
 * finds 'Bicicléta' and 'bici vint' finds 'Bicicleta vintage'. A full id finds its auction.
 */
export function searchWhere(search: string): SQL | undefined {
  const trimmed = search.trim();
  if (!trimmed) return undefined;
  if (UUID.test(trimmed)) return eq(auctions.id, trimmed.toLowerCase());
  const words = nameTokens(trimmed, 8);
  if (words.length === 0) return undefined;
  // Only letters and digits reach the query, so no user text can change its syntax.
  const query = words.map((word) => `${word}:*`).join(' & ');
  return sql`${auctions.searchVector} @@ to_tsquery('simple', ${query})`;
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
  // The page is picked from auctions alone (an index walk), then its few rows get their names.
  const [counts, page] = await Promise.all([
    countAuctions(db, { scope, search: query.search }),
    db
      .select({
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
        coverUrl: sql<string | null>`${auctions.images}[1]`,
      })
      .from(auctions)
      .where(where)
      .orderBy(desc(auctions.createdAt), desc(auctions.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
  ]);
  const categoryIds = [...new Set(page.map((r) => r.categoryId).filter((id): id is string => id !== null))];
  const covers = [...new Set(page.map((r) => r.coverUrl).filter((url): url is string => url !== null))];
  const [names, categoryRows, thumbRows] = await Promise.all([
    companyNames(
      db,
      page.map((r) => r.companyId),
    ),
    categoryIds.length ? db.select({ id: categories.id, name: categories.name }).from(categories).where(inArray(categories.id, categoryIds)) : [],
    covers.length ? db.select({ url: uploads.url, thumbnailUrl: uploads.thumbnailUrl }).from(uploads).where(inArray(uploads.url, covers)) : [],
  ]);
  const categoryName = new Map(categoryRows.map((c) => [c.id, c.name]));
  const thumbnail = new Map(thumbRows.map((u) => [u.url, u.thumbnailUrl]));
  const now = Date.now();
  return {
    items: page.map((r) =>
      presentListItem(
        {
          ...r,
          categoryName: r.categoryId ? (categoryName.get(r.categoryId) ?? null) : null,
          thumbnailUrl: r.coverUrl ? (thumbnail.get(r.coverUrl) ?? r.coverUrl) : null,
          companyName: names.get(r.companyId) ?? null,
        },
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
