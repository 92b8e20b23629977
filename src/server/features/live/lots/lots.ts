import { and, count, eq, sql } from 'drizzle-orm';
import { isUuid } from '../../../../domain/ids.js';
import { nextLotOrder } from '../../../../domain/live.js';
import { recordAudit } from '../../../audit.js';
import type { Db } from '../../../db/connect.js';
import { auctions, liveLots, liveSessions } from '../../../db/schema.js';
import type { DbOrTx } from '../../../db/transaction.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import { isInScope, recordScope } from '../../../policies/scope.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import { restoreRehearsalTx, takeRehearsalSnapshot } from '../sessions/rehearsal-snapshot.js';
import { type Actor, afterCommit, bumpSession, checkReopen, lockEditable, readEditable, type SessionCommitted } from '../sessions/sessions.js';
import { closeGap, lotIdsInOrder, renumber } from './lot-order.js';
import { recordRunIfTimed } from './lot-runs.js';
import { keyShareAuctions, lockAuctionStates, lotRemovalRefused, offeredLots, removalBlockOf } from './removal.js';

/**
 * A session's lots: add, remove, reorder, pick the current one. Orders are 1-based and dense; every
 * change holds the session row, so concurrent adds, removals and reorders of one session run one at
 * a time (lot-order.ts moves them).
 */

export const lotNotFound = () => new AppError('NOT_FOUND', messages.live.lotNotFound);

/**
 * A lot of a session the actor may change, read without locks (its auction is locked first, then
 * the session). A session the actor may not change answers first, whatever the lot; a lot of
 * another session answers 'Lote no encontrado'.
 */
export async function readEditableLot(db: Db, opts: { sessionId: string; lotId: string; actor: Actor }): Promise<{ lotId: string; auctionId: string }> {
  const editable = await readEditable(db, opts.sessionId, opts.actor);
  if (!isUuid(opts.lotId)) throw lotNotFound();
  const lotId = opts.lotId.toLowerCase();
  const [found] = await db
    .select({ auctionId: liveLots.auctionId })
    .from(liveLots)
    .where(and(eq(liveLots.id, lotId), eq(liveLots.sessionId, editable.id)));
  if (!found) throw lotNotFound();
  return { lotId, auctionId: found.auctionId };
}

/**
 * Appends an auction as the session's last lot. The auction must be one the actor may manage,
 * not ended, not paid, and not a lot of a session that has not ended: checked with the auction
 * row locked, so two sessions adding it at once cannot both win.
 */
export async function addLot(
  db: DbOrTx,
  opts: Acting<Actor> & { present: BidPresenter; sessionId: string; auctionId: string },
): Promise<SessionCommitted & { lotId: string }> {
  const { actor } = opts;
  // Refused sessions answer first, whatever the auction.
  await readEditable(db, opts.sessionId, actor);
  const change = await db.transaction(async (tx) => {
    const [auction] = await tx.select().from(auctions).where(eq(auctions.id, opts.auctionId.toLowerCase())).for('update');
    if (!auction || !isInScope(recordScope(actor), auction)) throw new AppError('NOT_FOUND', messages.live.auctionNotFound);
    const session = await lockEditable(tx, opts.sessionId, actor);
    if (auction.isPaid) throw new AppError('CONFLICT', messages.live.auctionPaid);
    const ended =
      auction.status === 'ended' ||
      auction.currentWinnerId !== null ||
      (auction.status !== 'pending' && auction.endTime !== null && auction.endTime.getTime() <= Date.now());
    if (ended) throw new AppError('CONFLICT', messages.live.auctionEnded);
    const holders = await tx
      .select({ sessionId: liveLots.sessionId })
      .from(liveLots)
      .innerJoin(liveSessions, eq(liveSessions.id, liveLots.sessionId))
      .where(and(eq(liveLots.auctionId, auction.id), sql`(${liveSessions.status} <> 'ended' or ${liveSessions.id} = ${session.id})`));
    if (holders.some((h) => h.sessionId === session.id)) throw new AppError('CONFLICT', messages.live.auctionInSession);
    if (holders.length > 0) throw new AppError('CONFLICT', messages.live.auctionInOtherSession);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(liveLots).where(eq(liveLots.sessionId, session.id));
    const [lot] = await tx
      .insert(liveLots)
      .values({ sessionId: session.id, auctionId: auction.id, order: nextLotOrder(Number(n)) })
      .returning();
    if (!lot) throw new Error('insert returned nothing');
    // A rehearsal keeps the auction as it was, to put it back when it ends.
    if (session.rehearsal) await takeRehearsalSnapshot(tx, { sessionId: session.id, auctionId: auction.id });
    await bumpSession(tx, session.id);
    await recordAudit(tx, {
      by: opts,
      action: 'live_session.add_lot',
      entityType: 'live_session',
      entityId: session.id,
      after: { lotId: lot.id, auctionId: auction.id, order: lot.order },
    });
    return { sessionId: session.id, statusChanged: false, lotId: lot.id };
  });
  return afterCommit(db, opts.present, change);
}

