import { eq } from 'drizzle-orm';
import type { SessionStatus } from '../../../domain/live.js';
import type { Db } from '../../db/connect.js';
import { liveLots } from '../../db/schema.js';
import type { DomainEvent, Publisher } from '../../realtime/publisher.js';
import type { BidPresenter, EngineState } from '../bids/present.js';
import { presentStateEvent, type SessionView } from './presenters.js';
import { readSessionView } from './queries.js';

/**
 * What a committed Live Hub change tells the session room (src/domain/realtime.ts), built from the
 * session as read after the commit, and published by realtime/publisher.ts.
 */

/** `sessionState` (the public view), preceded by `sessionStatusUpdate` when the status changed. */
export function sessionChanged(view: SessionView, present: BidPresenter, opts: { statusChanged: boolean }): DomainEvent {
  const { row } = view;
  return {
    type: 'sessionChanged',
    state: presentStateEvent(view, present),
    status: opts.statusChanged ? { sessionId: row.id, status: row.status as SessionStatus, version: row.version } : null,
  };
}

/** A timer was set on a lot: its new end for the session room, the auction's new state for its room and panels. */
export function lotTimerSet(view: SessionView, t: { lotId: string; auctionId: string; endTime: number; state: EngineState }): DomainEvent {
  const serverNow = Date.now();
  return {
    type: 'lotTimerSet',
    timer: { sessionId: view.row.id, lotId: t.lotId, auctionId: t.auctionId, endTime: t.endTime, serverNow, version: view.row.version },
    auction: { ...t.state, serverNow },
  };
}

/** The session is gone: its viewers hear it ended, one version past its last. */
export function sessionDeleted(row: { id: string; version: number }): DomainEvent {
  return { type: 'sessionDeleted', status: { sessionId: row.id, status: 'ended', version: row.version + 1 } };
}

/**
 * "Auction closed" → "lot finished": the close's own transaction already finished the lot
 * (db/functions/live-lots-finish.sql); this tells each session holding it, once, from the
 * instance that published the close: `lotFinished` with the closed state, then `sessionState`.
 */
export function installLiveSubscribers(opts: { db: Db; publisher: Publisher; present: BidPresenter }): () => void {
  const { db, publisher, present } = opts;
  return publisher.subscribe('auctionClosed', async ({ state }) => {
    const lots = await db.select({ id: liveLots.id, sessionId: liveLots.sessionId }).from(liveLots).where(eq(liveLots.auctionId, state.id));
    for (const lot of lots) {
      const view = await readSessionView(db, lot.sessionId);
      if (!view) continue;
      const closed = present.state({ ...state, serverNow: Date.now() });
      await publisher.publish([
        { type: 'lotFinished', finished: { sessionId: view.row.id, lotId: lot.id, state: closed, version: view.row.version } },
        sessionChanged(view, present, { statusChanged: false }),
      ]);
    }
  });
}
