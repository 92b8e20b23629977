import { and, asc, between, eq, gt, isNull, or } from 'drizzle-orm';
import type { ChatKind } from '../../../domain/chat.js';
import { isUuid } from '../../../domain/ids.js';
import {
  NO_REPLAY,
  REPLAY_CHAT_PAGE_SIZE,
  type ReplayAnswer,
  type ReplayChatLine,
  type ReplayChatPage,
  type ReplayVisibility,
} from '../../../domain/replays.js';
import { isAdmin } from '../../../domain/role-rules.js';
import { recordAudit } from '../../audit.js';
import type { Db } from '../../db/connect.js';
import { auctions, chatMessages, liveSessions, recordingSegments, replayClips, replays } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { canEditSession } from '../../policies/live-sessions.js';
import type { Storage } from '../../providers/storage/types.js';
import { publicReplayPosterPath, publicReplayVideoPath } from '../../reads/public-replays.js';
import { sessionNotFound } from '../../reads/sessions.js';
import type { CurrentUser } from '../../sessions/store.js';
import type { ClipSigner } from './signed-urls.js';
import { replayOffsetOf } from './timeline.js';

/**
 * A show's replay as its page and its Hub read it, and what its seller may do with it (hide, show,
 * delete, retry), and a sold lot's clip for those who may see it. The recording and the making of
 * the MP4 are jobs of their own; this file only reads and changes the rows they leave.
 *
 * Who sees what: a ready replay that is public, of a show that is not a rehearsal, is everyone's.
 * While it is being recorded or made, everyone sees that it is coming (and how far along). A hidden
 * or failed one, and a rehearsal's, is 'none' to everyone but the show's editors (its seller, its
 * company's admins, platform admins), who see everything, the failure's reason included.
 */

type ReplayRow = typeof replays.$inferSelect;
type ShowRow = Pick<typeof liveSessions.$inferSelect, 'id' | 'companyId' | 'sellerId' | 'rehearsal'>;

const NONE = NO_REPLAY;

const replayNotFound = () => new AppError('NOT_FOUND', messages.replays.notFound);

async function showOf(db: Db, sessionId: string): Promise<ShowRow> {
  if (!isUuid(sessionId)) throw sessionNotFound();
  const [show] = await db
    .select({ id: liveSessions.id, companyId: liveSessions.companyId, sellerId: liveSessions.sellerId, rehearsal: liveSessions.rehearsal })
    .from(liveSessions)
    .where(eq(liveSessions.id, sessionId));
  if (!show) throw sessionNotFound();
  return show;
}

async function replayRow(db: Db, sessionId: string): Promise<ReplayRow | null> {
  const [row] = await db.select().from(replays).where(eq(replays.sessionId, sessionId));
  return row ?? null;
}

/**
 * Whether `viewer` may watch the ready replay (the page's video and poster ask the same). One past
 * its days is nobody's, as if the retention job (daily) had already deleted it.
 */
function mayWatch(row: ReplayRow, show: ShowRow, isEditor: boolean): boolean {
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return false;
  return row.status === 'ready' && (isEditor || (row.visibility === 'public' && !show.rehearsal));
}

function present(row: ReplayRow | null, show: ShowRow, isEditor: boolean): ReplayAnswer {
  if (!row) return NONE;
  const editorPart = isEditor ? { visibility: row.visibility, error: row.error } : {};
  if (mayWatch(row, show, isEditor))
    return {
      status: row.visibility === 'hidden' ? 'hidden' : 'ready',
      progress: 100,
      url: row.videoKey ? publicReplayVideoPath(show.id) : null,
      durationMs: row.durationMs,
      posterUrl: row.posterKey ? publicReplayPosterPath(show.id) : null,
      chapters: row.chapters ?? [],
      ...editorPart,
    };
  // Coming (recorded or being made): everyone may know, unless it will not be published.
  const published = row.visibility === 'public' && !show.rehearsal;
  if ((row.status === 'recording' || row.status === 'processing') && (isEditor || published))
    return { ...NONE, status: row.status, progress: row.progress, ...editorPart };
  if (row.status === 'failed' && isEditor) return { ...NONE, status: 'failed', progress: row.progress, ...editorPart };
  return NONE;
}

/** GET /api/live-sessions/{id}/replay. */
export async function readReplay(db: Db, opts: { sessionId: string; viewer: CurrentUser | null }): Promise<ReplayAnswer> {
  const show = await showOf(db, opts.sessionId);
  return present(await replayRow(db, show.id), show, canEditSession(opts.viewer, show));
}

