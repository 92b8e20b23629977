import { type AnyColumn, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/connect.js';
import { companies } from '../db/schema.js';

/**
 * The company name for a company id column, as a scalar subquery: `companyNameSql(payments.companyId)`.
 * Null when the id has no record (the UI then shows the id).
 */
export function companyNameSql(companyIdColumn: AnyColumn | SQL): SQL<string | null> {
  return sql<string | null>`(select ${companies.name} from ${companies} where ${companies.id} = ${companyIdColumn})`;
}

/** Each company's name, by id (ids without a record are absent). */
export async function companyNames(db: Db | Tx, companyIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(companyIds)].filter(Boolean);
  if (ids.length === 0) return new Map();
  const found = await db.select({ id: companies.id, name: companies.name }).from(companies).where(inArray(companies.id, ids));
  return new Map(found.map((r) => [r.id, r.name]));
}

/** Creates the record of a company id that has none yet, named as the migration names one (company_starting_name). */
export async function ensureCompany(db: Db | Tx, companyId: string): Promise<void> {
  await db.execute(sql`insert into companies (id, name) values (${companyId}, company_starting_name(${companyId}, null)) on conflict (id) do nothing`);
}
