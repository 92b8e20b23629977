import { eq, sql } from 'drizzle-orm';
import { normalizeBiddingConfig } from '../../../../domain/live.js';
import type { SessionStatus } from '../../../../domain/live-public.js';
import type { Db } from '../../../db/connect.js';
import type { EngineState } from '../../../db/engine-rows.js';
import { liveLots, liveSessions } from '../../../db/schema.js';
import { onBlockHereSql } from '../../../reads/lot-runs.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import type { DomainEvent, DomainEventOf, Publisher } from '../../../realtime/publisher.js';
import { presentStateEvent, type SessionView } from '../presenters.js';
import { readSessionView } from '../sessions/queries.js';

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

/** A timer was set on a lot: its new end and state for the session room, the auction's new state for its room and panels. */
export function lotTimerSet(
  view: SessionView,
  present: BidPresenter,
  t: { lotId: string; auctionId: string; endTime: number; state: EngineState },
): DomainEvent {
  const serverNow = Date.now();
  const auction = { ...t.state, serverNow };
  return {
    type: 'lotTimerSet',
    timer: {
      sessionId: view.row.id,
      lotId: t.lotId,
      auctionId: t.auctionId,
      endTime: t.endTime,
      serverNow,
      version: view.row.version,
      state: present.state(auction),
    },
    auction,
  };
}

/** The session is gone: its viewers hear it ended, one version past its last. */
export function sessionDeleted(row: { id: string; version: number }): DomainEvent {
  return { type: 'sessionDeleted', status: { sessionId: row.id, status: 'ended', version: row.version + 1 } };
}

/**
 * "Auction closed" → "lot finished": the close's own transaction already finished the lot and
 * bumped its session's version (db/functions/live-lots-finish.sql); this tells each session
 * holding it, once, from the instance that published the close. `lotFinished` carries all that
 * changed (the lot's status, whether it was on the block here, and its auction's closed state),
 * so it goes out at once, after one
 * small query, and no full `sessionState` follows: with a thousand viewers that would be tens of
 * megabytes for one lot's status. Only a session whose close starts 'Avance automático' counting
 * down also hears its state, once, since that carries when the next lot opens (autoAdvanceAt).
 */
export async function tellLotFinished(
  opts: { db: Db; publisher: Pick<Publisher, 'publish'>; present: BidPresenter },
  { state }: DomainEventOf<'auctionClosed'>,
): Promise<void> {
  const { db, publisher, present } = opts;
  const lots = await db
    .select({
      id: liveLots.id,
      sessionId: liveLots.sessionId,
      version: liveSessions.version,
      status: liveSessions.status,
      autoAdvancePaused: liveSessions.autoAdvancePaused,
      biddingConfig: liveSessions.biddingConfig,
      offered: sql<boolean>`${onBlockHereSql({ id: sql`${liveLots.id}`, sessionId: sql`${liveLots.sessionId}`, auctionId: sql`${liveLots.auctionId}` })}`,
    })
    .from(liveLots)
    .innerJoin(liveSessions, eq(liveSessions.id, liveLots.sessionId))
    .where(eq(liveLots.auctionId, state.id));
  if (lots.length === 0) return;
  const closed = present.state({ ...state, serverNow: Date.now() });
  await publisher.publish(
    lots.map(
      (lot) =>
        ({
          type: 'lotFinished',
          finished: { sessionId: lot.sessionId, lotId: lot.id, state: closed, version: lot.version, offered: Boolean(lot.offered) },
        }) as const,
    ),
  );
  // 'Avance automático' counts down from this close: the Hub and the public page hear when the next lot opens.
  for (const lot of lots) {
    if (lot.status !== 'live' || lot.autoAdvancePaused || normalizeBiddingConfig(lot.biddingConfig).autoAdvanceSeconds === null) continue;
    const view = await readSessionView(db, lot.sessionId);
    if (view?.autoAdvanceAt) await publisher.publish([sessionChanged(view, present, { statusChanged: false })]);
  }
}
