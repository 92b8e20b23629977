import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * Whether an auction's winner is a real sale. A rehearsal ('Ensayo', features/live/sessions/rehearsal-snapshot.ts)
 * runs a real show on the seller's real auctions and puts them back when it ends: what it sells,
 * and what its simulated bidders win, is nobody's purchase, bill or sale count. Every winners' and
 * summary query asks through these, so the rule has one spelling.
 */

/** True while the auction (a column or expression holding its id) is held by a rehearsal. */
export function inRehearsal(auctionId: SQLWrapper): SQL {
  return sql`exists (select 1 from rehearsal_snapshots rs where rs.auction_id = ${auctionId})`;
}

/** True when the winner (a column or expression holding a user id) is one of a rehearsal's simulated bidders. */
export function simulatedWinner(winnerId: SQLWrapper): SQL {
  return sql`exists (select 1 from users su where su.id = ${winnerId} and su.is_simulated)`;
}

/** A real sale: the auction is not in a rehearsal and its winner is not simulated. Check the winner is set apart. */
export function realSale(sale: { auctionId: SQLWrapper; winnerId: SQLWrapper }): SQL {
  return sql`(not ${inRehearsal(sale.auctionId)} and not ${simulatedWinner(sale.winnerId)})`;
}