/**
 * Takes a lot out of the session (never its auction) and closes the gap in the order. A lot that
 * sold or is running stays (removal.ts), decided with its auction row locked, then the session.
 */
export async function removeLot(db: Db, opts: Acting<Actor> & { present: BidPresenter; sessionId: string; lotId: string }): Promise<SessionCommitted> {
  const { lotId, auctionId } = await readEditableLot(db, opts);
  const change = await db.transaction(async (tx) => {
    const state = (await lockAuctionStates(tx, [auctionId])).get(auctionId);
    const session = await lockEditable(tx, opts.sessionId, opts.actor);
    // A rehearsal's lot leaves with its auction put back as it was: nothing it sold was real.
    if (session.rehearsal) await restoreRehearsalTx(tx, { sessionId: session.id, auctionId: auctionId });
    const block = state && !session.rehearsal ? removalBlockOf(state, (await offeredLots(tx, session.id)).has(lotId)) : null;
    if (block) throw lotRemovalRefused(block);
    const [lot] = await tx
      .delete(liveLots)
      .where(and(eq(liveLots.id, lotId), eq(liveLots.sessionId, session.id)))
      .returning();
    if (!lot) throw lotNotFound();
    await closeGap(tx, session.id, lot.order);
    await bumpSession(tx, session.id, session.currentLotId === lot.id ? { currentLotId: null } : {});
    await recordAudit(tx, {
      by: opts,
      action: 'live_session.remove_lot',
      entityType: 'live_session',
      entityId: session.id,
      before: { lotId: lot.id, auctionId: lot.auctionId, order: lot.order },
    });
    return { sessionId: session.id, statusChanged: false };
  });
  return afterCommit(db, opts.present, change);
}

/**
 * PUT .../lots/order: `lotIds` must be exactly the session's lots, in their new order. A reorder
 * rewrites every lot twice (lot-order.ts), which checks each lot's auction key again: those
 * auctions are key-share locked first, then the session, the Live Hub's lock order.
 */
export async function reorderLots(db: Db, opts: Acting<Actor> & { present: BidPresenter; sessionId: string; lotIds: string[] }): Promise<SessionCommitted> {
  const editable = await readEditable(db, opts.sessionId, opts.actor);
  // A lot added or removed between the read and the locks: read again.
  for (let attempt = 0; ; attempt++) {
    const seen = await db.select({ id: liveLots.id, auctionId: liveLots.auctionId }).from(liveLots).where(eq(liveLots.sessionId, editable.id));
    const done = await db.transaction(async (tx) => {
      await keyShareAuctions(
        tx,
        seen.map((l) => l.auctionId),
      );
      const session = await lockEditable(tx, opts.sessionId, opts.actor);
      const before = await lotIdsInOrder(tx, session.id);
      const moved = before.length !== seen.length || seen.some((l) => !before.includes(l.id));
      if (moved && attempt < 3) return null;
      const wanted = opts.lotIds.map((id) => id.toLowerCase());
      const same = !moved && wanted.length === before.length && new Set(wanted).size === wanted.length && wanted.every((id) => before.includes(id));
      if (!same) throw new AppError('CONFLICT', messages.live.lotsMismatch);
      await renumber(tx, session.id, wanted);
      await bumpSession(tx, session.id);
      await recordAudit(tx, {
        by: opts,
        action: 'live_session.reorder_lots',
        entityType: 'live_session',
        entityId: session.id,
        before: { lotIds: before },
        after: { lotIds: wanted },
      });
      return { sessionId: session.id, statusChanged: false };
    });
    if (done) return afterCommit(db, opts.present, done);
  }
}

/**
 * 'Establecer actual': the lot becomes the current one and the session goes live (SPEC §4). On an
 * ended session only with `reopen` (checkReopen).
 */
export async function setCurrentLot(
  db: Db,
  opts: Acting<Actor> & { present: BidPresenter; sessionId: string; lotId: string; reopen?: boolean },
): Promise<SessionCommitted> {
  const change = await db.transaction(async (tx) => {
    const session = await lockEditable(tx, opts.sessionId, opts.actor);
    const [lot] = await tx
      .select({ id: liveLots.id, auctionId: liveLots.auctionId })
      .from(liveLots)
      .where(and(eq(liveLots.id, opts.lotId.toLowerCase()), eq(liveLots.sessionId, session.id)));
    if (!lot) throw lotNotFound();
    await checkReopen(tx, session, { confirmed: opts.reopen === true });
    // An auction already running on its own clock is on the block from now: it may sell in the show.
    await recordRunIfTimed(tx, { sessionId: session.id, lotId: lot.id, auctionId: lot.auctionId });
    const row = await bumpSession(tx, session.id, { currentLotId: lot.id, status: 'live' });
    await recordAudit(tx, {
      by: opts,
      action: 'live_session.set_current',
      entityType: 'live_session',
      entityId: session.id,
      before: { currentLotId: session.currentLotId, status: session.status },
      after: { currentLotId: row.currentLotId, status: row.status },
    });
    return { sessionId: session.id, statusChanged: session.status !== 'live' };
  });
  return afterCommit(db, opts.present, change);
}
