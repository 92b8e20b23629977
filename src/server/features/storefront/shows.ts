import { type SQL, sql } from 'drizzle-orm';
import type { SessionStatus } from '../../../domain/live-public.js';
import type { StorefrontCurrentLot, StorefrontLot, StorefrontReplay } from '../../../domain/storefront.js';
import { type Db, rows } from '../../db/connect.js';
import { onBlockHereSql } from '../../reads/lot-runs.js';
import { PUBLIC_REPLAY, publicReplayPosterPath } from '../../reads/public-replays.js';
import { sellerPublicName } from '../../reads/store-links.js';

/**
 * The shows of the front door (home, seller's page), read in one statement each: a session with
 * its seller's names and slug, its first lots' photos and prices, the lot on the block, the
 * categories still to come, its lot and sale counts, and an ended show's public replay (joined by
 * its key, the session's id). Only a few dozen sessions are read at a time, so the per-session
 * subqueries walk the lots' (session_id, order) key for a handful of rows.
 */

/** A show buyers may see: never a rehearsal ('Ensayo'). */
export const PUBLIC_SHOW = sql`not s.rehearsal`;
/** A scheduled show stays listed this long after its time, if the seller has not started it yet. */
export const LATE_START = sql`interval '2 hours'`;
/** Live, paused, or scheduled from two hours ago on: the shows whose lots are for sale. */
export const OPEN_SHOW = sql`(s.status in ('live', 'paused') or (s.status = 'scheduled' and s.scheduled_at >= now() - ${LATE_START}))`;
/** A lot still to come (or on the block) in a show not ended: queued, its auction not closed. */
export const LOT_TO_COME = sql`(l.status = 'queued' and a.status <> 'ended')`;
/** The lot's photo as the live lots read it: the first image's thumbnail, else the image itself. */
export const LOT_IMAGE = sql`coalesce((select u.thumbnail_url from uploads u where u.url = a.images[1] limit 1), a.images[1])`;

export interface ShowRow {
  id: string;
  title: string;
  sellerId: string;
  sellerSlugOfShow: string;
  storeSlug: string | null;
  /** The company's name (as the live page names the seller), else the seller's own. */
  sellerName: string;
  status: SessionStatus;
  scheduledAt: number;
  coverUrl: string | null;
  lotCount: number;
  soldCount: number | null;
  categoryIds: string[];
  lots: StorefrontLot[];
  currentLot: StorefrontCurrentLot | null;
  replay: StorefrontReplay | null;
}

interface RawShow {
  id: string;
  title: string;
  seller_id: string;
  seller_slug: string;
  store_slug: string | null;
  company_name: string | null;
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
  profile_company_name: string | null;
  status: SessionStatus;
  scheduled_at: string | Date;
  cover_image_url: string | null;
  lot_count: number | string;
  sold_count: number | string | null;
  category_ids: string[] | string | null;
  lots: unknown;
  current_lot: unknown;
  has_replay: boolean;
  replay_duration_ms: number | string | null;
  replay_has_poster: boolean;
}

/** PGlite hands json back parsed; node-postgres too, but a text array may arrive as '{a,b}'. */
function textArray(value: string[] | string | null): string[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map((v) => v.replace(/^"|"$/g, '')) : [];
}
const json = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

/**
 * The shows matching `where` (over `live_sessions s`), in `order`, at most `limit`. `where` must
 * include PUBLIC_SHOW (or stronger) wherever the answer is public.
 */
