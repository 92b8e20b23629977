import { eq } from 'drizzle-orm';
import { isBroadcasting, type VideoProviderName } from '../../../../domain/video.js';
import { recordAudit } from '../../../audit.js';
import type { Db } from '../../../db/connect.js';
import { liveSessions } from '../../../db/schema.js';
import type { Acting } from '../../../http/request-context.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import { type Actor, afterCommit, bumpSession, checkReopen, lockEditable, type SessionCommitted } from '../sessions/sessions.js';

/**
 * SPEC §4 "Broadcast state": 'Iniciar' sets the session live with the provider that carries it and
 * a start time; 'Detener' sets it scheduled with a stop time (an ended session stays ended: the
 * seller closed the show before stopping the camera); `stopped` says whether it did. Both are the session's editors' only.
 * 'Iniciar' on an ended session opens it again only with `reopen` (checkReopen).
 */
export async function startStream(
  db: Db,
  opts: Acting<Actor> & { present: BidPresenter; sessionId: string; provider: VideoProviderName; reopen?: boolean },
): Promise<SessionCommitted> {
  const change = await db.transaction(async (tx) => {
    const before = await lockEditable(tx, opts.sessionId, opts.actor);
    await checkReopen(tx, before, { confirmed: opts.reopen === true });
    const row = await bumpSession(tx, before.id, { status: 'live', streamType: opts.provider, lastStreamStart: new Date() });
    await recordAudit(tx, {
      by: opts,
      action: 'live_session.stream_start',
      entityType: 'live_session',
      entityId: row.id,
      before: { status: before.status, streamType: before.streamType },
      after: { status: row.status, streamType: row.streamType },
    });
    return { sessionId: row.id, statusChanged: before.status !== row.status };
  });
  return afterCommit(db, opts.present, change);
}

export async function stopStream(
  db: Db,
  opts: Acting<Actor> & { present: BidPresenter; sessionId: string; startedAt?: number },
): Promise<SessionCommitted & { stopped: boolean }> {
  const change = await db.transaction(async (tx) => {
    const before = await lockEditable(tx, opts.sessionId, opts.actor);
    // A page that went asks to stop the broadcast it started: one started since (another tab) carries on.
    if (opts.startedAt !== undefined && before.lastStreamStart?.getTime() !== opts.startedAt) {
      return { sessionId: before.id, statusChanged: false, stopped: false };
    }
    const status = before.status === 'ended' ? 'ended' : 'scheduled';
    const row = await bumpSession(tx, before.id, { status, lastStreamStop: new Date() });
    await recordAudit(tx, {
      by: opts,
      action: 'live_session.stream_stop',
      entityType: 'live_session',
      entityId: row.id,
      before: { status: before.status },
      after: { status: row.status },
    });
    return { sessionId: row.id, statusChanged: before.status !== row.status, stopped: true };
  });
  return afterCommit(db, opts.present, change);
}

/**
 * The system's 'Detener' for a broadcast whose publisher is gone (publisher-watch.ts): the same
 * change as stopStream, audited with no actor. Only the broadcast that was seen gone stops (the
 * one started at `startedAt`): a seller who pressed 'Iniciar' again meanwhile keeps hers. Null
 * when there was nothing left to stop.
 */
export async function stopAbandonedStream(db: Db, opts: { present: BidPresenter; sessionId: string; startedAt: number }): Promise<SessionCommitted | null> {
  const change = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(liveSessions).where(eq(liveSessions.id, opts.sessionId)).for('update');
    if (!before) return null;
    const started = before.lastStreamStart?.getTime() ?? null;
    const isOn = isBroadcasting({ lastStreamStart: started, lastStreamStop: before.lastStreamStop?.getTime() ?? null });
    if (!isOn || started !== opts.startedAt) return null;
    const status = before.status === 'ended' ? 'ended' : 'scheduled';
    const row = await bumpSession(tx, before.id, { status, lastStreamStop: new Date() });
    await recordAudit(tx, {
      by: null,
      action: 'live_session.stream_stop',
      entityType: 'live_session',
      entityId: row.id,
      before: { status: before.status },
      after: { status: row.status, reason: 'publisherGone' },
    });
    return { sessionId: row.id, statusChanged: before.status !== row.status };
  });
  return change ? afterCommit(db, opts.present, change) : null;
}
