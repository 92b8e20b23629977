import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isUuid } from '../../../../domain/ids.js';
import { DEFAULT_BIDDING_CONFIG, mergeBiddingConfig, sessionSlug, type ZSessionCreate, type ZSessionUpdate } from '../../../../domain/live.js';
import type { SessionStatus } from '../../../../domain/live-public.js';
import { rulesOf } from '../../../../domain/show-billing.js';
import { recordAudit } from '../../../audit.js';
import type { Db, Tx } from '../../../db/connect.js';
import type { EngineState } from '../../../db/engine-rows.js';
import { auctions, companies, liveLots, liveSessions, uploads } from '../../../db/schema.js';
import type { DbOrTx } from '../../../db/transaction.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import { canEditSession } from '../../../policies/live-sessions.js';
import type { ScopedActor } from '../../../policies/scope.js';
import { sessionNotFound } from '../../../reads/sessions.js';
import { ensureSellerPage } from '../../../reads/store-links.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import { checkSessionDeletable, lockAuctionStates, offeredLots, removalBlockOf } from '../lots/removal.js';
import type { SessionRow, SessionView } from '../presenters.js';
import { sessionChanged, sessionDeleted } from '../show/events.js';
import { claimKey, type KeyClaim, settleKey } from './idempotency.js';
import { readSessionView } from './queries.js';
import { restoreRehearsalTx } from './rehearsal-snapshot.js';

/**
 * Sessions: create, edit, delete ('Crear sesión', 'Editar Sesión'). Lock order, everywhere in the
 * Live Hub and in the close's trigger (db/functions/live-lots-finish.sql): an auction row first,
 * then the session row, then its lots, so two changes never wait on each other in a circle.
 */

export type Actor = ScopedActor;
/** What a change committed: the session to re-read and broadcast, and whether its status changed. */
export interface SessionChange {
  sessionId: string;
  statusChanged: boolean;
}

/** A committed change, with the session as read after it (for the answer) and the events its room hears. */
export interface SessionCommitted extends SessionChange {
  view: SessionView;
  events: DomainEvent[];
}

/**
 * After a commit: the session read again, and what its room hears: `first` (built from that view),
 * then the whole public state, unless `wholeState` is false (the change's own events carry all that
 * changed) and the status stayed.
 */
export async function afterCommit<C extends SessionChange>(
  db: DbOrTx,
  present: BidPresenter,
  change: C,
  opts: { first?: (view: SessionView) => DomainEvent[]; wholeState?: boolean } = {},
): Promise<C & SessionCommitted> {
  const view = await readSessionView(db, change.sessionId);
  if (!view) throw sessionNotFound();
  const wholeState = opts.wholeState ?? true;
  const state = wholeState || change.statusChanged ? [sessionChanged(view, present, { statusChanged: change.statusChanged })] : [];
  return { ...change, view, events: [...(opts.first?.(view) ?? []), ...state] };
}

/** The session, locked for this transaction, when the actor may change it; anyone else gets 'Sesión no encontrada'. */
export async function lockEditable(tx: Tx, id: string, actor: Actor): Promise<SessionRow> {
  if (!isUuid(id)) throw sessionNotFound();
  const [row] = await tx.select().from(liveSessions).where(eq(liveSessions.id, id.toLowerCase())).for('update');
  if (!row || !canEditSession(actor, row)) throw sessionNotFound();
  return row;
}

/** The same check without a lock (before locking an auction, which comes first). */
export async function readEditable(db: Db | Tx, id: string, actor: Actor): Promise<SessionRow> {
  if (!isUuid(id)) throw sessionNotFound();
  const [row] = await db.select().from(liveSessions).where(eq(liveSessions.id, id.toLowerCase()));
  if (!row || !canEditSession(actor, row)) throw sessionNotFound();
  return row;
}

/** Any session, for anyone (the public page reads it): null when it does not exist. */
export async function readSession(db: Db | Tx, id: string): Promise<SessionRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(liveSessions).where(eq(liveSessions.id, id.toLowerCase()));
  return row ?? null;
}

/** Every change of a session or its lots bumps its version in the same transaction. */
export async function bumpSession(tx: Tx, id: string, set: Partial<typeof liveSessions.$inferInsert> = {}): Promise<SessionRow> {
  const [row] = await tx
    .update(liveSessions)
    .set({ ...set, version: sql`${liveSessions.version} + 1`, updatedAt: new Date() })
    .where(eq(liveSessions.id, id))
    .returning();
  if (!row) throw sessionNotFound();
  return row;
}

/** Whether the company records its shows by default (a company with no row yet does: the default). */
async function companyRecordsShows(tx: Tx, companyId: string): Promise<boolean> {
  const [company] = await tx.select({ recordShows: companies.recordShows }).from(companies).where(eq(companies.id, companyId));
  return company?.recordShows ?? true;
}

