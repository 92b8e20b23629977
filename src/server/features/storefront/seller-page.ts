import { sql } from 'drizzle-orm';
import type { SellerPageAnswer } from '../../../domain/storefront.js';
import { type Db, rows } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import { sellerPublicName } from '../../reads/store-links.js';
import { sellerForStoreSlug } from '../../reads/store-slugs.js';
import { presentAuction } from './presenters.js';
import { OPEN_AUCTION, presentShows, type ViewerCount } from './queries.js';
import { LATE_START, LOT_IMAGE, PUBLIC_SHOW, readShows } from './shows.js';

const UPCOMING_MAX = 30;
const PAST_MAX = 12;
const AUCTIONS_MAX = 60;

interface RawSeller {
  user_id: string;
  store_slug: string | null;
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
  profile_company_name: string | null;
  city: string | null;
  company_name: string | null;
  followers: number | string;
  following: boolean;
}

interface RawAuction {
  id: string;
  name: string;
  image_url: string | null;
  price: number | string;
  bid_count: number | string;
  end_time: string | Date | null;
}

/**
 * GET /api/sellers/{slug}: the seller's page, found by their own slug or (a seller with none yet)
 * an older show's link slug; 404 in Spanish otherwise. Names and counts only: who follows is never
 * told, and nothing of the profile but the names and city leaves.
 */
export async function readSellerPage(db: Db, opts: { slug: string; viewerId: string | null; viewers: ViewerCount }): Promise<SellerPageAnswer> {
  const slug = opts.slug.trim().toLowerCase();
  const sellerId = slug ? await sellerForStoreSlug(db, slug) : null;
  if (!sellerId) throw new AppError('NOT_FOUND', messages.storefront.sellerNotFound);
  const viewer = opts.viewerId ? sql`${opts.viewerId}::uuid` : sql`null::uuid`;
  const [seller] = rows<RawSeller>(
    await db.execute(sql`
      select p.user_id, p.store_slug, p.display_name, p.first_name, p.last_name, p.company_name as profile_company_name, p.city,
             (select c.name from companies c where c.id = coalesce(p.company_id, p.user_id::text)) as company_name,
             (select count(*)::int from seller_follows f where f.seller_id = p.user_id) as followers,
             exists (select 1 from seller_follows f where f.seller_id = p.user_id and f.follower_id = ${viewer}) as following
        from user_profiles p where p.user_id = ${sellerId}::uuid`),
  );
  if (!seller) throw new AppError('NOT_FOUND', messages.storefront.sellerNotFound);
  const own = sql`s.seller_id = ${sellerId}::uuid and ${PUBLIC_SHOW}`;
  const [live, upcoming, past, auctions] = await Promise.all([
    readShows(db, { where: sql`${own} and s.status in ('live', 'paused')`, order: sql`s.scheduled_at, s.id`, limit: 10 }),
    readShows(db, {
      where: sql`${own} and s.status = 'scheduled' and s.scheduled_at >= now() - ${LATE_START}`,
      order: sql`s.scheduled_at, s.id`,
      limit: UPCOMING_MAX,
    }),
    readShows(db, { where: sql`${own} and s.status = 'ended'`, order: sql`s.scheduled_at desc, s.id desc`, limit: PAST_MAX }),
    db.execute(sql`
      select a.id, a.name, ${LOT_IMAGE} as image_url, coalesce(a.current_price, a.starting_price) as price, a.bid_count, a.end_time
        from auctions a
       where a.seller_id = ${sellerId}::uuid and ${OPEN_AUCTION}
       order by a.end_time, a.id
       limit ${AUCTIONS_MAX}`),
  ]);
  const show = { viewerId: opts.viewerId, viewers: opts.viewers };
  const [liveShows, upcomingShows, pastShows] = await Promise.all([
    presentShows(db, live, show),
    presentShows(db, upcoming, show),
    presentShows(db, past, show),
  ]);
  return {
    seller: {
      id: seller.user_id,
      slug: seller.store_slug ?? slug,
      name:
        sellerPublicName({
          displayName: seller.display_name,
          firstName: seller.first_name,
          lastName: seller.last_name,
          companyName: seller.profile_company_name,
        }) ??
        seller.company_name ??
        slug,
      companyName: seller.company_name ?? seller.profile_company_name,
      city: seller.city,
      followers: Number(seller.followers),
      following: Boolean(seller.following),
    },
    live: liveShows,
    upcoming: upcomingShows,
    past: pastShows,
    auctions: rows<RawAuction>(auctions).map((a) =>
      presentAuction({
        id: a.id,
        name: a.name,
        imageUrl: a.image_url,
        price: Number(a.price),
        bidCount: Number(a.bid_count),
        endTime: a.end_time === null ? null : new Date(a.end_time).getTime(),
      }),
    ),
    serverNow: Date.now(),
  };
}