export async function readShows(db: Db, opts: { where: SQL; order: SQL; limit: number }): Promise<ShowRow[]> {
  // What the cards show of the lots: a show not ended, its lots still to come after the one on the block; an ended show, its first lots.
  const shown = sql`(s.status = 'ended' or (${LOT_TO_COME} and l.id is distinct from s.current_lot_id))`;
  const categoriesOf = sql`(s.status = 'ended' or ${LOT_TO_COME})`;
  const found = rows<RawShow>(
    await db.execute(sql`
      select s.id, s.title, s.seller_id, s.seller_slug, s.status, s.scheduled_at, s.cover_image_url,
             p.store_slug, p.display_name, p.first_name, p.last_name, p.company_name as profile_company_name,
             (select c.name from companies c where c.id = s.company_id) as company_name,
             (select count(*)::int from live_lots l where l.session_id = s.id) as lot_count,
             case when s.status = 'ended' then (
               select count(*)::int from live_lots l join auctions a on a.id = l.auction_id
                where l.session_id = s.id and a.status = 'ended' and a.current_winner_id is not null
                  and ${onBlockHereSql({ id: sql`l.id`, sessionId: sql`l.session_id`, auctionId: sql`l.auction_id` })})
             end as sold_count,
             (select coalesce(array_agg(distinct a.category_id::text), '{}'::text[])
                from live_lots l join auctions a on a.id = l.auction_id
               where l.session_id = s.id and a.category_id is not null and ${categoriesOf}) as category_ids,
             (select coalesce(json_agg(json_build_object('auctionId', x.auction_id, 'name', x.name, 'imageUrl', x.image_url, 'startingPrice', x.starting_price) order by x.ord), '[]'::json)
                from (select l.auction_id, l."order" as ord, a.name, a.starting_price, ${LOT_IMAGE} as image_url
                        from live_lots l join auctions a on a.id = l.auction_id
                       where l.session_id = s.id and ${shown}
                       order by l."order" limit 4) x) as lots,
             (select json_build_object('auctionId', a.id, 'name', a.name, 'imageUrl', ${LOT_IMAGE}, 'price', coalesce(a.current_price, a.starting_price))
                from live_lots l join auctions a on a.id = l.auction_id
               where l.id = s.current_lot_id and s.status in ('live', 'paused')) as current_lot,
             r.session_id is not null as has_replay, r.duration_ms as replay_duration_ms, r.poster_key is not null as replay_has_poster
        from live_sessions s left join user_profiles p on p.user_id = s.seller_id
             left join replays r on r.session_id = s.id and ${PUBLIC_REPLAY}
       where ${opts.where}
       order by ${opts.order}
       limit ${opts.limit}`),
  );
  return found.map((r) => ({
    id: r.id,
    title: r.title,
    sellerId: r.seller_id,
    sellerSlugOfShow: r.seller_slug,
    storeSlug: r.store_slug,
    sellerName:
      r.company_name ??
      sellerPublicName({ displayName: r.display_name, firstName: r.first_name, lastName: r.last_name, companyName: r.profile_company_name }) ??
      '',
    status: r.status,
    scheduledAt: new Date(r.scheduled_at).getTime(),
    coverUrl: r.cover_image_url,
    lotCount: Number(r.lot_count),
    soldCount: r.sold_count === null ? null : Number(r.sold_count),
    categoryIds: textArray(r.category_ids).sort(),
    lots: json<StorefrontLot[]>(r.lots).map((l) => ({ ...l, startingPrice: Number(l.startingPrice) })),
    currentLot: r.current_lot ? ((c) => ({ ...c, price: Number(c.price) }))(json<StorefrontCurrentLot>(r.current_lot)) : null,
    replay: r.has_replay
      ? {
          durationMs: r.replay_duration_ms === null ? null : Number(r.replay_duration_ms),
          posterUrl: r.replay_has_poster ? publicReplayPosterPath(r.id) : null,
        }
      : null,
  }));
}

/** The sessions among `sessionIds` the viewer asked to be told about (*Avísame*). */
export async function remindedOf(db: Db, viewerId: string | null, sessionIds: readonly string[]): Promise<Set<string>> {
  if (!viewerId || sessionIds.length === 0) return new Set();
  const found = rows<{ session_id: string }>(
    await db.execute(sql`
      select session_id from session_reminders
       where user_id = ${viewerId}::uuid and session_id in (${sql.join(
         sessionIds.map((id) => sql`${id}::uuid`),
         sql`, `,
       )})`),
  );
  return new Set(found.map((r) => r.session_id));
}
