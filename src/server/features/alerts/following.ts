import { sql } from 'drizzle-orm';
import type { AlertShow, FollowedSeller, MyFollowing } from '../../../domain/alerts.js';
import { livePath, type SessionStatus } from '../../../domain/live-public.js';
import { type Db, rows } from '../../db/connect.js';
import { companyNames } from '../../reads/companies.js';
import { storeSlugs } from '../../reads/store-slugs.js';

/**
 * 'Mis alertas' (GET /api/me/following): the sellers the buyer follows, each with the show they
 * have on now and their next one, and the shows the buyer bookmarked that are on or still to come.
 * Names only (a seller's display name and company), never an e-mail or a phone; no rehearsal.
 */

/** Caps: a page a person reads, not an export. */
const SELLERS_MAX = 200;
const SHOWS_MAX = 100;
/** A scheduled show stays "next" this long past its time (late starts happen). */
const LATE_START = sql`interval '2 hours'`;

interface ShowRow {
  id: string;
  title: string;
  seller_id: string;
  company_id: string;
  seller_slug: string;
  status: SessionStatus;
  scheduled_at: string | Date;
  cover_image_url: string | null;
  reminded: boolean;
}

export async function myFollowing(db: Db, opts: { userId: string; viewerCount: (sessionId: string) => number }): Promise<MyFollowing> {
  const me = opts.userId;
  const sellers = rows<{
    seller_id: string;
    name: string | null;
    company_name: string | null;
    live_id: string | null;
    next_id: string | null;
  }>(
    await db.execute(sql`
      select f.seller_id,
        coalesce(nullif(trim(p.display_name), ''), nullif(trim(concat_ws(' ', p.first_name, p.last_name)), '')) as name,
        c.name as company_name, live.id as live_id, next.id as next_id
      from seller_follows f
      join user_profiles p on p.user_id = f.seller_id
      left join companies c on c.id = coalesce(nullif(trim(p.company_id), ''), p.user_id::text)
      left join lateral (
        select s.id from live_sessions s where s.seller_id = f.seller_id and s.status in ('live', 'paused') and not s.rehearsal
        order by s.last_stream_start desc nulls last, s.scheduled_at desc limit 1
      ) live on true
      left join lateral (
        select s.id from live_sessions s where s.seller_id = f.seller_id and s.status = 'scheduled' and not s.rehearsal
          and s.scheduled_at >= now() - ${LATE_START}
        order by s.scheduled_at limit 1
      ) next on true
      where f.follower_id = ${me}::uuid
      order by f.created_at desc, f.seller_id
      limit ${SELLERS_MAX}`),
  );
  const bookmarked = rows<{ session_id: string }>(
    await db.execute(sql`
      select r.session_id from session_reminders r join live_sessions s on s.id = r.session_id
      where r.user_id = ${me}::uuid and not s.rehearsal
        and (s.status in ('live', 'paused') or (s.status = 'scheduled' and s.scheduled_at >= now() - ${LATE_START}))
      order by s.status = 'scheduled', s.scheduled_at
      limit ${SHOWS_MAX}`),
  );
  const ids = [
    ...new Set([...sellers.flatMap((s) => [s.live_id, s.next_id]), ...bookmarked.map((b) => b.session_id)].filter((id): id is string => Boolean(id))),
  ];
  const shows = await readShows(db, ids, me, opts.viewerCount);
  const slugs = await storeSlugs(
    db,
    sellers.map((s) => s.seller_id),
  );
  const followed: FollowedSeller[] = sellers.map((s) => ({
    id: s.seller_id,
    slug: slugs.get(s.seller_id) ?? null,
    name: s.name ?? s.company_name ?? '',
    companyName: s.company_name,
    live: (s.live_id && shows.get(s.live_id)) || null,
    nextShow: (s.next_id && shows.get(s.next_id)) || null,
  }));
  return { sellers: followed, shows: bookmarked.flatMap((b) => shows.get(b.session_id) ?? []) };
}

async function readShows(db: Db, ids: string[], me: string, viewerCount: (sessionId: string) => number): Promise<Map<string, AlertShow>> {
  if (ids.length === 0) return new Map();
  const found = rows<ShowRow>(
    await db.execute(sql`
      select s.id, s.title, s.seller_id, s.company_id, s.seller_slug, s.status, s.scheduled_at, s.cover_image_url,
        exists (select 1 from session_reminders r where r.session_id = s.id and r.user_id = ${me}::uuid) as reminded
      from live_sessions s
      where s.id in (select value::uuid from json_array_elements_text(${JSON.stringify(ids)}::json))`),
  );
  const [names, slugs] = await Promise.all([
    companyNames(
      db,
      found.map((s) => s.company_id),
    ),
    storeSlugs(
      db,
      found.map((s) => s.seller_id),
    ),
  ]);
  return new Map(
    found.map((s) => [
      s.id,
      {
        id: s.id,
        title: s.title,
        url: livePath({ id: s.id, sellerSlug: s.seller_slug }),
        sellerId: s.seller_id,
        sellerName: names.get(s.company_id) ?? s.company_id,
        sellerSlug: slugs.get(s.seller_id) ?? null,
        status: s.status,
        scheduledAt: new Date(s.scheduled_at).getTime(),
        coverUrl: s.cover_image_url,
        viewerCount: s.status === 'live' || s.status === 'paused' ? viewerCount(s.id) : 0,
        reminded: Boolean(s.reminded),
      },
    ]),
  );
}
