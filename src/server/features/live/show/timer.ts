import { and, eq, inArray, sql } from 'drizzle-orm';
import { recordAudit } from '../../../audit.js';
import { type Db, rows, type Tx } from '../../../db/connect.js';
import type { EngineState } from '../../../db/engine-rows.js';
import { auctions, HOLDING_PAYMENT_STATUSES, liveLots, paymentItems } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import { enterPrebids } from '../../prebids/index.js';
import { recordLotRun } from '../lots/lot-runs.js';
import { lotNotFound } from '../lots/lots.js';
import type { SessionRow } from '../presenters.js';
import { takeRehearsalSnapshot } from '../sessions/rehearsal-snapshot.js';
import { type Actor, afterCommit, bumpSession, lockEditable, readEditable, type SessionChange, type SessionCommitted } from '../sessions/sessions.js';
import { lotTimerSet } from './events.js';

/**
 * The lot timer, run by the server so every viewer's countdown ends at the same moment. `POST
 * .../timer {seconds}` sets the current lot's auction to end at the database's now plus N and to
 * take bids (status live), with the auction row locked as the bid engine locks it, so no bid is
 * decided against a half-set timer. The scheduler (bids/scheduler.ts) closes it when that time
 * comes, and the close's trigger finishes the lot (db/functions/live-lots-finish.sql).
 *
 * Re-running a lot: sellers re-run unsold lots, so an auction that ended without bids is opened
 * again (status live, closed_at and winner cleared, its lot back to queued). A lot that sold (bids
 * or a winner) or sits in a payment is refused with 409. While bids stand on a running auction the
 * timer may only move its end later (src/domain/auction-lock.ts: bidders relied on that end).
 */

export interface TimerSet extends SessionChange {
  lotId: string;
  auctionId: string;
  state: EngineState;
  endTime: number;
}

/** The session's current lot and its auction, read without locks (the auction is locked first, below). */
async function currentLot(db: Db | Tx, sessionId: string, actor: Actor) {
  const session = await readEditable(db, sessionId, actor);
  if (!session.currentLotId) throw new AppError('CONFLICT', messages.live.noCurrentLot);
  const [lot] = await db
    .select()
    .from(liveLots)
    .where(and(eq(liveLots.id, session.currentLotId), eq(liveLots.sessionId, session.id)));
  if (!lot) throw lotNotFound();
  if (!lot.auctionId) throw new AppError('CONFLICT', messages.live.lotNoAuction);
  return { session, lot };
}

export async function setLotTimer(
  db: Db,
  opts: Acting<Actor> & { present: BidPresenter; sessionId: string; seconds: number },
): Promise<TimerSet & SessionCommitted> {
  // The current lot may change between the unlocked read and the locks: then read it again.
  for (let attempt = 0; ; attempt++) {
    const { lot } = await currentLot(db, opts.sessionId, opts.actor);
    const done = await db.transaction(async (tx) => {
      const opened = await openLot(tx, {
        lot,
        seconds: opts.seconds,
        present: opts.present,
        lockSession: async () => {
          const session = await lockEditable(tx, opts.sessionId, opts.actor);
          if (session.currentLotId === lot.id) return session;
          if (attempt < 3) return null;
          throw new AppError('CONFLICT', messages.live.lotsMismatch);
        },
      });
      if (!opened) return null;
      const { session, auction } = opened;
      await bumpSession(tx, session.id);
      await recordAudit(tx, {
        by: opts,
        action: 'live_session.timer',
        entityType: 'live_session',
        entityId: session.id,
        before: { auctionId: auction.id, status: auction.status, endTime: auction.endTime },
        after: { lotId: lot.id, seconds: opts.seconds, endTime: new Date(opened.endTime), reopened: opened.reopened },
      });
      return {
        sessionId: session.id,
        statusChanged: false,
        lotId: lot.id,
        auctionId: auction.id,
        state: opened.state,
        endTime: opened.endTime,
        prebidEvents: opened.prebidEvents,
      };
    });
    // lotTimer carries the lot's new state: a thousand viewers need not receive every lot again.
    if (done) return afterCommit(db, opts.present, done, { first: (view) => [lotTimerSet(view, opts.present, done), ...done.prebidEvents], wholeState: false });
  }
}

/** What opening a lot did, for the caller's audit line and its events. */
export interface LotOpened {
  session: SessionRow;
  /** The auction as it was before. */
  auction: typeof auctions.$inferSelect;
  endTime: number;
  state: EngineState;
  reopened: boolean;
  prebidEvents: DomainEvent[];
}

