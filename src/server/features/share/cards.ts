import { sql } from 'drizzle-orm';
import { isUuid } from '../../../domain/ids.js';
import { livePath } from '../../../domain/live-public.js';
import { storePath } from '../../../domain/screens.js';
import { type Db, rows } from '../../db/connect.js';
import { messages } from '../../messages.js';
import { onBlockHereSql } from '../../reads/lot-runs.js';
import { PUBLIC_REPLAY, publicReplayVideoPath } from '../../reads/public-replays.js';
import { sellerForStoreSlug } from '../../reads/store-slugs.js';
import { durationText, lotsText, priceText, resultsText, showWhen } from './card-text.js';

/**
 * What a shared link's preview says and draws, read straight from the database. Only what anyone
 * may see: a rehearsal show, a pending auction (or one a rehearsal holds) and an unknown id read as
 * null, and the page then gets the site's generic preview.
 */

export type CardKind = 'live' | 'auction' | 'tienda' | 'lote';

/** An ended show's replay that anyone may watch (reads/public-replays.ts): its card presents the show as it. */
export interface CardReplay {
  /** The MP4 the replay's answer names (og:video), a path on this site. */
  videoPath: string;
  /** The poster's storage key, and when the replay was made (made again, it is a new picture); null without one. */
  poster: { key: string; madeAt: number } | null;
}

export interface ShareCard {
  kind: CardKind;
  /** The id in the image's address: a session's or auction's id, a seller's slug, `<session id>_<auction id>` for a lot. */
  key: string;
  /** The page's canonical path (og:url). */
  path: string;
  title: string;
  /** The title drawn on the picture, when it is not `title` (a replay's tags say 'Repetición: …', its picture the show's own title). */
  drawnTitle?: string;
  description: string;
  /** Drawn under the title: the seller's name. */
  seller: string;
  /** Drawn under the seller: a date in Mexico City, a price, a city. */
  detail: string;
  live: boolean;
  /** The photo drawn behind the text, as the record stores it (read through the storage provider). */
  photoUrl: string | null;
  /** A show's public replay; null for anything else. */
  replay: CardReplay | null;
}

const share = messages.share;

interface LiveRow {
  id: string;
  title: string;
  status: string;
  scheduled_at: Date | string;
  seller_slug: string;
  cover_image_url: string | null;
  seller: string | null;
  company_id: string;
  current_photo: string | null;
  first_photo: string | null;
  lot_count: number;
  sold_count: number | null;
  replay_video_key: string | null;
  replay_poster_key: string | null;
  replay_duration_ms: number | null;
  replay_ready_at: Date | string | null;
}

/**
 * An ended show with a public replay: 'Repetición: …', its length, lots and sales; the replay's
 * poster drawn (else the cover, else the first lot's photo) with a play mark.
 */
function replayCard(row: LiveRow, seller: string): ShareCard {
  const duration = row.replay_duration_ms !== null && Number(row.replay_duration_ms) > 0 ? durationText(Number(row.replay_duration_ms)) : null;
  const detail = duration ? `${share.replay} · ${duration}` : share.replay;
  const results = resultsText(Number(row.lot_count), Number(row.sold_count ?? 0));
  return {
    kind: 'live',
    key: row.id,
    path: livePath({ id: row.id, sellerSlug: row.seller_slug }),
    title: share.replayTitle.replace('{title}', row.title),
    drawnTitle: row.title,
    description: [detail, share.by.replace('{seller}', seller), results].filter(Boolean).join(' · '),
    seller,
    detail,
    live: false,
    photoUrl: row.cover_image_url ?? row.first_photo,
    replay: {
      videoPath: publicReplayVideoPath(row.id),
      poster: row.replay_poster_key ? { key: row.replay_poster_key, madeAt: row.replay_ready_at ? new Date(row.replay_ready_at).getTime() : 0 } : null,
    },
  };
}

