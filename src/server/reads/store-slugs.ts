import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { slugify } from '../../domain/live-public.js';
import { type Db, rows, type Tx } from '../db/connect.js';
import { pgErrorCode, UNIQUE_VIOLATION } from '../db/errors.js';
import { userProfiles } from '../db/schema.js';

/**
 * A seller's public page is `/tienda/{storeSlug}`. The slug is given once, the first time the seller
 * needs a page (a show created, a request to sell approved), from the name they chose, and then
 * stays: a link shared in WhatsApp keeps working when the seller renames a show.
 */

/** Words a seller's slug may not take: paths the router gives another meaning under `/tienda/`. */
const RESERVED = new Set(['livehub']);
const MAX_LENGTH = 60;

/** The slug a name gives, before uniqueness: the live links' own rule (SPEC §5), capped. */
export function storeSlugCandidate(name: string): string {
  const slug = slugify(name).slice(0, MAX_LENGTH).replace(/-+$/, '');
  return slug && !RESERVED.has(slug) ? slug : '';
}

/** Each seller's slug, by user id (sellers without one are absent). */
export async function storeSlugs(db: Db | Tx, sellerIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(sellerIds)].filter(Boolean);
  if (ids.length === 0) return new Map();
  const found = await db.select({ id: userProfiles.userId, slug: userProfiles.storeSlug }).from(userProfiles).where(inArray(userProfiles.userId, ids));
  return new Map(found.flatMap((r) => (r.slug ? [[r.id, r.slug] as const] : [])));
}

/**
 * The seller's slug, giving one if they have none: the first free of `name`, `name-2`, `name-3`…
 * (or `tienda-<first 8 of the id>` when the name gives nothing). Safe against a concurrent call for
 * the same seller (the one written first wins) and for another seller wanting the same slug (the
 * unique key refuses the second, which takes the next number). Null when the user has no profile.
 */
export async function ensureStoreSlug(db: Db | Tx, sellerId: string, name: string): Promise<string | null> {
  const current = await db.select({ slug: userProfiles.storeSlug }).from(userProfiles).where(eq(userProfiles.userId, sellerId)).limit(1);
  if (current.length === 0) return null;
  if (current[0]?.slug) return current[0].slug;
  const base = storeSlugCandidate(name) || `tienda-${sellerId.slice(0, 8)}`;
  for (let n = 1; n <= 50; n++) {
    const candidate = n === 1 ? base : `${base.slice(0, MAX_LENGTH - String(n).length - 1)}-${n}`;
    try {
      // A savepoint, so a taken slug does not abort the caller's transaction.
      const written = await db.transaction(async (tx) =>
        tx
          .update(userProfiles)
          .set({ storeSlug: candidate })
          .where(and(eq(userProfiles.userId, sellerId), isNull(userProfiles.storeSlug)))
          .returning({ slug: userProfiles.storeSlug }),
      );
      if (written[0]?.slug) return written[0].slug;
      // Someone gave this seller a slug meanwhile: theirs stands.
      const now = await db.select({ slug: userProfiles.storeSlug }).from(userProfiles).where(eq(userProfiles.userId, sellerId)).limit(1);
      return now[0]?.slug ?? null;
    } catch (error) {
      if (pgErrorCode(error) !== UNIQUE_VIOLATION) throw error;
    }
  }
  throw new Error(`No free store slug for ${base}`);
}

/** The seller whose page a slug names: their own slug, or (for a seller who has none yet) a show's link slug. */
export async function sellerForStoreSlug(db: Db | Tx, slug: string): Promise<string | null> {
  const own = await db.select({ id: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.storeSlug, slug)).limit(1);
  if (own[0]) return own[0].id;
  const [byShow] = rows<{ seller_id: string }>(
    await db.execute(sql`
      select s.seller_id from live_sessions s join user_profiles p on p.user_id = s.seller_id
      where s.seller_slug = ${slug} and not s.rehearsal and p.store_slug is null
      order by s.created_at desc limit 1`),
  );
  return byShow?.seller_id ?? null;
}