/** The stored file behind the replay's video or poster, when `viewer` may watch it; else 404 as if there were none. */
export async function replayFile(
  db: Db,
  opts: { sessionId: string; viewer: CurrentUser | null; file: 'video' | 'poster' },
): Promise<{ key: string; isPublic: boolean }> {
  const show = await showOf(db, opts.sessionId);
  const row = await replayRow(db, show.id);
  const isEditor = canEditSession(opts.viewer, show);
  const key = opts.file === 'video' ? row?.videoKey : row?.posterKey;
  if (!row || !key || !mayWatch(row, show, isEditor)) throw replayNotFound();
  return { key, isPublic: row.visibility === 'public' && !show.rehearsal };
}

/**
 * GET /api/live-sessions/{id}/replay/chat: the chat's lines beside the replay, each at its moment,
 * for whoever may watch it (404 otherwise, and for a replay made before its timeline was kept). A
 * line is shown as the live chat showed it to everyone: not deleted, not kept to its author, with
 * its public name and no author's id or tag. Only the lines written while the show was recorded,
 * in the chat's order, REPLAY_CHAT_PAGE_SIZE at a time after the line numbered `after`.
 */
export async function readReplayChat(db: Db, opts: { sessionId: string; viewer: CurrentUser | null; after: number | null }): Promise<ReplayChatPage> {
  const show = await showOf(db, opts.sessionId);
  const row = await replayRow(db, show.id);
  if (!row?.timeline || !mayWatch(row, show, canEditSession(opts.viewer, show))) throw replayNotFound();
  const segments = row.timeline;
  if (segments.length === 0) return { lines: [], next: null };
  const found = await db
    .select({
      id: chatMessages.id,
      seq: chatMessages.seq,
      kind: chatMessages.kind,
      authorName: chatMessages.authorName,
      authorIsModerator: chatMessages.authorIsModerator,
      text: chatMessages.text,
      system: chatMessages.system,
      createdAt: chatMessages.createdAt,
    })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.sessionId, show.id),
        isNull(chatMessages.deletedAt),
        eq(chatMessages.onlyAuthor, false),
        opts.after === null ? undefined : gt(chatMessages.seq, opts.after),
        or(...segments.map((s) => between(chatMessages.createdAt, new Date(s.startedAt), new Date(s.startedAt + s.durationMs)))),
      ),
    )
    .orderBy(asc(chatMessages.seq))
    .limit(REPLAY_CHAT_PAGE_SIZE + 1);
  const lines: ReplayChatLine[] = [];
  for (const line of found.slice(0, REPLAY_CHAT_PAGE_SIZE)) {
    const atMs = replayOffsetOf(segments, line.createdAt.getTime());
    // The query kept only lines inside a segment; this guards the millisecond the two clocks may round apart.
    if (atMs === null) continue;
    lines.push({ ...line, kind: line.kind as ChatKind, system: line.system ?? null, createdAt: line.createdAt.getTime(), atMs });
  }
  const last = found[REPLAY_CHAT_PAGE_SIZE - 1];
  return { lines, next: found.length > REPLAY_CHAT_PAGE_SIZE && last ? String(last.seq) : null };
}

/** The show, when the actor may change its replay; 404 'Sesión no encontrada' otherwise, as every Hub route answers. */
async function editableShow(db: Db, actor: CurrentUser, sessionId: string): Promise<ShowRow> {
  const show = await showOf(db, sessionId);
  if (!canEditSession(actor, show)) throw sessionNotFound();
  return show;
}

/** PUT /api/live-sessions/{id}/replay `{ visibility }`: hide it from buyers, or show it again. */
export async function setReplayVisibility(db: Db, opts: Acting & { sessionId: string; visibility: ReplayVisibility }): Promise<ReplayAnswer> {
  const show = await editableShow(db, opts.actor, opts.sessionId);
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(replays).where(eq(replays.sessionId, show.id)).for('update');
    if (!before) throw replayNotFound();
    if (before.visibility === opts.visibility) return before;
    const [after] = await tx.update(replays).set({ visibility: opts.visibility, updatedAt: new Date() }).where(eq(replays.sessionId, show.id)).returning();
    await recordAudit(tx, {
      by: opts,
      action: 'replay.visibility',
      entityType: 'live_session',
      entityId: show.id,
      before: { visibility: before.visibility },
      after: { visibility: opts.visibility },
    });
    return after ?? before;
  });
  return present(row, show, true);
}

/**
 * DELETE /api/live-sessions/{id}/replay: the video and its poster leave storage, then the row and
 * its recording's segments. Not while the show is still being recorded. The lots' clips stay: they
 * are their buyers' receipts, with retention of their own.
 */
