import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { foldText, nameTokens } from '../../domain/text.js';
import type { Db, Tx } from '../db/connect.js';
import { auctions, categories } from '../db/schema.js';
import { companyNames } from './companies.js';

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

/** A company's name for each id, from its record (companies); re-exported for the auction readers. */
export { companyNames, nameTokens };

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
