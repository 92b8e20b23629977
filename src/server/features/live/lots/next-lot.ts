import { eq } from 'drizzle-orm';
import { normalizeBiddingConfig } from '../../../../domain/live.js';
import { recordAudit } from '../../../audit.js';
import type { Db, Tx } from '../../../db/connect.js';
import type { EngineState } from '../../../db/engine-rows.js';
import { liveSessions } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import type { SessionRow } from '../presenters.js';
import {
  type Actor,
  afterCommit,
  bumpSession,
  checkReopen,
  lockEditable,
  readEditable,
  readSession,
  type SessionChange,
  type SessionCommitted,
} from '../sessions/sessions.js';
import { lotTimerSet } from '../show/events.js';
import { dbNow, openLot } from '../show/timer.js';
import { type CurrentFacts, readQueue } from './queue.js';

/**
 * 'Siguiente lote': in one transaction the next lot of the queue becomes the current one (the
 * session goes live, as 'Establecer actual' does) and its timer starts for the session's
 * `timerSecondsDefault`, through the timer's own opening core (timer.ts openLot), so the lock
 * order stays auction → session. The seller's button and 'Avance automático' (auto-advance.ts)
 * take this same path; only who acts, and what is re-checked under the locks, differ.
 *
 * A double click opens one lot: the second request waits on the first's auction lock, then finds
 * the current lot changed, reads again and answers 409 (the lot it would skip is now running).
 */

/** Who opens the next lot: the seller (with the route's `reopen`), or 'Avance automático' (the system). */
export type NextBy = { kind: 'seller'; acting: Acting<Actor>; reopen: boolean } | { kind: 'auto' };

export interface NextOpened extends SessionChange {
  lotId: string;
  auctionId: string;
  state: EngineState;
  endTime: number;
  prebidEvents: DomainEvent[];
}

/** Why the auto-advance scheduler leaves a session alone on this pass (a seller gets a 409 instead). */
class Skip extends Error {}

/** The session locked for 'Avance automático': another instance holding it means that instance is on it. */
async function lockForAuto(tx: Tx, id: string): Promise<SessionRow | null> {
  const [row] = await tx.select().from(liveSessions).where(eq(liveSessions.id, id)).for('update', { skipLocked: true });
  return row ?? null;
}

/**
 * Opens the next lot. A seller gets the session's detail, or a 409 when no lot remains in the
 * queue or the current one still runs. The system ('Avance automático') gets null whenever the
 * session is no longer due (paused, edited, opened by someone else, or held by another instance).
 */
export async function openNextLot(db: Db, opts: { by: NextBy; present: BidPresenter; sessionId: string }): Promise<(NextOpened & SessionCommitted) | null> {
  const { by } = opts;
  const seller = by.kind === 'seller' ? by : null;
  const refuse = (message: string) => {
    if (seller) throw new AppError('CONFLICT', message);
    throw new Skip();
  };
  try {
    for (let attempt = 0; ; attempt++) {
      const seen = seller ? await readEditable(db, opts.sessionId, seller.acting.actor) : await readSession(db, opts.sessionId);
      if (!seen) return null;
      const queue = await readQueue(db, seen);
      if (queue.current?.running) refuse(messages.live.currentLotRunning);
      const lot = queue.next;
      if (!lot) return refuse(messages.live.noQueuedLots);
      let seconds = 0;
      const done = await db.transaction(async (tx) => {
        const opened = await openLot(tx, {
          lot,
          present: opts.present,
          skipLocked: !seller,
          seconds: (session) => {
            seconds = normalizeBiddingConfig(session.biddingConfig).timerSecondsDefault;
            return seconds;
          },
          lockSession: async () => {
            const session = seller ? await lockEditable(tx, opts.sessionId, seller.acting.actor) : await lockForAuto(tx, seen.id);
            if (!session) return null;
            // Under the locks: the queue is still as read, else read it again (or, for the system, leave it).
            const again = await readQueue(tx, session);
            const moved = session.currentLotId !== seen.currentLotId || again.next?.id !== lot.id;
            if (again.current?.running) refuse(messages.live.currentLotRunning);
            if (moved) {
              if (seller && attempt < 3) return null;
              refuse(seller ? messages.live.lotsMismatch : '');
            }
            if (seller) await checkReopen(tx, session, { confirmed: seller.reopen });
            else if (!(await autoDue(tx, session, again.current))) throw new Skip();
            return session;
          },
        });
        if (!opened) return null;
        const { session, auction } = opened;
        await bumpSession(tx, session.id, { currentLotId: lot.id, status: 'live' });
        await recordAudit(tx, {
          by: seller ? seller.acting : null,
          action: 'live_session.next',
          entityType: 'live_session',
          entityId: session.id,
          before: { currentLotId: session.currentLotId, status: session.status, auctionStatus: auction.status },
          after: { currentLotId: lot.id, status: 'live', auctionId: auction.id, seconds, endTime: new Date(opened.endTime), auto: !seller },
        });
        return {
          sessionId: session.id,
          statusChanged: session.status !== 'live',
          lotId: lot.id,
          auctionId: auction.id,
          state: opened.state,
          endTime: opened.endTime,
          prebidEvents: opened.prebidEvents,
        } satisfies NextOpened;
      });
      if (done) return afterCommit(db, opts.present, done, { first: (view) => [lotTimerSet(view, opts.present, done), ...done.prebidEvents] });
      if (!seller) return null;
    }
  } catch (err) {
    if (err instanceof Skip) return null;
    throw err;
  }
}

/** 'Avance automático' is due on this session now: live, not paused, and its current lot closed N seconds ago. */
async function autoDue(tx: Tx, session: SessionRow, current: CurrentFacts | null): Promise<boolean> {
  const n = normalizeBiddingConfig(session.biddingConfig).autoAdvanceSeconds;
  if (n === null || session.status !== 'live' || session.autoAdvancePaused) return false;
  if (!current || current.closedAt === null) return false;
  return current.closedAt + n * 1000 <= (await dbNow(tx));
}
