import { type SQL, sql } from 'drizzle-orm';
import type { HomeAnswer, HomeQuery, SearchAnswer, SearchQuery, StorefrontCategory } from '../../../domain/storefront.js';
import { searchWords } from '../../../domain/storefront.js';
import { type Db, rows } from '../../db/connect.js';
import { presentSearchItem, presentShow, type SearchRow } from './presenters.js';
import { LATE_START, LOT_IMAGE, LOT_TO_COME, OPEN_SHOW, PUBLIC_SHOW, readShows, remindedOf, type ShowRow } from './shows.js';

/** The home's lists: shows on now (sorted by viewers after reading), and the next scheduled ones. */
const LIVE_MAX = 60;
const UPCOMING_MAX = 30;
const SEARCH_LIMIT = 40;

/** The viewer count of a session now (realtime/viewers.ts, across instances). */
export type ViewerCount = (sessionId: string) => number;

/**
 * An auction buyers can bid on by itself: active, its end still ahead, and no lot of a show that has
 * not ended (a rehearsal's included: its auctions are out of sale while it holds them). Over `a`.
 */
export const OPEN_AUCTION = sql`(a.status = 'active' and a.end_time > now() and a.current_winner_id is null
  and not exists (select 1 from live_lots l2 join live_sessions s2 on s2.id = l2.session_id where l2.auction_id = a.id and s2.status <> 'ended'))`;

/** A show with at least one lot still to come in the category. */
const inCategory = (categoryId: string): SQL =>
  sql`exists (select 1 from live_lots l join auctions a on a.id = l.auction_id where l.session_id = s.id and a.category_id = ${categoryId}::uuid and ${LOT_TO_COME})`;

/** Shows, each with its viewers and whether the viewer asked to be told. */
export async function presentShows(db: Db, found: ShowRow[], opts: { viewerId: string | null; viewers: ViewerCount }) {
  const reminded = await remindedOf(
    db,
    opts.viewerId,
    found.filter((s) => s.status === 'scheduled').map((s) => s.id),
  );
  return found.map((row) => presentShow(row, { viewerCount: opts.viewers(row.id), reminded: reminded.has(row.id) }));
}

/** The categories with something for sale now: a lot still to come in a listed show, or an open auction. */
async function categoriesForSale(db: Db): Promise<StorefrontCategory[]> {
  return rows<StorefrontCategory>(
    await db.execute(sql`
      select c.id, c.name from categories c
       where exists (select 1 from auctions a where a.category_id = c.id and ${OPEN_AUCTION})
          or exists (select 1 from auctions a join live_lots l on l.auction_id = a.id join live_sessions s on s.id = l.session_id
                      where a.category_id = c.id and ${PUBLIC_SHOW} and ${OPEN_SHOW} and ${LOT_TO_COME})
       order by c.name_key, c.id`),
  ).map((c) => ({ id: c.id, name: c.name }));
}

/**
 * The shows on now (never many at once: a few hundred at most), busiest first by the realtime
 * viewer count, the first LIVE_MAX of them: so a crowd is never left out of the home by its start time.
 */
