import { and, arrayContains, asc, inArray, isNotNull } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/connect.js';
import { userProfiles } from '../../../db/schema.js';

/**
 * Who collects a sale: the account a buyer pays into decides what goes in one
 * bill. For an auction of `companyId` sold by `sellerId`:
 * 1. a seller with their own connected Mercado Pago account collects in it (one bill per seller);
 * 2. otherwise the company collects: in the connected account of one of its admins (the first to
 *    have joined, so every sale of the company lands in the same one);
 * 3. otherwise the platform's account collects (still one bill per company: a payment belongs to one).
 * The answer is the user whose account collects, or null for the platform's. All of one buyer's
 * wins with the same company and collector go in one payment with one shipping charge.
 */

/** A sale as billing groups it. */
export interface Sale {
  companyId: string;
  sellerId: string | null;
}

export type Collector = string | null;

export const saleKey = (s: Sale) => `${s.companyId}:${s.sellerId ?? ''}`;

/** The collector of each sale, keyed by saleKey. One read of the profiles involved, whatever the number of sales. */
export async function collectorsOf(db: Db | Tx, sales: readonly Sale[]): Promise<Map<string, Collector>> {
  const answer = new Map<string, Collector>();
  if (sales.length === 0) return answer;
  const sellerIds = [...new Set(sales.flatMap((s) => (s.sellerId ? [s.sellerId] : [])))];
  const companyIds = [...new Set(sales.map((s) => s.companyId))];
  const connected = and(isNotNull(userProfiles.mpAccessToken), isNotNull(userProfiles.mpUserId));
  const ownAccounts = sellerIds.length
    ? await db
        .select({ userId: userProfiles.userId })
        .from(userProfiles)
        .where(and(inArray(userProfiles.userId, sellerIds), connected))
    : [];
  const admins = await db
    .select({ userId: userProfiles.userId, companyId: userProfiles.companyId })
    .from(userProfiles)
    .where(and(inArray(userProfiles.companyId, companyIds), arrayContains(userProfiles.roles, ['admin']), connected))
    .orderBy(asc(userProfiles.createdAt), asc(userProfiles.userId));
  const companyAccount = new Map<string, string>();
  for (const a of admins) if (a.companyId && !companyAccount.has(a.companyId)) companyAccount.set(a.companyId, a.userId);
  const own = new Set(ownAccounts.map((r) => r.userId));
  for (const s of sales) {
    answer.set(saleKey(s), s.sellerId && own.has(s.sellerId) ? s.sellerId : (companyAccount.get(s.companyId) ?? null));
  }
  return answer;
}

/** The collector of one sale, or of a payment: its sellerId is null when it holds several sellers' items, and then the company's account collects. */
export async function collectorOf(db: Db | Tx, sale: Sale): Promise<Collector> {
  return (await collectorsOf(db, [sale])).get(saleKey(sale)) ?? null;
}
