import { type SQL, sql } from 'drizzle-orm';

/**
 * Only a lot that was on the block sells in the show. True when the lot went on the block in its
 * session (a run) and its auction was not on the block since as another show's lot: the auction's
 * latest run is this lot's, so whatever it sold (or not) it sold here. An auction that closed at
 * its own end while it waited in the queue, or that ran in one show and sold in a later one, is no
 * sale of the first. Arguments are SQL naming the lot's id, session and auction; the lookups go
 * through the runs' session index.
 */
export function onBlockHereSql(lot: { id: SQL; sessionId: SQL; auctionId: SQL }): SQL {
  return sql`exists (
    select 1 from live_lot_runs r
     where r.session_id = ${lot.sessionId} and r.lot_id = ${lot.id}
       and not exists (
         select 1 from live_lots l2 join live_lot_runs r2 on r2.session_id = l2.session_id and r2.lot_id = l2.id
          where l2.auction_id = ${lot.auctionId} and l2.id <> ${lot.id} and r2.opened_at > r.opened_at))`;
}
