import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ChatSettings, SessionMute, SlowModeSeconds } from '../../../domain/chat.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { chatMessages, liveSessions, sessionModerators, sessionMutes } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import type { ScopedActor } from '../../policies/scope.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import { chatRemoved, chatSettingsChanged, chatStandingChanged } from './events.js';
import { moderatorPower } from './policies.js';
import { type ChatPresenter, presentMute } from './presenters.js';
import { type ChatSession, isVisibleTo, lineNotFound, readChatSession, readLine, readPerson, readSettings, readStanding, requireModerator } from './queries.js';

/**
 * A moderator's tools in a show's chat: delete a line, pin one, slow mode, mute and unmute. Each
 * checks the actor moderates this session (policies.ts), runs in one transaction with its audit
 * row, and returns the events its change produced for the route to publish after the commit.
 */

type Moderating = Acting<ScopedActor> & { sessionId: string };

/** The session locked for the change, and the actor's power over it (403 when none). */
async function moderated(tx: Tx, opts: Moderating): Promise<ChatSession> {
  const session = await readChatSession(tx, opts.sessionId, { lock: true });
  await requireModerator(tx, opts.actor, session);
  return session;
}

async function settingsEvent(tx: Tx, present: ChatPresenter, sessionId: string): Promise<{ settings: ChatSettings; event: DomainEvent }> {
  const settings = await readSettings(tx, present, await readChatSession(tx, sessionId));
  return { settings, event: chatSettingsChanged(sessionId, settings) };
}

/** DELETE .../chat/{messageId}: gone for everyone (and unpinned). Deleting a deleted line again changes nothing. */
export async function deleteLine(db: Db, opts: Moderating & { present: ChatPresenter; messageId: string }): Promise<{ events: DomainEvent[] }> {
  return db.transaction(async (tx) => {
    const session = await moderated(tx, opts);
    const line = await readLine(tx, session.id, opts.messageId);
    if (!line) throw lineNotFound();
    const [deleted] = await tx
      .update(chatMessages)
      .set({ deletedAt: new Date(), deletedBy: opts.actor.id })
      .where(and(eq(chatMessages.id, line.id), isNull(chatMessages.deletedAt)))
      .returning({ id: chatMessages.id });
    if (!deleted) return { events: [] };
    const events: DomainEvent[] = [chatRemoved(session.id, line.id)];
    if (session.chatPinnedMessageId === line.id) {
      await tx.update(liveSessions).set({ chatPinnedMessageId: null }).where(eq(liveSessions.id, session.id));
      events.push((await settingsEvent(tx, opts.present, session.id)).event);
    }
    await recordAudit(tx, {
      by: opts,
      action: 'chat.delete',
      entityType: 'live_session',
      entityId: session.id,
      before: { messageId: line.id, authorId: line.authorId, text: line.text, pinned: session.chatPinnedMessageId === line.id },
    });
    return { events };
  });
}

/** POST .../chat/pin: pins a line everyone sees (not deleted, not kept to its author), or unpins with null. */
export async function pinLine(
  db: Db,
  opts: Moderating & { present: ChatPresenter; messageId: string | null },
): Promise<{ settings: ChatSettings; events: DomainEvent[] }> {
  return db.transaction(async (tx) => {
    const session = await moderated(tx, opts);
    let pinnedId: string | null = null;
    if (opts.messageId !== null) {
      const line = await readLine(tx, session.id, opts.messageId);
      if (!line || !isVisibleTo(line, null)) throw lineNotFound();
      pinnedId = line.id;
    }
    await tx.update(liveSessions).set({ chatPinnedMessageId: pinnedId }).where(eq(liveSessions.id, session.id));
    await recordAudit(tx, {
      by: opts,
      action: 'chat.pin',
      entityType: 'live_session',
      entityId: session.id,
      before: { messageId: session.chatPinnedMessageId },
      after: { messageId: pinnedId },
    });
    const { settings, event } = await settingsEvent(tx, opts.present, session.id);
    return { settings, events: [event] };
  });
}