export async function liveCard(db: Db, sessionId: string): Promise<ShareCard | null> {
  if (!isUuid(sessionId)) return null;
  const [row] = rows<LiveRow>(
    await db.execute(sql`
      select s.id, s.title, s.status, s.scheduled_at, s.seller_slug, s.cover_image_url, s.company_id,
        (select c.name from companies c where c.id = s.company_id) as seller,
        (select a.images[1] from live_lots l join auctions a on a.id = l.auction_id where l.id = s.current_lot_id) as current_photo,
        (select a.images[1] from live_lots l join auctions a on a.id = l.auction_id
          where l.session_id = s.id and cardinality(a.images) > 0 order by l."order" limit 1) as first_photo,
        (select count(*)::int from live_lots l where l.session_id = s.id) as lot_count,
        case when r.session_id is not null then (
          select count(*)::int from live_lots l join auctions a on a.id = l.auction_id
           where l.session_id = s.id and a.status = 'ended' and a.current_winner_id is not null
             and ${onBlockHereSql({ id: sql`l.id`, sessionId: sql`l.session_id`, auctionId: sql`l.auction_id` })})
        end as sold_count,
        r.video_key as replay_video_key, r.poster_key as replay_poster_key, r.duration_ms as replay_duration_ms, r.ready_at as replay_ready_at
      from live_sessions s left join replays r on r.session_id = s.id and ${PUBLIC_REPLAY}
      where s.id = ${sessionId} and not s.rehearsal`),
  );
  if (!row) return null;
  const seller = row.seller ?? row.company_id;
  if (row.replay_video_key) return replayCard(row, seller);
  const live = row.status === 'live' || row.status === 'paused';
  const detail = showWhen(row.status, row.scheduled_at);
  const lots = Number(row.lot_count) > 0 ? ` · ${lotsText(Number(row.lot_count))}` : '';
  return {
    kind: 'live',
    key: row.id,
    path: livePath({ id: row.id, sellerSlug: row.seller_slug }),
    title: row.title,
    description: `${detail} · ${share.by.replace('{seller}', seller)}${lots}`,
    seller,
    detail,
    live,
    photoUrl: (live ? row.current_photo : null) ?? row.cover_image_url ?? row.current_photo ?? row.first_photo,
    replay: null,
  };
}

/** The key of a show's lot card: both ids, joined by a character neither has. */
export const lotCardKey = (sessionId: string, auctionId: string) => `${sessionId}_${auctionId}`;

/**
 * A lot of a show (`/live/…?lote={auctionId}`, as search results and the seller's page link it):
 * the lot's name and photo, its price, and the show it is in. A lot not in that show, or in a
 * rehearsal, has none (the page then gets the show's own card).
 */
export async function lotCard(db: Db, key: string): Promise<ShareCard | null> {
  const [sessionId = '', auctionId = '', extra] = key.split('_');
  if (extra !== undefined || !isUuid(sessionId) || !isUuid(auctionId)) return null;
  const [row] = rows<{
    session_id: string;
    session_title: string;
    session_status: string;
    scheduled_at: Date | string;
    seller_slug: string;
    company_id: string;
    seller: string | null;
    auction_id: string;
    name: string;
    auction_status: string;
    starting_price: number;
    current_price: number | null;
    sold: boolean;
    photo: string | null;
  }>(
    await db.execute(sql`
      select s.id as session_id, s.title as session_title, s.status as session_status, s.scheduled_at, s.seller_slug, s.company_id,
        (select c.name from companies c where c.id = s.company_id) as seller,
        a.id as auction_id, a.name, a.status as auction_status, a.starting_price, a.current_price,
        (a.status = 'ended' and a.current_winner_id is not null) as sold, a.images[1] as photo
      from live_lots l join live_sessions s on s.id = l.session_id join auctions a on a.id = l.auction_id
      where l.session_id = ${sessionId} and l.auction_id = ${auctionId} and not s.rehearsal and a.status <> 'pending'`),
  );
  if (!row) return null;
  const live = row.session_status === 'live' || row.session_status === 'paused';
  const seller = row.seller ?? row.company_id;
  const price = priceText({
    ended: row.auction_status === 'ended',
    soldFor: row.sold ? row.current_price : null,
    currentPrice: row.current_price,
    startingPrice: row.starting_price,
  });
  const when = showWhen(row.session_status, row.scheduled_at);
  return {
    kind: 'lote',
    key: lotCardKey(row.session_id, row.auction_id),
    path: `${livePath({ id: row.session_id, sellerSlug: row.seller_slug })}?lote=${row.auction_id}`,
    title: row.name,
    description: `${price} · ${share.inShow.replace('{show}', row.session_title)} · ${when} · ${share.by.replace('{seller}', seller)}`,
    seller,
    detail: `${price} · ${when}`,
    live,
    photoUrl: row.photo,
    replay: null,
  };
}