async function busiestLive(db: Db, filter: SQL, viewers: ViewerCount): Promise<string[]> {
  const found = rows<{ id: string }>(
    await db.execute(
      sql`select s.id from live_sessions s where ${PUBLIC_SHOW} and s.status in ('live', 'paused') and ${filter} order by s.scheduled_at, s.id limit 1000`,
    ),
  );
  return found
    .map((r, i) => ({ id: r.id, i, n: viewers(r.id) }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .slice(0, LIVE_MAX)
    .map((r) => r.id);
}

/** How long the categories for sale are served from memory before they are read again. */
const CATEGORIES_FRESH_MS = 15_000;

/**
 * The categories for sale, kept in memory for CATEGORIES_FRESH_MS: finding which categories still
 * have an open auction walks many auctions (no index holds category and openness together), and the
 * chips change slowly. Once older, the last answer is served while one read refreshes it, so no
 * buyer waits for it but the first.
 */
export function categoriesCache(db: Db) {
  let cached: { value: StorefrontCategory[]; at: number } | null = null;
  let refreshing: Promise<StorefrontCategory[]> | null = null;
  const refresh = () => {
    refreshing ??= categoriesForSale(db)
      .then((value) => {
        cached = { value, at: Date.now() };
        return value;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };
  return async (): Promise<StorefrontCategory[]> => {
    if (!cached) return refresh();
    if (Date.now() - cached.at >= CATEGORIES_FRESH_MS) refresh().catch(() => undefined);
    return cached.value;
  };
}
export type CategoriesForSale = ReturnType<typeof categoriesCache>;

/** GET /api/home: public; `viewerId` only fills `reminded`. */
export async function readHome(
  db: Db,
  opts: { query: HomeQuery; viewerId: string | null; viewers: ViewerCount; categories: CategoriesForSale },
): Promise<HomeAnswer> {
  const filter = opts.query.categoryId ? inCategory(opts.query.categoryId) : sql`true`;
  const [live, upcoming, categories] = await Promise.all([
    busiestLive(db, filter, opts.viewers).then((ids) =>
      ids.length
        ? readShows(db, {
            where: sql`s.id in (${sql.join(
              ids.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`,
            order: sql`s.scheduled_at, s.id`,
            limit: LIVE_MAX,
          })
        : [],
    ),
    readShows(db, {
      where: sql`${PUBLIC_SHOW} and s.status = 'scheduled' and s.scheduled_at >= now() - ${LATE_START} and ${filter}`,
      order: sql`s.scheduled_at, s.id`,
      limit: UPCOMING_MAX,
    }),
    opts.categories(),
  ]);
  const [liveShows, upcomingShows] = await Promise.all([presentShows(db, live, opts), presentShows(db, upcoming, opts)]);
  // Busiest first; the same crowd, the one on air longest first (the read order).
  const order = new Map(liveShows.map((s, i) => [s.id, i]));
  liveShows.sort((a, b) => b.viewerCount - a.viewerCount || (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { live: liveShows, upcoming: upcomingShows, categories, serverNow: Date.now() };
}

interface RawHit {
  id: string;
  name: string;
  image_url: string | null;
  price: number | string;
  end_time: string | Date | null;
  session_id: string | null;
  seller_slug: string | null;
  session_status: string | null;
  scheduled_at: string | Date | null;
}

const msOf = (v: string | Date | null): number | null => (v === null ? null : new Date(v).getTime());

/**
 * The words as a prefix query ('reloj:* & seiko:*'), each stemmed as Spanish by to_tsquery, so
 * 'relojes' finds 'reloj' and 'bici' finds 'bicicleta'. searchWords leaves only letters and digits,
 * and the query travels as a bound parameter: no text typed reaches the SQL or the query's syntax.
 */
export function prefixQuery(q: string): string | null {
  const words = searchWords(q);
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

/**
 * GET /api/search: lots still to come of live and scheduled shows, and open auctions not in a show,
 * whose name or description holds every word (auctions_public_search_idx, a GIN index), ranked by
 * ts_rank, then live shows first, then the soonest.
 *
 * A common word matches thousands of listings, and each must be placed (in a show, which one, or
 * on its own) before the order is known: a plain join to the lots of shows not ended does that at
 * a fraction of a per-row subquery's cost, since an auction is a lot of at most one such show (the
 * lots' rules refuse a second; a duplicate a race left is dropped below). The photo is read for
 * the page of results only.
 */
export async function search(db: Db, query: SearchQuery): Promise<SearchAnswer> {
  const tsq = prefixQuery(query.q);
  if (!tsq) return { items: [] };
  const category = query.categoryId ? sql`and a.category_id = ${query.categoryId}::uuid` : sql``;
  const match = sql`to_tsquery('spanish', ${tsq})`;
  // Over the page of hits, named `a` as LOT_IMAGE reads it.
  const order = sql`a.rank desc, (a.session_status in ('live', 'paused')) desc nulls last, coalesce(a.scheduled_at, a.end_time) asc nulls last, a.id`;
  const found = await db.transaction(async (tx) => {
    // One backend, not three: a parallel plan's workers start for every search and cost more than
    // they save on a few thousand hits (warm, 25 ms alone against 48 with one worker, bench/README.md).
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return rows<RawHit>(
      await tx.execute(sql`
      select a.id, a.name, a.price, a.end_time, a.session_id, a.seller_slug, a.session_status, a.scheduled_at, ${LOT_IMAGE} as image_url
        from (
          select a.id, a.name, a.images, coalesce(a.current_price, a.starting_price) as price, a.end_time,
                 s.id as session_id, s.seller_slug, s.status as session_status, s.scheduled_at,
                 ts_rank(a.public_search_vector, ${match}) as rank
            from auctions a
            left join (live_lots l join live_sessions s on s.id = l.session_id and s.status <> 'ended') on l.auction_id = a.id
           where a.public_search_vector @@ ${match} ${category}
             -- Implied by both cases below; said once so the closed auctions are dropped before the join.
             and a.status <> 'ended'
             and (
               (s.id is null and a.status = 'active' and a.end_time > now() and a.current_winner_id is null)
               or (s.id is not null and not s.rehearsal and l.status = 'queued'
                   and (s.status in ('live', 'paused') or s.scheduled_at >= now() - ${LATE_START})))
           order by ts_rank(a.public_search_vector, ${match}) desc,
                    (s.status in ('live', 'paused')) desc nulls last,
                    coalesce(s.scheduled_at, a.end_time) asc nulls last,
                    a.id
           limit ${SEARCH_LIMIT}) a
       order by ${order}`),
    );
  });
  const seen = new Set<string>();
  const hits: SearchRow[] = found
    .filter((r) => !seen.has(r.id) && Boolean(seen.add(r.id)))
    .map((r) => ({
      auctionId: r.id,
      name: r.name,
      imageUrl: r.image_url,
      price: Number(r.price),
      endTime: msOf(r.end_time),
      sessionId: r.session_id,
      sessionSlug: r.seller_slug,
      sessionStatus: r.session_status,
      scheduledAt: msOf(r.scheduled_at),
    }));
  return { items: hits.map(presentSearchItem) };
}
