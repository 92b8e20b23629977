import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SessionStatus } from '../../../domain/live-public.js';
import type { MyPrebid, PrebidOutcome, PrebidStatus } from '../../../domain/prebids.js';
import { type Db, rows, type Tx } from '../../db/connect.js';
import { type auctions, liveLots, liveSessions, prebids } from '../../db/schema.js';

export type AuctionRow = typeof auctions.$inferSelect;
export type PrebidRow = typeof prebids.$inferSelect;

/**
 * The show that holds the auction as a lot and has not ended, the running one first; null when
 * none. A paused show is still under way: its lots to come take pre-bids, and they bind.
 */
export interface HoldingShow {
  sessionId: string;
  sessionStatus: SessionStatus;
  lotStatus: string;
}

export async function holdingShow(db: Db | Tx, auctionId: string): Promise<HoldingShow | null> {
  const found = await db
    .select({ sessionId: liveSessions.id, sessionStatus: liveSessions.status, lotStatus: liveLots.status })
    .from(liveLots)
    .innerJoin(liveSessions, eq(liveSessions.id, liveLots.sessionId))
    .where(and(eq(liveLots.auctionId, auctionId), inArray(liveSessions.status, ['scheduled', 'live', 'paused'])))
    .orderBy(sql`${liveSessions.status} = 'scheduled' asc`);
  const [first] = found;
  return first ? { sessionId: first.sessionId, sessionStatus: first.sessionStatus as SessionStatus, lotStatus: first.lotStatus } : null;
}

/**
 * Whether the lot has not opened yet: no bids, no winner, not ended, and no end time running (a
 * pending auction's end is not running: it takes no bids until the seller opens the lot).
 */
export function lotWaiting(auction: AuctionRow, show: HoldingShow | null): boolean {
  if (show?.lotStatus !== 'queued') return false;
  if (auction.status === 'ended' || auction.closedAt !== null || auction.bidCount > 0 || auction.currentWinnerId !== null) return false;
  return auction.endTime === null || auction.status === 'pending';
}

/** A pre-bid binds once the show holding it is under way (live or paused), or once it entered the engine. */
export function isBinding(prebid: Pick<PrebidRow, 'enteredAt'>, show: HoldingShow | null): boolean {
  return prebid.enteredAt !== null || (show !== null && show.sessionStatus !== 'scheduled');
}

export function presentPrebid(row: PrebidRow, show: HoldingShow | null): MyPrebid {
  return {
    auctionId: row.auctionId,
    maxAmount: row.maxAmount,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    binding: isBinding(row, show),
    enteredAt: row.enteredAt ? row.enteredAt.getTime() : null,
    outcome: (row.outcome as PrebidOutcome | null) ?? null,
  };
}

export function presentStatus(auction: AuctionRow, show: HoldingShow | null, mine: PrebidRow | null): PrebidStatus {
  return {
    auctionId: auction.id,
    open: lotWaiting(auction, show),
    sessionId: show?.sessionId ?? null,
    sessionStatus: show?.sessionStatus ?? null,
    minimum: auction.startingPrice,
    mine: mine ? presentPrebid(mine, show) : null,
  };
}

export async function readPrebid(db: Db | Tx, auctionId: string, bidderId: string): Promise<PrebidRow | null> {
  const [row] = await db
    .select()
    .from(prebids)
    .where(and(eq(prebids.auctionId, auctionId), eq(prebids.bidderId, bidderId)));
  return row ?? null;
}

/** What the bid engine knows of a buyer (db/functions/bidder-facts.sql): their company and whether their profile lets them bid. */
export async function bidderFacts(db: Db | Tx, userId: string): Promise<{ company: string | null; complete: boolean }> {
  const [row] = rows<{ o_company: string | null; o_complete: boolean | null }>(
    await db.execute(sql`select f.o_company, f.o_complete from bidder_facts(${userId}::uuid) f`),
  );
  return { company: row?.o_company ?? null, complete: row?.o_complete === true };
}

export async function isBlocked(db: Db | Tx, companyId: string, userId: string): Promise<boolean> {
  const found = rows<{ one: number }>(
    await db.execute(sql`select 1 as one from company_blocks where company_id = ${companyId} and user_id = ${userId}::uuid limit 1`),
  );
  return found.length > 0;
}
