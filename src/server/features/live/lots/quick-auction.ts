import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ZQuickAuction } from '../../../../domain/live.js';
import { recordAudit } from '../../../audit.js';
import { type Db, rows, type Tx } from '../../../db/connect.js';
import type { EngineState } from '../../../db/engine-rows.js';
import { auctions, uploads } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import { ensureCompany } from '../../../reads/companies.js';
import { buildSearchText, companyNames, nameTokens } from '../../../reads/search-text.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import { auctionCreated } from '../../auctions/index.js';
import type { SessionView } from '../presenters.js';
import { claimKey, type KeyClaim, settleKey } from '../sessions/idempotency.js';
import { type Actor, afterCommit, bumpSession, checkReopen, lockEditable, readEditable, type SessionChange } from '../sessions/sessions.js';
import { lotTimerSet } from '../show/events.js';
import { insertAfterCurrent } from './lot-order.js';
import { recordRunIfTimed } from './lot-runs.js';

type QuickAuctionValues = z.output<typeof ZQuickAuction>;
type AuctionRow = typeof auctions.$inferSelect;

/**
 * 'Agregar subasta rápida', the Live Hub's shortcut for selling something not yet listed: an
 * auction with a name, a starting price and images (no category or description), stamped like any
 * record a user creates (SPEC §6: sellerId is the uid, companyId its company). With 'add to
 * session' it goes on the block next: the order right after the current lot, the queue behind it
 * moving down one (a lot before the current one counts as past, SPEC §4), or last when there is no
 * current lot; with a timer preset as well it becomes the current lot, live, its countdown started
 * at once, all in one transaction. On an ended session 'add to session' needs `reopen`
 * (checkReopen); the session is then live when the lot starts now, scheduled (open, off the air)
 * otherwise. An Idempotency-Key makes a repeat answer the first request's auction (`replayed`),
 * creating nothing.
 *
 * Without a timer: 'pending' waits as any pending auction; 'live' is on the block but takes no bids
 * until the seller starts its timer (the bid engine refuses an auction without an end time, and the
 * scheduler has nothing to close); 'active' needs a timer, as the auction form needs an end date
 * for an active auction (400). A timer without the session sets the end time and keeps the status.
 */
export interface QuickAuctionDone {
  row: AuctionRow;
  /** The session as read after the commit, when the auction was added to it (or a repeat asked to add it). */
  view: SessionView | null;
  /** For the publisher: the new auction, then its lot's timer and the session's state; none on a repeat. */
  events: DomainEvent[];
  replayed: boolean;
}

/** What the transaction committed, before the session is read again. */
interface Committed {
  row: AuctionRow;
  change: (SessionChange & { lotId: string }) | null;
  timer: { lotId: string; state: EngineState; endTime: number } | null;
  events: DomainEvent[];
  replayed: boolean;
}

async function checkImages(tx: Tx, opts: { images: string[]; actor: Actor }): Promise<void> {
  if (opts.images.length === 0) return;
  const duplicate = new Set(opts.images).size !== opts.images.length;
  const known = await tx
    .select({ url: uploads.url })
    .from(uploads)
    .where(and(inArray(uploads.url, opts.images), or(eq(uploads.ownerId, opts.actor.id), eq(uploads.companyId, opts.actor.companyId))));
  const urls = new Set(known.map((k) => k.url));
  if (duplicate) throw new AppError('VALIDATION', messages.errors.validation, { images: messages.fields.imageDuplicate });
  if (opts.images.some((url) => !urls.has(url))) throw new AppError('VALIDATION', messages.errors.validation, { images: messages.fields.imageInvalid });
}

export async function createQuickAuction(
  db: Db,
  opts: Acting<Actor> & { present: BidPresenter; sessionId: string; input: QuickAuctionValues; key?: KeyClaim | null },
): Promise<QuickAuctionDone> {
  const done = await commit(db, opts);
  const { row, change, timer, replayed } = done;
  if (replayed) {
    // A repeat answers the session as it is now, and tells nobody anything new.
    const view = opts.input.addToSession
      ? (await afterCommit(db, opts.present, { sessionId: opts.sessionId, statusChanged: false }, { wholeState: false })).view
      : null;
    return { row, view, events: [], replayed };
  }
  if (!change) return { row, view: null, events: done.events, replayed };
  const first = (view: SessionView) => (timer ? [lotTimerSet(view, opts.present, { ...timer, auctionId: row.id })] : []);
  const committed = await afterCommit(db, opts.present, change, { first });
  return { row, view: committed.view, events: [...done.events, ...committed.events], replayed };
}

