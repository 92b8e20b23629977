import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/connect.js';

/**
 * When each lot was on the block (live_lot_runs), for the show's summary: the viewers chart draws a
 * band per run. Called by openLot before the auction's clock changes, so the auction's end time
 * read here is the one of the run that is ending.
 * - another lot's run still open ends now (the seller moved on), or at its auction's end if that came first;
 * - this lot's own run, if its auction no longer runs, ends at its end (it is being reopened);
 * - a new run starts unless this lot's run is still going (a +15/+30/+60 on the running lot).
 */
export async function recordLotRun(tx: Tx, run: { sessionId: string; lotId: string; auctionId: string; at: Date }): Promise<void> {
  await tx.execute(sql`
    update live_lot_runs r set closed_at = least(${run.at}::timestamptz, coalesce(a.end_time, ${run.at}::timestamptz))
    from auctions a
    where a.id = r.auction_id and r.session_id = ${run.sessionId}::uuid and r.closed_at is null
      and (r.lot_id <> ${run.lotId}::uuid or not ${isRunning(run.at)})`);
  await tx.execute(sql`
    insert into live_lot_runs (session_id, lot_id, auction_id, opened_at)
    select ${run.sessionId}::uuid, ${run.lotId}::uuid, ${run.auctionId}::uuid, ${run.at}::timestamptz
    where not exists (select 1 from live_lot_runs where lot_id = ${run.lotId}::uuid and closed_at is null)`);
}

/** Whether the auction `a` still runs at `at`: live with its end ahead. */
const isRunning = (at: Date) => sql`(a.status = 'live' and a.end_time is not null and a.end_time > ${at}::timestamptz)`;

/** 'Volver a subastar' clears the auction's clock: the lot's open run ends first, at that clock's end (or now). */
export async function closeLotRun(tx: Tx, lotId: string): Promise<void> {
  await tx.execute(sql`
    update live_lot_runs r set closed_at = least(clock_timestamp(), coalesce(a.end_time, clock_timestamp()))
    from auctions a
    where a.id = r.auction_id and r.lot_id = ${lotId}::uuid and r.closed_at is null`);
}
