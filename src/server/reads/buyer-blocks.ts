import { sql } from 'drizzle-orm';
import { type Db, rows, type Tx } from '../db/connect.js';

/** Why the company blocked this buyer, or null. */
export async function blockReason(db: Db | Tx, companyId: string, userId: string): Promise<'moderation' | 'strikes' | null> {
  const [r] = rows<{ reason: 'moderation' | 'strikes' }>(
    await db.execute(sql`select reason from company_blocks where company_id = ${companyId} and user_id = ${userId}::uuid`),
  );
  return r?.reason ?? null;
}
