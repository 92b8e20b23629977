import { sql } from 'drizzle-orm';
import type { WithdrawnBids } from '../../../domain/bidding.js';
import { type AuditOrigin, recordAudit } from '../../audit.js';
import { rows, type Tx } from '../../db/connect.js';
import type { EngineLine, EngineState } from '../../db/engine-rows.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import { auctionUpdated } from '../auctions/index.js';

/** What `withdraw_bids` answers (src/server/db/functions/withdraw-bids.sql) when it withdrew something. */
interface WithdrawAnswer {
  state: EngineState;
  /** The leader's line written at the new price, if one was needed. */
  lines: EngineLine[];
  withdrawn: number;
  previousLeaderId: string | null;
  previousPrice: number | null;
}

export interface BidderWithdrawn {
  lots: WithdrawnBids[];
  prebidsRemoved: number;
  /** For each lot: its new state and line for the room, and an update so every open page refetches its history. */
  events: DomainEvent[];
}

/**
 * A company blocked a bidder: their standing bids on every one of its lots not yet closed (a
 * regular auction, a show's lot, running or past its end but not closed) are withdrawn, each lot
 * falling back to the others' bids (withdraw-bids.sql), and their pre-bids on its lots to come are
 * removed. Runs inside the block's transaction, after the block row is written.
 *
 * Every lot of the company that takes bids is locked first, in id order (as the bid engine locks one:
 * FOR UPDATE), so a bid racing the block either was decided before (and is withdrawn here) or is
 * decided after the commit, when the engine's own check refuses it. A lot a rehearsal holds is left
 * alone: the rehearsal puts it back as it found it, and the close never makes a blocked bidder the winner.
 * `by` is who blocked (a moderator's request), or null for the system (a block for unpaid bills).
 */
export async function withdrawBidder(tx: Tx, opts: { by: AuditOrigin; companyId: string; userId: string }): Promise<BidderWithdrawn> {
  const { companyId, userId } = opts;
  const locked = rows<{ id: string }>(
    await tx.execute(sql`
      select a.id from auctions a
       where a.company_id = ${companyId} and a.closed_at is null
         and (a.status in ('active', 'live')
              or exists (select 1 from bids b where b.auction_id = a.id and b.bidder_id = ${userId}::uuid and b.withdrawn_at is null))
         and not exists (select 1 from rehearsal_snapshots rs where rs.auction_id = a.id)
       order by a.id
       for update of a`),
  ).map((r) => r.id);
  const lots: WithdrawnBids[] = [];
  const events: DomainEvent[] = [];
  if (locked.length > 0) {
    const ids = sql.join(
      locked.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    const holding = rows<{ auction_id: string }>(
      await tx.execute(sql`
        select distinct auction_id from bids
         where bidder_id = ${userId}::uuid and withdrawn_at is null and auction_id in (${ids})
         order by auction_id`),
    );
    for (const { auction_id: auctionId } of holding) {
      const [row] = rows<{ r: WithdrawAnswer | null }>(await tx.execute(sql`select withdraw_bids(${auctionId}::uuid, array[${userId}::uuid]) as r`));
      const answer = row?.r;
      if (!answer) continue;
      const { state } = answer;
      lots.push({ auctionId, auctionName: state.name, currentPrice: state.currentPrice, startingPrice: state.startingPrice });
      events.push({ type: 'bidPlaced', state, lines: answer.lines, outbidUserId: null }, auctionUpdated(state));
      await recordAudit(tx, {
        by: opts.by,
        action: 'auction.bids_withdraw',
        entityType: 'auction',
        entityId: auctionId,
        before: { price: answer.previousPrice, leaderId: answer.previousLeaderId },
        after: { bidderId: userId, withdrawnLines: answer.withdrawn, price: state.currentPrice, leaderId: state.leaderId },
      });
    }
    // A retry of one of their bids is decided afresh (and refused), not answered as it was.
    await tx.execute(sql`delete from bid_keys where bidder_id = ${userId}::uuid and auction_id in (${ids})`);
  }
  // Their 'Puja anticipada' maximums waiting on the company's lots: they would be refused at the opening anyway.
  const removed = rows<{ auction_id: string }>(
    await tx.execute(sql`
      delete from prebids p using auctions a
       where a.id = p.auction_id and a.company_id = ${companyId} and a.closed_at is null
         and p.bidder_id = ${userId}::uuid and p.entered_at is null
         and not exists (select 1 from rehearsal_snapshots rs where rs.auction_id = a.id)
      returning p.auction_id`),
  );
  lots.sort((a, b) => a.auctionName.localeCompare(b.auctionName, 'es'));
  return { lots, prebidsRemoved: removed.length, events };
}