async function commit(db: Db, opts: Acting<Actor> & { sessionId: string; input: QuickAuctionValues; key?: KeyClaim | null }): Promise<Committed> {
  const { actor, input } = opts;
  await readEditable(db, opts.sessionId, actor);
  // An active auction outside the show needs an end (as the auction form's); a lot waits for its timer.
  if (input.status === 'active' && input.timerSeconds === null && !input.addToSession) {
    throw new AppError('VALIDATION', messages.errors.validation, { timerSeconds: messages.live.activeNeedsTimer });
  }
  const startsNow = input.addToSession && input.timerSeconds !== null;
  return db.transaction(async (tx) => {
    const replay = opts.key ? await claimKey(tx, opts.key) : null;
    if (replay) {
      const [first] = replay.auctionId ? await tx.select().from(auctions).where(eq(auctions.id, replay.auctionId)) : [];
      if (!first) throw new AppError('NOT_FOUND', messages.errors.notFound);
      return { row: first, change: null, timer: null, events: [], replayed: true };
    }
    await checkImages(tx, { images: input.images, actor });
    await ensureCompany(tx, actor.companyId);
    const company = (await companyNames(tx, [actor.companyId])).get(actor.companyId) ?? null;
    const endTime = input.timerSeconds === null ? null : sql`date_trunc('milliseconds', clock_timestamp() + make_interval(secs => ${input.timerSeconds}))`;
    const [row] = await tx
      .insert(auctions)
      .values({
        name: input.name,
        description: '',
        startingPrice: input.startingPrice,
        images: input.images,
        status: startsNow ? 'live' : input.status,
        endTime,
        sellerId: actor.id,
        companyId: actor.companyId,
        nameTokens: nameTokens(input.name),
        searchText: buildSearchText({ name: input.name, companyName: company }),
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    await recordAudit(tx, {
      by: opts,
      action: 'auction.create',
      entityType: 'auction',
      entityId: row.id,
      after: { name: row.name, companyId: row.companyId, quick: true, sessionId: opts.sessionId },
    });
    const events: DomainEvent[] = [auctionCreated(row)];
    if (!input.addToSession) {
      if (opts.key) await settleKey(tx, opts.key, { sessionId: opts.sessionId.toLowerCase(), auctionId: row.id });
      return { row, change: null, timer: null, events, replayed: false };
    }

    // The new auction's row is this transaction's own; the session comes next, as everywhere.
    const session = await lockEditable(tx, opts.sessionId, actor);
    await checkReopen(tx, session, { confirmed: input.reopen === true });
    const lot = await insertAfterCurrent(tx, { session, auctionId: row.id });
    const status = startsNow ? 'live' : session.status === 'ended' ? 'scheduled' : session.status;
    const after = await bumpSession(tx, session.id, { status, ...(startsNow ? { currentLotId: lot.id } : {}) });
    // Started at once: it is on the block from now, as a lot opened by its timer (lot-runs.ts).
    if (startsNow) await recordRunIfTimed(tx, { sessionId: session.id, lotId: lot.id, auctionId: row.id });
    if (opts.key) await settleKey(tx, opts.key, { sessionId: session.id, auctionId: row.id });
    await recordAudit(tx, {
      by: opts,
      action: 'live_session.add_lot',
      entityType: 'live_session',
      entityId: session.id,
      after: { lotId: lot.id, auctionId: row.id, order: lot.order, current: startsNow, timerSeconds: input.timerSeconds },
    });
    const change = { sessionId: session.id, statusChanged: after.status !== session.status, lotId: lot.id };
    if (!startsNow || !row.endTime) return { row, change, timer: null, events, replayed: false };
    const [state] = rows<{ s: EngineState }>(
      await tx.execute(sql`select auction_bid_state(a, auction_bidding_config(a.id)) as s from auctions a where a.id = ${row.id}::uuid`),
    );
    if (!state) throw new Error('auction vanished');
    return { row, change, timer: { lotId: lot.id, state: state.s, endTime: row.endTime.getTime() }, events, replayed: false };
  });
}
