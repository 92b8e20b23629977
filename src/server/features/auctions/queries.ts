import { and, desc, eq, inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { AuctionFilter, AuctionHold } from '../../../domain/auction-list.js';
import type { AuctionCounts, AuctionListQuery, AuctionListResponse, AuctionStatus } from '../../../domain/auctions.js';
import { isUuid } from '../../../domain/ids.js';
import { nameTokens } from '../../../domain/text.js';
import { type Db, rows } from '../../db/connect.js';
import { auctionCounts, auctions, categories, liveLots, paymentItems, uploads } from '../../db/schema.js';
import { scopeWhere as scopeOver } from '../../policies/scope.js';
import { realSale } from '../../reads/real-sale.js';
import { companyNames } from '../../reads/search-text.js';
import { type AuctionScope, scopeWhere } from './policies.js';
import { presentListItem } from './presenters.js';

/**
 * SPEC §4, on the server. A winner is set when an auction closes, so 'won' implies ended:
 * 'paid' is in a paid payment, 'pending' has a winner but is not paid, 'all' is everything not
 * yet won. The same three conditions drive the auction_counts triggers (drizzle/0002). A
 * rehearsal's winner is no winner (functions/auctions-track-counts.sql): nothing it sells is real.
 */
function billingFilters(winner: SQLWrapper, paid: SQLWrapper, id: SQLWrapper): Record<AuctionFilter, SQL> {
  const won = sql`(${winner} is not null and ${realSale({ auctionId: id, winnerId: winner })})`;
  return {
    all: sql`(not ${won} and not ${paid})`,
    pending: sql`(${won} and not ${paid})`,
    paid: sql`${paid}`,
  };
}
const FILTERS = billingFilters(auctions.currentWinnerId, auctions.isPaid, auctions.id);
/** The same over the `m` rows of a search (listWithSearch). */
const MATCH_FILTERS = billingFilters(sql.raw('m.current_winner_id'), sql.raw('m.is_paid'), sql.raw('m.id'));

/**
 * Every word of the search must start a word of the auction's folded search text, so 'bicicleta'
 * finds 'Bicicléta' and 'bici vint' finds 'Bicicleta vintage'. A full id finds its auction.
 */
export function searchWhere(search: string): SQL | undefined {
  const trimmed = search.trim();
  if (!trimmed) return undefined;
  if (isUuid(trimmed)) return eq(auctions.id, trimmed.toLowerCase());
  // A lone letter would match nearly every auction by prefix; it narrows nothing, so it is skipped.
  const words = nameTokens(trimmed, 8).filter((word) => word.length >= 2 || /\d/.test(word));
  if (words.length === 0) return undefined;
  // Only letters and digits reach the query, so no user text can change its syntax.
  const query = words.map((word) => `${word}:*`).join(' & ');
  return sql`${auctions.searchVector} @@ to_tsquery('simple', ${query})`;
}

/** The same scope over auction_counts, which holds one row per company and seller. */
const countsScopeWhere = (scope: AuctionScope): SQL | undefined => scopeOver(scope, auctionCounts);

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

interface PageRow {
  id: string;
  name: string;
  companyId: string;
  categoryId: string | null;
  condicion: string | null;
  status: AuctionStatus;
  endTime: Date | null;
  startingPrice: number;
  buyNowPrice: number | null;
  currentPrice: number | null;
  bidCount: number;
  currentWinnerName: string | null;
  sellerId: string | null;
  version: number;
  coverUrl: string | null;
}

/** No search: the counts come from auction_counts and the page from a walk of the newest-first index. */
async function listWithoutSearch(db: Db, opts: { scope: AuctionScope; query: AuctionListQuery }): Promise<{ counts: AuctionCounts; page: PageRow[] }> {
  const { scope, query } = opts;
  const [counts, page] = await Promise.all([
    countAuctions(db, { scope, search: '' }),
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
      .where(and(scopeWhere(scope), FILTERS[query.filter]))
      .orderBy(desc(auctions.createdAt), desc(auctions.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
  ]);
  return { counts, page };
}

interface SearchRow extends Record<string, unknown> {
  n_all: number;
  n_pending: number;
  n_paid: number;
  id: string | null;
}

/**
 * A search: the matches are found once (one index scan), then counted per filter and paged in
 * the same statement, so the counts and the page always agree.
 */
async function listWithSearch(
  db: Db,
  opts: { scope: AuctionScope; query: AuctionListQuery; search: SQL },
): Promise<{ counts: AuctionCounts; page: PageRow[] }> {
  const { scope, query } = opts;
  const found = rows<SearchRow>(
    await db.execute(sql`
      with m as materialized (
        select id, name, company_id, category_id, condicion, status, end_time, starting_price, buy_now_price, current_price,
               bid_count, current_winner_name, seller_id, version, images[1] as cover_url, created_at, current_winner_id, is_paid
        from auctions where ${and(scopeWhere(scope), opts.search)}
      ), c as (
        select (count(*) filter (where ${MATCH_FILTERS.all}))::int as n_all,
               (count(*) filter (where ${MATCH_FILTERS.pending}))::int as n_pending,
               (count(*) filter (where ${MATCH_FILTERS.paid}))::int as n_paid
        from m
      )
      select c.n_all, c.n_pending, c.n_paid, p.* from c left join lateral (
        select * from m where ${MATCH_FILTERS[query.filter]}
        order by m.created_at desc, m.id desc limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}
      ) p on true`),
  );
  const first = found[0];
  const counts = { all: Number(first?.n_all ?? 0), pending: Number(first?.n_pending ?? 0), paid: Number(first?.n_paid ?? 0) };
  const page = found
    .filter((r) => r.id !== null)
    .map((r) => ({
      id: r.id as string,
      name: r.name as string,
      companyId: r.company_id as string,
      categoryId: (r.category_id as string | null) ?? null,
      condicion: (r.condicion as string | null) ?? null,
      status: r.status as AuctionStatus,
      endTime: r.end_time ? new Date(r.end_time as string | Date) : null,
      startingPrice: Number(r.starting_price),
      buyNowPrice: r.buy_now_price === null ? null : Number(r.buy_now_price),
      currentPrice: r.current_price === null ? null : Number(r.current_price),
      bidCount: Number(r.bid_count),
      currentWinnerName: (r.current_winner_name as string | null) ?? null,
      sellerId: (r.seller_id as string | null) ?? null,
      version: Number(r.version),
      coverUrl: (r.cover_url as string | null) ?? null,
    }));
  return { counts, page };
}

/** GET /api/auctions: one page of the admin table, newest first, with the three counts. */
export async function listAuctions(db: Db, opts: { scope: AuctionScope; query: AuctionListQuery }): Promise<AuctionListResponse> {
  const { scope, query } = opts;
  const search = searchWhere(query.search);
  const { counts, page } = search ? await listWithSearch(db, { scope, query, search }) : await listWithoutSearch(db, { scope, query });
  const categoryIds = [...new Set(page.map((r) => r.categoryId).filter((id): id is string => id !== null))];
  const covers = [...new Set(page.map((r) => r.coverUrl).filter((url): url is string => url !== null))];
  const ids = page.map((r) => r.id);
  const [names, categoryRows, thumbRows, paidRows, lotRows] = await Promise.all([
    companyNames(
      db,
      page.map((r) => r.companyId),
    ),
    categoryIds.length ? db.select({ id: categories.id, name: categories.name }).from(categories).where(inArray(categories.id, categoryIds)) : [],
    covers.length ? db.select({ url: uploads.url, thumbnailUrl: uploads.thumbnailUrl }).from(uploads).where(inArray(uploads.url, covers)) : [],
    // What holds each auction besides its bids (deleteRefusal's order): payment items of any status, then live lots.
    ids.length ? db.selectDistinct({ id: paymentItems.auctionId }).from(paymentItems).where(inArray(paymentItems.auctionId, ids)) : [],
    ids.length ? db.selectDistinct({ id: liveLots.auctionId }).from(liveLots).where(inArray(liveLots.auctionId, ids)) : [],
  ]);
  const inPayment = new Set(paidRows.map((r) => r.id));
  const inLive = new Set(lotRows.map((r) => r.id));
  const heldBy = (id: string): AuctionHold | null => (inPayment.has(id) ? 'payment' : inLive.has(id) ? 'liveSession' : null);
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
          heldBy: heldBy(r.id),
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
