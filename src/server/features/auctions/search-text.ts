import { and, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import { isUuid } from '../../../domain/ids.js';
import { foldText, nameTokens } from '../../../domain/text.js';
import type { Db, Tx } from '../../db/connect.js';
import { auctions, categories, userProfiles } from '../../db/schema.js';

/**
 * The admin search (SPEC §2) matches name, category, marca, envio, company and current winner
 * name. They are folded into one `search_text` column, indexed by word (`search_vector`), so a search is one
 * indexed scan at any size. Whoever changes one of those inputs calls refreshAuctionSearchText.
 */
export interface SearchParts {
  name: string;
  categoryName?: string | null;
  marca?: string | null;
  envio?: string | null;
  companyName?: string | null;
  winnerName?: string | null;
}

export function buildSearchText(parts: SearchParts): string {
  return foldText([parts.name, parts.categoryName, parts.marca, parts.envio, parts.companyName, parts.winnerName].filter(Boolean).join(' \u2022 '));
}

export { nameTokens };

/**
 * A company's display name, for each id. A company is a companyId (SPEC §3: the profile's
 * companyId, falling back to the uid): its name is the business name of the user whose uid it is,
 * else of one of its admins, else of any member who set one.
 */
export async function companyNames(db: Db | Tx, companyIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(companyIds)].filter(Boolean);
  const names = new Map<string, string>();
  if (ids.length === 0) return names;
  const uuidIds = ids.filter(isUuid);
  const found = await db
    .select({
      userId: userProfiles.userId,
      companyId: userProfiles.companyId,
      companyName: userProfiles.companyName,
      isAdmin: sql<boolean>`'admin' = any(${userProfiles.roles})`,
      createdAt: userProfiles.createdAt,
    })
    .from(userProfiles)
    .where(
      and(
        isNotNull(userProfiles.companyName),
        or(
          inArray(userProfiles.companyId, ids),
          uuidIds.length ? and(inArray(userProfiles.userId, uuidIds), sql`${userProfiles.companyId} is null`) : undefined,
        ),
      ),
    );
  const rank = (row: (typeof found)[number], companyId: string) => (row.userId === companyId ? 0 : row.isAdmin ? 1 : 2);
  const best = new Map<string, { rank: number; at: number; name: string }>();
  for (const row of found) {
    const companyId = row.companyId ?? row.userId;
    const name = row.companyName?.trim();
    if (!name) continue;
    const candidate = { rank: rank(row, companyId), at: row.createdAt.getTime(), name };
    const current = best.get(companyId);
    if (!current || candidate.rank < current.rank || (candidate.rank === current.rank && candidate.at < current.at)) best.set(companyId, candidate);
  }
  for (const [id, value] of best) names.set(id, value.name);
  return names;
}

/** Recomputes search_text for the auctions matching `where` (by ids, a category or a company). */
export async function refreshAuctionSearchText(db: Db | Tx, where: { auctionIds?: string[]; categoryId?: string; companyId?: string }): Promise<number> {
  const conditions: SQL[] = [];
  if (where.auctionIds) {
    if (where.auctionIds.length === 0) return 0;
    conditions.push(inArray(auctions.id, where.auctionIds));
  }
  if (where.categoryId) conditions.push(eq(auctions.categoryId, where.categoryId));
  if (where.companyId) conditions.push(eq(auctions.companyId, where.companyId));
  if (conditions.length === 0) throw new Error('refreshAuctionSearchText needs a filter');
  const found = await db
    .select({
      id: auctions.id,
      name: auctions.name,
      marca: auctions.marca,
      envio: auctions.envio,
      winnerName: auctions.currentWinnerName,
      companyId: auctions.companyId,
      categoryName: categories.name,
    })
    .from(auctions)
    .leftJoin(categories, eq(categories.id, auctions.categoryId))
    .where(and(...conditions));
  if (found.length === 0) return 0;
  const names = await companyNames(
    db,
    found.map((r) => r.companyId),
  );
  const BATCH = 500;
  for (let i = 0; i < found.length; i += BATCH) {
    const values = found.slice(i, i + BATCH).map((r) => sql`(${r.id}::uuid, ${buildSearchText({ ...r, companyName: names.get(r.companyId) ?? null })})`);
    await db.execute(sql`update auctions set search_text = v.t from (values ${sql.join(values, sql`, `)}) as v(id, t) where auctions.id = v.id`);
  }
  return found.length;
}
