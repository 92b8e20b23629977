import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/connect.js';

/**
 * When each lot was on the block (live_lot_runs), for the show's summary: the viewers chart draws a
 * band per run. Called by openLot before the auction's clock changes, so the auction's end time
 * read here is the one of the run that is ending.
 * - another lot's run still open ends now (the seller moved on), or at its auction's end if that came first;
 * - this lot's own run, if its auction already ended, ends at that end (it is being reopened);
 * - a new run starts unless this lot's run is still going (a +15/+30/+60 on the running lot).
 */
export async function recordLotRun(tx: Tx, run: { sessionId: string; lotId: string; auctionId: string; at: Date }): Promise<void> {
  await tx.execute(sql`
    update live_lot_runs r set closed_at = least(${run.at}::timestamptz, coalesce(a.end_time, ${run.at}::timestamptz))
    from auctions a
    where a.id = r.auction_id and r.session_id = ${run.sessionId}::uuid and r.closed_at is null
      and (r.lot_id <> ${run.lotId}::uuid or a.end_time <= ${run.at}::timestamptz or a.status = 'ended')`);
  await tx.execute(sql`
    insert into live_lot_runs (session_id, lot_id, auction_id, opened_at)
    select ${run.sessionId}::uuid, ${run.lotId}::uuid, ${run.auctionId}::uuid, ${run.at}::timestamptz
    where not exists (select 1 from live_lot_runs where lot_id = ${run.lotId}::uuid and closed_at is null)`);
}
