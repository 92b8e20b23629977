import { and, count, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../../../audit.js';
import type { Db } from '../../../db/connect.js';
import { auctions, liveLots } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import { type Actor, afterCommit, bumpSession, lockEditable, type SessionCommitted } from '../sessions/sessions.js';
import { inPayment } from '../show/timer.js';
import { closeGap } from './lot-order.js';
import { closeLotRun } from './lot-runs.js';
import { lotNotFound, readEditableLot } from './lots.js';

/**
 * 'Volver a subastar': a lot that ran and did not sell goes back to the queue, last, and its
 * auction waits to be opened again exactly as a lot never opened does (pending, no end time, no
 * close), so 'Siguiente lote' or the timer opens it like any other. A lot that sold, sits in a
 * payment, is running, or never ran is refused with its reason.
 *
 * Locks: the lot's auction first, then the session (the Live Hub's order). The lot moves to the
 * end as a removal closes its gap: the lot is parked past every order, each later lot moves up one
 * step (each row updated once, lot-order.ts explains why), then the lot takes the last place.
 */

/** Where the lot waits while the others move up: past lot-order.ts's OFFSET, so closeGap leaves it alone. */
const PARKED = 2_000_000;

export async function requeueLot(db: Db, opts: Acting<Actor> & { present: BidPresenter; sessionId: string; lotId: string }): Promise<SessionCommitted> {
  const { lotId, auctionId } = await readEditableLot(db, opts);
  const change = await db.transaction(async (tx) => {
    const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for('update');
    if (!auction) throw lotNotFound();
    const session = await lockEditable(tx, opts.sessionId, opts.actor);
    const [lot] = await tx
      .select()
      .from(liveLots)
      .where(and(eq(liveLots.id, lotId), eq(liveLots.sessionId, session.id)));
    if (!lot) throw lotNotFound();
    if (auction.bidCount > 0 || auction.currentWinnerId !== null) throw new AppError('CONFLICT', messages.live.requeueSold);
    if (auction.isPaid || (await inPayment(tx, auction.id))) throw new AppError('CONFLICT', messages.live.lotInPayment);
    if (auction.closedAt === null) {
      // Not closed: either it never ran (it already waits in the queue), or it runs, or its end passed
      // and the scheduler closes it in a moment: the seller waits for the close.
      const neverRan = auction.status === 'pending' || auction.endTime === null;
      if (!neverRan) throw new AppError('CONFLICT', messages.live.requeueRunning);
      if (lot.status === 'queued') throw new AppError('CONFLICT', messages.live.requeueQueued);
    }
    await closeLotRun(tx, lot.id);
    await tx
      .update(auctions)
      .set({
        status: 'pending',
        endTime: null,
        closedAt: null,
        currentWinnerId: null,
        currentWinnerName: null,
        winnerEmail: null,
        winnerWhatsapp: null,
        version: sql`${auctions.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(auctions.id, auction.id));
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(liveLots).where(eq(liveLots.sessionId, session.id));
    await tx.update(liveLots).set({ status: 'queued', order: PARKED }).where(eq(liveLots.id, lot.id));
    await closeGap(tx, session.id, lot.order);
    await tx
      .update(liveLots)
      .set({ order: Number(n) })
      .where(eq(liveLots.id, lot.id));
    // The current lot sent to the end is no longer current: 'Siguiente lote' then opens the first lot of the queue.
    await bumpSession(tx, session.id, session.currentLotId === lot.id ? { currentLotId: null } : {});
    await recordAudit(tx, {
      by: opts,
      action: 'live_session.requeue',
      entityType: 'live_session',
      entityId: session.id,
      before: { lotId: lot.id, order: lot.order, status: lot.status, auctionStatus: auction.status, closedAt: auction.closedAt },
      after: { lotId: lot.id, order: Number(n), status: 'queued', auctionStatus: 'pending' },
    });
    return { sessionId: session.id, statusChanged: false };
  });
  return afterCommit(db, opts.present, change);
}