/** PUT .../chat-settings: the slow mode (0 = off). */
export async function setSlowMode(
  db: Db,
  opts: Moderating & { present: ChatPresenter; slowModeSeconds: SlowModeSeconds },
): Promise<{ settings: ChatSettings; events: DomainEvent[] }> {
  return db.transaction(async (tx) => {
    const session = await moderated(tx, opts);
    await tx.update(liveSessions).set({ chatSlowModeSeconds: opts.slowModeSeconds }).where(eq(liveSessions.id, session.id));
    await recordAudit(tx, {
      by: opts,
      action: 'chat.slow_mode',
      entityType: 'live_session',
      entityId: session.id,
      before: { slowModeSeconds: session.chatSlowModeSeconds },
      after: { slowModeSeconds: opts.slowModeSeconds },
    });
    const { settings, event } = await settingsEvent(tx, opts.present, session.id);
    return { settings, events: [event] };
  });
}

/** The person to mute or unmute, or 404. */
async function target(tx: Tx, userId: string) {
  const person = await readPerson(tx, userId);
  if (!person) throw new AppError('NOT_FOUND', messages.chat.userNotFound);
  return person;
}

/**
 * POST .../mutes: `minutes` from now, or (null) until the show ends, on the database's clock. A
 * moderator of this show cannot be muted. Muting again replaces the previous mute.
 */
export async function muteUser(db: Db, opts: Moderating & { userId: string; minutes: number | null }): Promise<{ mute: SessionMute; events: DomainEvent[] }> {
  return db.transaction(async (tx) => {
    const session = await moderated(tx, opts);
    const person = await target(tx, opts.userId);
    const [appointed] = await tx
      .select({ userId: sessionModerators.userId })
      .from(sessionModerators)
      .where(and(eq(sessionModerators.sessionId, session.id), eq(sessionModerators.userId, person.id)));
    if (moderatorPower(person, session, { isAppointed: Boolean(appointed) })) throw new AppError('FORBIDDEN', messages.chat.muteModerator);
    const until = opts.minutes === null ? null : sql`now() + (${opts.minutes}::int * interval '1 minute')`;
    const [row] = await tx
      .insert(sessionMutes)
      .values({ sessionId: session.id, userId: person.id, until, mutedBy: opts.actor.id })
      .onConflictDoUpdate({ target: [sessionMutes.sessionId, sessionMutes.userId], set: { until, mutedBy: opts.actor.id, createdAt: sql`now()` } })
      .returning();
    if (!row) throw new Error('upsert returned nothing');
    await recordAudit(tx, {
      by: opts,
      action: 'chat.mute',
      entityType: 'live_session',
      entityId: session.id,
      after: { userId: person.id, minutes: opts.minutes, until: row.until },
    });
    const standing = await readStanding(tx, { sessionId: session.id, companyId: session.companyId, userId: person.id });
    return {
      mute: presentMute({ userId: person.id, name: person.publicName, until: row.until }),
      events: [chatStandingChanged({ userId: person.id, sessionId: session.id, companyId: session.companyId, standing })],
    };
  });
}

/** DELETE .../mutes/{userId}: the user writes again (404 when no mute holds). */
export async function unmuteUser(db: Db, opts: Moderating & { userId: string }): Promise<{ events: DomainEvent[] }> {
  return db.transaction(async (tx) => {
    const session = await moderated(tx, opts);
    const person = await target(tx, opts.userId);
    const [removed] = await tx
      .delete(sessionMutes)
      .where(
        and(eq(sessionMutes.sessionId, session.id), eq(sessionMutes.userId, person.id), sql`(${sessionMutes.until} is null or ${sessionMutes.until} > now())`),
      )
      .returning();
    if (!removed) throw new AppError('NOT_FOUND', messages.chat.notMuted);
    await recordAudit(tx, {
      by: opts,
      action: 'chat.unmute',
      entityType: 'live_session',
      entityId: session.id,
      before: { userId: person.id, until: removed.until },
    });
    const standing = await readStanding(tx, { sessionId: session.id, companyId: session.companyId, userId: person.id });
    return { events: [chatStandingChanged({ userId: person.id, sessionId: session.id, companyId: session.companyId, standing })] };
  });
}
