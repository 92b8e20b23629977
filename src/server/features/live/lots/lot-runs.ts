import { sql } from 'drizzle-orm';
import { rows, type Tx } from '../../../db/connect.js';

/**
 * When each lot was on the block (live_lot_runs): the summary's viewers chart draws a band per run,
 * and only a lot that was on the block sells in the show (reads/lot-runs.ts). Called by openLot before
 * the auction's clock changes, so the auction's end time read here is the one of the run that is
 * ending; by 'Establecer actual' on an auction already running on its own clock; and by a quick
 * auction that starts at once.
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

/** Whether the auction `a` still runs at `at`: on a clock (the show's, or its own) with its end ahead. */
const isRunning = (at: Date) => sql`(a.status in ('live', 'active') and a.end_time is not null and a.end_time > ${at}::timestamptz)`;

/**
 * 'Establecer actual' on a lot whose auction already runs on a clock (an online auction's own end,
 * or a lot opened before): buyers see it on the block and bid on it there, so it is on the block
 * from now (a run), as if its timer had been started. A lot waiting for its timer is not yet.
 */
export async function recordRunIfTimed(tx: Tx, lot: { sessionId: string; lotId: string; auctionId: string }): Promise<void> {
  const [found] = rows<{ at: string | Date }>(
    await tx.execute(sql`
      select clock_timestamp() as at from auctions a
       where a.id = ${lot.auctionId}::uuid and a.status in ('live', 'active') and a.end_time is not null and a.end_time > clock_timestamp()`),
  );
  if (found) await recordLotRun(tx, { ...lot, at: new Date(found.at) });
}

/** 'Volver a subastar' clears the auction's clock: the lot's open run ends first, at that clock's end (or now). */
export async function closeLotRun(tx: Tx, lotId: string): Promise<void> {
  await tx.execute(sql`
    update live_lot_runs r set closed_at = least(clock_timestamp(), coalesce(a.end_time, clock_timestamp()))
    from auctions a
    where a.id = r.auction_id and r.lot_id = ${lotId}::uuid and r.closed_at is null`);
}