export async function deleteReplay(db: Db, storage: Storage, opts: Acting & { sessionId: string }): Promise<void> {
  const show = await editableShow(db, opts.actor, opts.sessionId);
  const row = await replayRow(db, show.id);
  if (!row) throw replayNotFound();
  if (row.status === 'recording') throw new AppError('CONFLICT', messages.replays.stillRecording);
  await storage.deletePrefix(replayFolder(show.id));
  await db.transaction(async (tx) => {
    await tx.delete(replays).where(eq(replays.sessionId, show.id));
    await tx.delete(recordingSegments).where(eq(recordingSegments.sessionId, show.id));
    await recordAudit(tx, {
      by: opts,
      action: 'replay.delete',
      entityType: 'live_session',
      entityId: show.id,
      before: { status: row.status, visibility: row.visibility, durationMs: row.durationMs },
    });
  });
}

/** Where a show's replay files are kept in storage (its MP4 and poster). */
export const replayFolder = (sessionId: string) => `replays/${sessionId}/`;

/** POST /api/live-sessions/{id}/replay/retry: a failed replay is made again from its recording. */
export async function retryReplay(db: Db, opts: Acting & { sessionId: string }): Promise<ReplayAnswer> {
  const show = await editableShow(db, opts.actor, opts.sessionId);
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(replays).where(eq(replays.sessionId, show.id)).for('update');
    if (!before) throw replayNotFound();
    if (before.status !== 'failed') throw new AppError('CONFLICT', messages.replays.notFailed);
    const [after] = await tx
      .update(replays)
      .set({ status: 'processing', progress: 0, error: null, leasedUntil: null, updatedAt: new Date() })
      .where(eq(replays.sessionId, show.id))
      .returning();
    await recordAudit(tx, { by: opts, action: 'replay.retry', entityType: 'live_session', entityId: show.id, before: { error: before.error } });
    return after ?? before;
  });
  return present(row, show, true);
}

const clipNotFound = () => new AppError('NOT_FOUND', messages.replays.clipNotFound);

/** A clip's stored file while it may be watched: made, and not past its retention. */
function readyKey(clip: typeof replayClips.$inferSelect): string | null {
  if (clip.status !== 'ready' || !clip.videoKey) return null;
  return clip.expiresAt && clip.expiresAt.getTime() <= Date.now() ? null : clip.videoKey;
}

/**
 * The ready, unexpired clip of an auction, when `viewer` may see it: its winner, its seller, or an
 * admin of its company. Anyone else (platform admins included) is answered as if there were none.
 */
async function clipFor(db: Db, auctionId: string, viewer: CurrentUser | null) {
  if (!viewer || !isUuid(auctionId)) throw clipNotFound();
  const [found] = await db
    .select({ clip: replayClips, sellerId: auctions.sellerId, companyId: auctions.companyId, winnerId: auctions.currentWinnerId })
    .from(replayClips)
    .innerJoin(auctions, eq(auctions.id, replayClips.auctionId))
    .where(eq(replayClips.auctionId, auctionId));
  if (!found) throw clipNotFound();
  const mayOpen =
    viewer.id === found.winnerId ||
    viewer.id === found.sellerId ||
    (isAdmin(viewer.roles) && viewer.profileCompanyId !== null && viewer.profileCompanyId === found.companyId);
  const { clip } = found;
  if (!mayOpen || !readyKey(clip)) throw clipNotFound();
  return clip;
}

/** GET /api/auctions/{id}/clip: a signed address that opens the clip for a while. */
export async function readClip(
  db: Db,
  signer: ClipSigner,
  opts: { auctionId: string; viewer: CurrentUser | null },
): Promise<{ url: string; durationMs: number | null; expiresAt: number }> {
  const clip = await clipFor(db, opts.auctionId, opts.viewer);
  const signed = signer.sign(clip.auctionId);
  // The address never outlives the clip itself.
  const expiresAt = clip.expiresAt ? Math.min(signed.expiresAt, clip.expiresAt.getTime()) : signed.expiresAt;
  return { url: signed.url, durationMs: clip.durationMs, expiresAt };
}

/** The clip's stored file, for a signed address that checked out; 404 when the clip is gone meanwhile. */
export async function clipFile(db: Db, auctionId: string): Promise<string> {
  if (!isUuid(auctionId)) throw clipNotFound();
  const [clip] = await db.select().from(replayClips).where(eq(replayClips.auctionId, auctionId));
  const key = clip ? readyKey(clip) : null;
  if (!key) throw clipNotFound();
  return key;
}