/**
 * The opening core shared by the timer and 'Siguiente lote' (next-lot.ts): the lot's auction row
 * is locked first, as the bid engine locks it, then the session (`lockSession`, which checks the
 * session still is as the caller read it, or answers null to have the caller read again), so the
 * Live Hub's lock order holds. The auction then takes bids (status live) until the database's
 * now plus `seconds`; an unsold auction runs again, and a lot opening without bids takes its
 * pre-bids. With `skipLocked` (the auto-advance scheduler) an auction row another transaction
 * holds answers null at once instead of waiting.
 */
export async function openLot(
  tx: Tx,
  opts: {
    lot: { id: string; status: string; auctionId: string };
    /** Seconds to run, or how to read them from the locked session ('Siguiente lote' runs the session's default). */
    seconds: number | ((session: SessionRow) => number);
    present: BidPresenter;
    lockSession: () => Promise<SessionRow | null>;
    skipLocked?: boolean;
  },
): Promise<LotOpened | null> {
  const { lot } = opts;
  const [auction] = await tx
    .select()
    .from(auctions)
    .where(eq(auctions.id, lot.auctionId))
    .for('update', opts.skipLocked ? { skipLocked: true } : {});
  if (!auction) {
    if (opts.skipLocked) return null;
    throw new AppError('CONFLICT', messages.live.lotNoAuction);
  }
  const session = await opts.lockSession();
  if (!session) return null;
  // A rehearsal's lot opening ('Siguiente lote' and the timer alike): the auction as it was is kept first (sessions/rehearsal-snapshot.ts).
  if (session.rehearsal) await takeRehearsalSnapshot(tx, { sessionId: session.id, auctionId: auction.id });
  const now = await dbNow(tx);
  const seconds = typeof opts.seconds === 'number' ? opts.seconds : opts.seconds(session);
  const endTime = now + seconds * 1000;
  const hasBids = auction.bidCount > 0 || auction.currentWinnerId !== null;
  const closed =
    auction.status === 'ended' || auction.closedAt !== null || (auction.endTime !== null && auction.endTime.getTime() <= now && auction.status !== 'pending');
  if (closed && hasBids) throw new AppError('CONFLICT', messages.live.lotSold);
  if (auction.isPaid || (await inPayment(tx, auction.id))) throw new AppError('CONFLICT', messages.live.lotInPayment);
  if (!closed && hasBids && auction.endTime !== null && endTime < auction.endTime.getTime()) throw new AppError('CONFLICT', messages.live.timerShortens);
  await recordLotRun(tx, { sessionId: session.id, lotId: lot.id, auctionId: auction.id, at: new Date(now) });
  await tx
    .update(auctions)
    .set({
      status: 'live',
      endTime: new Date(endTime),
      version: sql`${auctions.version} + 1`,
      updatedAt: new Date(),
      // An unsold lot runs again: nothing of its last close stays.
      ...(closed ? { closedAt: null, currentWinnerId: null, currentWinnerName: null, winnerEmail: null, winnerWhatsapp: null } : {}),
    })
    .where(eq(auctions.id, auction.id));
  if (lot.status !== 'queued') await tx.update(liveLots).set({ status: 'queued' }).where(eq(liveLots.id, lot.id));
  // A lot opening without bids takes its 'Puja anticipada' maximums now, in this transaction.
  const prebids = hasBids ? null : await enterPrebids(tx, { auctionId: auction.id, present: opts.present });
  const [state] = rows<{ s: EngineState }>(
    await tx.execute(sql`select auction_bid_state(a, auction_bidding_config(a.id)) as s from auctions a where a.id = ${auction.id}::uuid`),
  );
  if (!state) throw new Error('auction vanished');
  return { session, auction, endTime, state: state.s, reopened: closed, prebidEvents: prebids?.events ?? [] };
}

/** The database's clock, in epoch ms: every instance's timers agree with the closing scheduler's. */
export async function dbNow(tx: Db | Tx): Promise<number> {
  const [row] = rows<{ now: string | number }>(await tx.execute(sql`select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`));
  return Number(row?.now ?? 0);
}

/** The auction sits in a draft, pending or paid payment. */
export async function inPayment(tx: Tx, auctionId: string): Promise<boolean> {
  const [held] = await tx
    .select({ id: paymentItems.paymentId })
    .from(paymentItems)
    .where(and(eq(paymentItems.auctionId, auctionId), inArray(paymentItems.paymentStatus, [...HOLDING_PAYMENT_STATUSES])))
    .limit(1);
  return Boolean(held);
}
