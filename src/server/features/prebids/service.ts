import { and, eq, sql } from 'drizzle-orm';
import { isUuid } from '../../../domain/ids.js';
import type { SessionStatus } from '../../../domain/live-public.js';
import { formatMoney } from '../../../domain/money.js';
import type { MySessionPrebids, PrebidAnswer, PrebidStatus } from '../../../domain/prebids.js';
import type { Db, Tx } from '../../db/connect.js';
import { auctions, liveLots, liveSessions, prebids } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { blockReason } from '../../reads/buyer-blocks.js';
import { bidderFacts, type HoldingShow, holdingShow, isBinding, lotWaiting, presentPrebid, presentStatus, readPrebid } from './queries.js';

/**
 * 'Puja anticipada' for buyers: leave, raise and withdraw a maximum on a show's lot before it
 * opens. Every write locks the auction row first, as the Live Hub's timer does when it opens the
 * lot (live/timer.ts), so a pre-bid is either in line before the opening or refused after it.
 * Refusals write nothing. The opening itself is enter.ts.
 */

const notFound = () => new AppError('NOT_FOUND', messages.errors.notFound);

async function lockAuction(tx: Tx, auctionId: string) {
  if (!isUuid(auctionId)) throw notFound();
  const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId.toLowerCase())).for('update');
  if (!auction) throw notFound();
  return auction;
}

/** GET /api/auctions/{id}/prebids/mine: whether pre-bids are taken, and the viewer's own (none when signed out). */
export async function prebidStatus(db: Db, opts: { auctionId: string; viewerId: string | null }): Promise<PrebidStatus> {
  if (!isUuid(opts.auctionId)) throw notFound();
  const [auction] = await db.select().from(auctions).where(eq(auctions.id, opts.auctionId.toLowerCase()));
  if (!auction) throw notFound();
  const show = await holdingShow(db, auction.id);
  const mine = opts.viewerId ? await readPrebid(db, auction.id, opts.viewerId) : null;
  return presentStatus(auction, show, mine);
}

/**
 * GET /api/live-sessions/{id}/prebids/mine: the buyer's own pre-bids on the show's lots, so the
 * live page's upcoming lots read them in one request (none when signed out).
 */
export async function sessionPrebids(db: Db, opts: { sessionId: string; viewerId: string | null }): Promise<MySessionPrebids> {
  if (!isUuid(opts.sessionId)) throw notFound();
  const [session] = await db
    .select({ id: liveSessions.id, status: liveSessions.status })
    .from(liveSessions)
    .where(eq(liveSessions.id, opts.sessionId.toLowerCase()));
  if (!session) throw notFound();
  if (!opts.viewerId) return { sessionId: session.id, items: [] };
  const found = await db
    .select({ prebid: prebids })
    .from(prebids)
    .innerJoin(liveLots, eq(liveLots.auctionId, prebids.auctionId))
    .where(and(eq(liveLots.sessionId, session.id), eq(prebids.bidderId, opts.viewerId)));
  // An ended show holds nothing: what waited in it may be withdrawn (withdrawPrebid reads it the same way).
  const show: HoldingShow | null =
    session.status === 'ended' ? null : { sessionId: session.id, sessionStatus: session.status as SessionStatus, lotStatus: 'queued' };
  return { sessionId: session.id, items: found.map((f) => presentPrebid(f.prebid, show)) };
}

/**
 * POST /api/auctions/{id}/prebids: leaves or raises the buyer's maximum. A repeat of the same
 * maximum (a double click) changes nothing; a lower one is refused, since a pre-bid only rises
 * (once the show is live it binds, and lowering would be a withdrawal by another name). A raise
 * keeps `created_at`, its place in line at the opening.
 */
export async function placePrebid(
  db: Db,
  opts: Acting<{ id: string }> & { auctionId: string; maxAmount: number },
): Promise<{ created: boolean; answer: PrebidAnswer }> {
  const buyerId = opts.actor.id;
  return db.transaction(async (tx) => {
    const auction = await lockAuction(tx, opts.auctionId);
    const show = await holdingShow(tx, auction.id);
    if (!show) throw new AppError('CONFLICT', messages.prebids.notInShow);
    if (!lotWaiting(auction, show)) throw new AppError('CONFLICT', messages.prebids.notOpen);
    // The same checks, in the same order, as the bid engine makes at the opening.
    const facts = await bidderFacts(tx, buyerId);
    if (!facts.complete) throw new AppError('PROFILE_INCOMPLETE', messages.prebids.profileIncomplete);
    if (auction.sellerId === buyerId || auction.companyId === facts.company) throw new AppError('OWN_AUCTION', messages.prebids.ownAuction);
    const block = await blockReason(tx, auction.companyId, buyerId);
    if (block) throw new AppError('BUYER_BLOCKED', block === 'strikes' ? messages.unpaid.struck : messages.prebids.blocked);
    if (opts.maxAmount < auction.startingPrice) {
      throw new AppError('BID_TOO_LOW', messages.prebids.tooLow.replace('{{amount}}', formatMoney(auction.startingPrice)));
    }

    const existing = await readPrebid(tx, auction.id, buyerId);
    // A pre-bid that entered an earlier opening of this lot (it re-runs unsold) is spent: a new one takes its place.
    const waiting = existing && existing.enteredAt === null ? existing : null;
    if (waiting && opts.maxAmount === waiting.maxAmount) {
      return { created: false, answer: { prebid: presentPrebid(waiting, show), status: presentStatus(auction, show, waiting) } };
    }
    if (waiting && opts.maxAmount < waiting.maxAmount) {
      throw new AppError('CONFLICT', messages.prebids.lower.replace('{{amount}}', formatMoney(waiting.maxAmount)));
    }

    const now = new Date();
    // The database's clock to the microsecond: two buyers a millisecond apart keep their order in line.
    const inLine = sql`clock_timestamp()`;
    const [row] = waiting
      ? await tx
          .update(prebids)
          .set({ maxAmount: opts.maxAmount, updatedAt: now })
          .where(and(eq(prebids.auctionId, auction.id), eq(prebids.bidderId, buyerId)))
          .returning()
      : await tx
          .insert(prebids)
          .values({ auctionId: auction.id, bidderId: buyerId, maxAmount: opts.maxAmount, createdAt: inLine, updatedAt: now })
          .onConflictDoUpdate({
            target: [prebids.auctionId, prebids.bidderId],
            set: { maxAmount: opts.maxAmount, createdAt: inLine, updatedAt: now, enteredAt: null, outcome: null },
          })
          .returning();
    if (!row) throw new Error('pre-bid write returned nothing');
    return { created: !waiting, answer: { prebid: presentPrebid(row, show), status: presentStatus(auction, show, row) } };
  });
}

/** DELETE /api/auctions/{id}/prebids/mine: withdrawn only while the show holding the lot has not gone live. */
export async function withdrawPrebid(db: Db, opts: Acting<{ id: string }> & { auctionId: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const auction = await lockAuction(tx, opts.auctionId);
    const mine = await readPrebid(tx, auction.id, opts.actor.id);
    if (!mine) throw new AppError('NOT_FOUND', messages.prebids.notFound);
    const show = await holdingShow(tx, auction.id);
    if (mine.enteredAt !== null) throw new AppError('CONFLICT', messages.prebids.entered);
    if (isBinding(mine, show)) throw new AppError('CONFLICT', messages.prebids.binding);
    await tx.delete(prebids).where(and(eq(prebids.auctionId, auction.id), eq(prebids.bidderId, opts.actor.id)));
  });
}
