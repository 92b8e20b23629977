import type { VideoProviderName } from '../../../domain/video.js';
import { recordAudit } from '../../audit.js';
import type { Db } from '../../db/connect.js';
import type { Acting } from '../../http/request-context.js';
import type { BidPresenter } from '../bids/presenters.js';
import { type Actor, afterCommit, bumpSession, checkReopen, lockEditable, type SessionCommitted } from './sessions.js';

/**
 * SPEC §4 "Broadcast state": 'Iniciar' sets the session live with the provider that carries it and
 * a start time; 'Detener' sets it scheduled with a stop time (an ended session stays ended: the
 * seller closed the show before stopping the camera). Both are the session's editors' only.
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

export async function stopStream(db: Db, opts: Acting<Actor> & { present: BidPresenter; sessionId: string }): Promise<SessionCommitted> {
  const change = await db.transaction(async (tx) => {
    const before = await lockEditable(tx, opts.sessionId, opts.actor);
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
    return { sessionId: row.id, statusChanged: before.status !== row.status };
  });
  return afterCommit(db, opts.present, change);
}