export async function auctionCard(db: Db, auctionId: string): Promise<ShareCard | null> {
  if (!isUuid(auctionId)) return null;
  const [row] = rows<{
    id: string;
    name: string;
    status: string;
    starting_price: number;
    current_price: number | null;
    photo: string | null;
    seller: string | null;
    company_id: string;
  }>(
    await db.execute(sql`
      select a.id, a.name, a.status, a.starting_price, a.current_price, a.images[1] as photo, a.company_id,
        (select c.name from companies c where c.id = a.company_id) as seller
      from auctions a
      where a.id = ${auctionId} and a.status <> 'pending'
        and not exists (select 1 from live_lots l join live_sessions s on s.id = l.session_id
                        where l.auction_id = a.id and s.rehearsal and s.status <> 'ended')`),
  );
  if (!row) return null;
  const seller = row.seller ?? row.company_id;
  const price = priceText({ ended: row.status === 'ended', soldFor: null, currentPrice: row.current_price, startingPrice: row.starting_price });
  return {
    kind: 'auction',
    key: row.id,
    path: `/auctions/${row.id}`,
    title: row.name,
    description: `${price} · ${share.by.replace('{seller}', seller)}`,
    seller,
    detail: price,
    live: row.status === 'live',
    photoUrl: row.photo,
    replay: null,
  };
}

export async function storeCard(db: Db, slug: string): Promise<ShareCard | null> {
  if (!slug || slug.length > 100) return null;
  const sellerId = await sellerForStoreSlug(db, slug);
  if (!sellerId) return null;
  const [row] = rows<{
    store_slug: string | null;
    display_name: string | null;
    first_name: string | null;
    company: string | null;
    city: string | null;
    roles: string[];
    followers: number;
    live: boolean;
    cover: string | null;
  }>(
    await db.execute(sql`
      select p.store_slug, p.display_name, p.first_name, p.city, p.roles,
        (select c.name from companies c where c.id = coalesce(p.company_id, p.user_id::text)) as company,
        (select count(*)::int from seller_follows f where f.seller_id = p.user_id) as followers,
        exists (select 1 from live_sessions s where s.seller_id = p.user_id and not s.rehearsal and s.status in ('live', 'paused')) as live,
        (select s.cover_image_url from live_sessions s where s.seller_id = p.user_id and not s.rehearsal and s.cover_image_url is not null
          order by (s.status in ('live', 'paused')) desc, s.scheduled_at desc limit 1) as cover
      from user_profiles p where p.user_id = ${sellerId}`),
  );
  if (!row || !(row.roles.includes('seller') || row.roles.includes('admin'))) return null;
  const name = row.company ?? row.display_name ?? row.first_name ?? slug;
  const followers = Number(row.followers);
  const parts = [followers === 1 ? share.oneFollower : share.followers.replace('{n}', String(followers))];
  if (row.city) parts.push(row.city);
  const pageSlug = row.store_slug ?? slug;
  return {
    kind: 'tienda',
    key: pageSlug,
    path: storePath(pageSlug),
    title: name,
    description: `${row.live ? `${share.liveNow} · ` : ''}${share.storeIntro} · ${parts.join(' · ')}`,
    seller: row.city ?? share.storeIntro,
    detail: parts[0] ?? '',
    live: Boolean(row.live),
    photoUrl: row.cover,
    replay: null,
  };
}

/** The card a kind and key name, or null when there is none to show. */
export function readCard(db: Db, kind: CardKind, key: string): Promise<ShareCard | null> {
  if (kind === 'live') return liveCard(db, key);
  if (kind === 'auction') return auctionCard(db, key);
  if (kind === 'lote') return lotCard(db, key);
  return storeCard(db, key);
}
