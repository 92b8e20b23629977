import { eq, inArray } from 'drizzle-orm';
import type { StoreLink } from '../../domain/storefront.js';
import type { Db, Tx } from '../db/connect.js';
import { userProfiles } from '../db/schema.js';
import { ensureStoreSlug } from './store-slugs.js';

/**
 * The seller's page as public answers name it (a show, an auction, the storefront): the slug of
 * `/tienda/{slug}` and the seller's own name. The name is the profile's display name, else first
 * and last name, else the company name the profile carries: never the e-mail (a display name that
 * looks like one is skipped).
 */
export function sellerPublicName(p: {
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
}): string | null {
  const clean = (v: string | null) => {
    const t = v?.trim() ?? '';
    return t && !t.includes('@') ? t : null;
  };
  const full = [clean(p.firstName), clean(p.lastName)].filter(Boolean).join(' ');
  return clean(p.displayName) ?? (full || null) ?? clean(p.companyName);
}

/** Each seller's page link, by user id: only sellers with a store slug. */
export async function storeLinks(db: Db | Tx, sellerIds: readonly (string | null)[]): Promise<Map<string, StoreLink>> {
  const ids = [...new Set(sellerIds.filter((id): id is string => Boolean(id)))];
  if (ids.length === 0) return new Map();
  const found = await db
    .select({
      id: userProfiles.userId,
      slug: userProfiles.storeSlug,
      displayName: userProfiles.displayName,
      firstName: userProfiles.firstName,
      lastName: userProfiles.lastName,
      companyName: userProfiles.companyName,
    })
    .from(userProfiles)
    .where(inArray(userProfiles.userId, ids));
  return new Map(found.flatMap((r) => (r.slug ? [[r.id, { slug: r.slug, name: sellerPublicName(r) ?? r.slug }] as const] : [])));
}

/** One seller's page link, or null. */
export async function storeLink(db: Db | Tx, sellerId: string | null): Promise<StoreLink | null> {
  if (!sellerId) return null;
  return (await storeLinks(db, [sellerId])).get(sellerId) ?? null;
}

/**
 * Every seller who runs a show has a page: gives the seller a slug if they have none, from
 * `preferred` (the show's seller slug, as its live links use it) or else their name. Null when the
 * user has no profile.
 */
export async function ensureSellerPage(db: Db | Tx, sellerId: string, preferred: string | null | undefined): Promise<string | null> {
  const [p] = await db
    .select({
      slug: userProfiles.storeSlug,
      displayName: userProfiles.displayName,
      firstName: userProfiles.firstName,
      lastName: userProfiles.lastName,
      companyName: userProfiles.companyName,
    })
    .from(userProfiles)
    .where(eq(userProfiles.userId, sellerId))
    .limit(1);
  if (!p) return null;
  if (p.slug) return p.slug;
  return ensureStoreSlug(db, sellerId, preferred?.trim() || sellerPublicName(p) || '');
}
