import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { HeldWin } from '../../../domain/chat.js';
import { rows, type Tx } from '../../db/connect.js';
import { HOLDING_PAYMENT_STATUSES } from '../../db/schema.js';

/**
 * A blocked buyer is never billed. A lot already won by a buyer that its company then blocks stays
 * won (the close decided it, and the history is kept), but no bill takes it while the block lasts:
 * the winners summary, 'Cobrar el show' and a new draft (or items added to one) leave it out. Lifting
 * the block makes it billable again. Bills made before the block (draft, pending, paid) stay as
 * they are. The block's answer names these lots, so the seller knows why they wait.
 */

/**
 * "Not blocked by the company": the auction's winner is not blocked by the auction's company. For
 * the billing queries, over the auction's company and winner columns.
 */
export function winnerNotBlockedByCompany(auction: { companyId: SQLWrapper; currentWinnerId: SQLWrapper }): SQL {
  return sql`not exists (select 1 from company_blocks cb where cb.company_id = ${auction.companyId} and cb.user_id = ${auction.currentWinnerId})`;
}

/** The company's lots the user won that no draft, pending or paid bill holds (and no rehearsal): held out of billing by their block. */
export async function heldWins(tx: Tx, opts: { companyId: string; userId: string }): Promise<HeldWin[]> {
  const holding = sql.join(
    HOLDING_PAYMENT_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  return rows<{ id: string; name: string; amount: number | null }>(
    await tx.execute(sql`
      select a.id, a.name, a.current_price as amount from auctions a
       where a.company_id = ${opts.companyId} and a.current_winner_id = ${opts.userId}::uuid and a.status = 'ended'
         and not exists (select 1 from payment_items pi where pi.auction_id = a.id and pi.payment_status in (${holding}))
         and not exists (select 1 from rehearsal_snapshots rs where rs.auction_id = a.id)
       order by a.end_time, a.id
       limit 100`),
  ).map((r) => ({ auctionId: r.id, auctionName: r.name, amount: r.amount === null ? null : Number(r.amount) }));
}
