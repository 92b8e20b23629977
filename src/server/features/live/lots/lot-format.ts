import { and, eq } from 'drizzle-orm';
import { deriveAuctionStatus } from '../../../../domain/auctions.js';
import type { LotUpdateInput } from '../../../../domain/live.js';
import { recordAudit } from '../../../audit.js';
import type { Db } from '../../../db/connect.js';
import { liveLots } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import { type Actor, afterCommit, bumpSession, lockEditable, type SessionCommitted } from '../sessions/sessions.js';
import { lotNotFound, readEditableLot } from './lots.js';
import { lockAuctionStates } from './removal.js';

/**
 * PUT /api/live-sessions/{id}/lots/{lotId}: a lot's own timer format (Contrapuja, Muerte súbita,
 * Extender, and Contrapuja's W and R). A field sent as null follows the session's biddingConfig
 * again; a field left out keeps what the lot had. The engine reads the format on every bid
 * (auction_bidding_config), so a change reaches a running lot's next bid at once.
 */
export async function setLotFormat(
  db: Db,
  opts: Acting<Actor> & { present: BidPresenter; sessionId: string; lotId: string; input: LotUpdateInput },
): Promise<SessionCommitted> {
  const { lotId, auctionId } = await readEditableLot(db, opts);
  const change = await db.transaction(async (tx) => {
    // The Live Hub's lock order: the auction first (no close finishes the lot meanwhile), then the session.
    const state = (await lockAuctionStates(tx, [auctionId])).get(auctionId);
    const session = await lockEditable(tx, opts.sessionId, opts.actor);
    const [lot] = await tx
      .select()
      .from(liveLots)
      .where(and(eq(liveLots.id, lotId), eq(liveLots.sessionId, session.id)));
    if (!lot) throw lotNotFound();
    // A closed lot's format decided its result; changing it afterwards would only mislead.
    const ended = state ? deriveAuctionStatus(state.status, state.endTime, state.serverNow) === 'ended' : false;
    if (lot.status === 'finished' || ended) throw new AppError('CONFLICT', messages.live.lotFormatClosed);
    const set: Partial<typeof liveLots.$inferInsert> = {};
    if (opts.input.timerMode !== undefined) set.timerMode = opts.input.timerMode;
    if (opts.input.counterBidWindowSeconds !== undefined) set.counterBidWindowSeconds = opts.input.counterBidWindowSeconds;
    if (opts.input.counterBidResetSeconds !== undefined) set.counterBidResetSeconds = opts.input.counterBidResetSeconds;
    const [after] = await tx.update(liveLots).set(set).where(eq(liveLots.id, lot.id)).returning();
    if (!after) throw lotNotFound();
    await bumpSession(tx, session.id);
    const format = (l: typeof lot) => ({
      lotId: l.id,
      timerMode: l.timerMode,
      counterBidWindowSeconds: l.counterBidWindowSeconds,
      counterBidResetSeconds: l.counterBidResetSeconds,
    });
    await recordAudit(tx, {
      by: opts,
      action: 'live_session.lot_format',
      entityType: 'live_session',
      entityId: session.id,
      before: format(lot),
      after: format(after),
    });
    return { sessionId: session.id, statusChanged: false };
  });
  // The whole state goes to the room: every viewer's lot carries its new timerMode.
  return afterCommit(db, opts.present, change);
}