/**
 * POST /api/live-sessions ('Crear sesión'): stamped with the creator as seller and its company (SPEC §6).
 * With an Idempotency-Key, a repeat answers the session the first request created (`replayed`).
 */
export async function createSession(
  db: Db,
  opts: Acting<Actor> & { present: BidPresenter; input: z.output<typeof ZSessionCreate>; key?: KeyClaim | null },
): Promise<SessionCommitted & { replayed: boolean }> {
  const { actor, input } = opts;
  const made = await db.transaction(async (tx) => {
    const replay = opts.key ? await claimKey(tx, opts.key) : null;
    if (replay) {
      const first = replay.sessionId ? await readSession(tx, replay.sessionId) : null;
      if (!first) throw sessionNotFound();
      return { row: first, replayed: true };
    }
    const [row] = await tx
      .insert(liveSessions)
      .values({
        title: input.title,
        sellerId: actor.id,
        companyId: actor.companyId,
        sellerSlug: sessionSlug({ sellerSlug: input.sellerSlug ?? null, title: input.title, scheduledAt: input.scheduledAt }),
        scheduledAt: new Date(input.scheduledAt),
        whatsappLink: input.whatsappLink ?? null,
        biddingConfig: input.biddingConfig ? mergeBiddingConfig(DEFAULT_BIDDING_CONFIG, input.biddingConfig) : DEFAULT_BIDDING_CONFIG,
        rehearsal: input.rehearsal ?? false,
        // 'Grabar el show' starts as the company's choice (on unless its admins turned it off).
        recording: input.recording ?? (await companyRecordsShows(tx, actor.companyId)),
        ...(input.shippingRules ? { shippingRules: rulesOf(input.shippingRules), paymentDeadlineHours: input.shippingRules.paymentDeadlineHours ?? null } : {}),
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    // Every seller who runs a show has a page (/tienda/{slug}); a rehearsal is no show.
    if (!row.rehearsal) await ensureSellerPage(tx, actor.id, input.sellerSlug);
    await recordAudit(tx, {
      by: opts,
      action: 'live_session.create',
      entityType: 'live_session',
      entityId: row.id,
      after: { title: row.title, companyId: row.companyId, scheduledAt: row.scheduledAt },
    });
    if (opts.key) await settleKey(tx, opts.key, { sessionId: row.id, auctionId: null });
    return { row, replayed: false };
  });
  // A repeat tells nobody anything new.
  const change = { sessionId: made.row.id, statusChanged: false, replayed: made.replayed };
  return afterCommit(db, opts.present, change, { wholeState: !made.replayed });
}

type SessionUpdate = z.output<typeof ZSessionUpdate>;

/**
 * A cover is an image this user or the session's company uploaded, or one of the images of the
 * session's lots ('Elegir imagen existente'); anything else is refused.
 */
async function checkCover(tx: Tx, opts: { url: string; actor: Actor; session: SessionRow }): Promise<void> {
  const [upload] = await tx
    .select({ id: uploads.id })
    .from(uploads)
    .where(
      and(
        eq(uploads.url, opts.url),
        or(eq(uploads.ownerId, opts.actor.id), eq(uploads.companyId, opts.session.companyId), eq(uploads.companyId, opts.actor.companyId)),
      ),
    )
    .limit(1);
  if (upload) return;
  const [lotImage] = await tx
    .select({ id: liveLots.id })
    .from(liveLots)
    .innerJoin(auctions, eq(auctions.id, liveLots.auctionId))
    .where(and(eq(liveLots.sessionId, opts.session.id), sql`${opts.url} = any(${auctions.images})`))
    .limit(1);
  if (lotImage) return;
  throw new AppError('VALIDATION', messages.errors.validation, { coverImageUrl: messages.live.fields.coverInvalid });
}

/**
 * Every change that takes a session out of 'ended' runs this, with the session locked: the seller
 * must have confirmed it (`reopen: true`, or the status dropdown, which is explicit), else 409
 * SESSION_ENDED; and no auction of the session may be a lot of another open session meanwhile.
 */
export async function checkReopen(tx: Tx, session: SessionRow, opts: { confirmed: boolean }): Promise<void> {
  if (session.status !== 'ended') return;
  if (!opts.confirmed) throw new AppError('SESSION_ENDED', messages.live.sessionEnded);
  const [clash] = await tx
    .select({ id: liveLots.id })
    .from(liveLots)
    .innerJoin(liveSessions, eq(liveSessions.id, liveLots.sessionId))
    .where(
      and(
        ne(liveLots.sessionId, session.id),
        ne(liveSessions.status, 'ended'),
        inArray(liveLots.auctionId, tx.select({ id: liveLots.auctionId }).from(liveLots).where(eq(liveLots.sessionId, session.id))),
      ),
    )
    .limit(1);
  if (clash) throw new AppError('CONFLICT', messages.live.reopenConflict);
}

/** PUT /api/live-sessions/{id}: any subset of the fields ('Editar Sesión', the status dropdown, the cover). */
export async function updateSession(
  db: Db,
  opts: Acting<Actor> & { present: BidPresenter; id: string; input: SessionUpdate },
): Promise<SessionCommitted & { ended: boolean }> {
  const { actor, input } = opts;
  const change = await db.transaction(async (tx) => {
    const before = await lockEditable(tx, opts.id, actor);
    const set: Partial<typeof liveSessions.$inferInsert> = {};
    const title = input.title ?? before.title;
    const scheduledAt = input.scheduledAt ?? before.scheduledAt.getTime();
    if (input.title !== undefined) set.title = input.title;
    if (input.scheduledAt !== undefined) set.scheduledAt = new Date(input.scheduledAt);
    if (input.sellerSlug !== undefined) set.sellerSlug = sessionSlug({ sellerSlug: input.sellerSlug, title, scheduledAt });
    if (input.whatsappLink !== undefined) set.whatsappLink = input.whatsappLink;
    if (input.biddingConfig !== undefined) set.biddingConfig = mergeBiddingConfig(before.biddingConfig, input.biddingConfig);
    if (input.autoAdvancePaused !== undefined) set.autoAdvancePaused = input.autoAdvancePaused;
    if (input.recording !== undefined) set.recording = input.recording;
    if (input.coverImageUrl !== undefined) {
      if (input.coverImageUrl !== null && input.coverImageUrl !== before.coverImageUrl)
        await checkCover(tx, { url: input.coverImageUrl, actor, session: before });
      set.coverImageUrl = input.coverImageUrl;
    }
    const status = (input.status ?? before.status) as SessionStatus;
    if (status !== before.status) {
      await checkReopen(tx, before, { confirmed: true });
      set.status = status;
      // 'Finalizada' ends the broadcast as 'Detener' does; the route drops the video.
      if (status === 'ended') set.lastStreamStop = new Date();
    }
    const row = await bumpSession(tx, before.id, set);
    await recordAudit(tx, {
      by: opts,
      action: 'live_session.update',
      entityType: 'live_session',
      entityId: row.id,
      before: pick(before, Object.keys(set)),
      after: pick(row, Object.keys(set)),
    });
    return { sessionId: row.id, statusChanged: status !== before.status, ended: status === 'ended' && before.status !== 'ended' };
  });
  return afterCommit(db, opts.present, change);
}

function pick(row: SessionRow, keys: string[]): Record<string, unknown> {
  const values = new Map<string, unknown>(Object.entries(row));
  return Object.fromEntries(keys.map((k) => [k, values.get(k)]));
}

/**
 * DELETE /api/live-sessions/{id}: its lots go with it; auctions never do. A session holding a lot
 * that sold (its results) or that is running is refused (removal.ts): the seller ends it instead.
 * Its auctions' rows are locked first, then the session, as everywhere.
 */
export async function deleteSession(db: Db, opts: Acting<Actor> & { id: string }): Promise<{ row: SessionRow; events: DomainEvent[] }> {
  const editable = await readEditable(db, opts.id, opts.actor);
  // A lot added between the read and the locks: read again.
  for (let attempt = 0; ; attempt++) {
    const seen = await db.select({ auctionId: liveLots.auctionId }).from(liveLots).where(eq(liveLots.sessionId, editable.id));
    const done = await db.transaction(async (tx) => {
      const states = await lockAuctionStates(
        tx,
        seen.map((l) => l.auctionId),
      );
      const row = await lockEditable(tx, opts.id, opts.actor);
      const lots = await tx.select({ id: liveLots.id, auctionId: liveLots.auctionId }).from(liveLots).where(eq(liveLots.sessionId, row.id));
      if (lots.some((l) => !states.has(l.auctionId))) {
        if (attempt < 3) return null;
        throw new AppError('CONFLICT', messages.live.lotsMismatch);
      }
      // A rehearsal goes with its auctions put back as they were (its copies go with the session).
      const restored = row.rehearsal ? await restoreRehearsalTx(tx, { sessionId: row.id }) : null;
      if (!restored) {
        const offered = await offeredLots(tx, row.id);
        checkSessionDeletable(lots.map((l) => removalBlockOf(states.get(l.auctionId) as EngineState, offered.has(l.id))));
      }
      await tx.delete(liveSessions).where(eq(liveSessions.id, row.id));
      await recordAudit(tx, {
        by: opts,
        action: 'live_session.delete',
        entityType: 'live_session',
        entityId: row.id,
        before: { title: row.title, companyId: row.companyId, status: row.status, auctionIds: lots.map((l) => l.auctionId) },
      });
      return { row, restored: restored?.events ?? [] };
    });
    if (done) return { row: done.row, events: [sessionDeleted(done.row), ...done.restored] };
  }
}
