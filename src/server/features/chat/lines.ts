import { type ChatMessage, chatTextProblem, containsMutedWord } from '../../../domain/chat.js';
import { cleanChatText } from '../../../domain/chat-text.js';
import { MEXICO_CITY_TZ } from '../../../domain/live.js';
import { recordAudit } from '../../audit.js';
import type { Db } from '../../db/connect.js';
import { chatMessages, chatReports } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import type { ScopedActor } from '../../policies/scope.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import { chatLine } from './events.js';
import { takeAddressTurn, takeWriterTurn } from './pace.js';
import { isChatOpen } from './policies.js';
import type { ChatPresenter } from './presenters.js';
import {
  holdLineOrder,
  isVisibleTo,
  lineNotFound,
  powerOf,
  readChatSession,
  readLine,
  readModeratorIds,
  readMutedWords,
  readPerson,
  readStanding,
} from './queries.js';

/**
 * Writing in a show's chat, and reporting a line. A line is refused, in this order: the show ended
 * (the chat is its replay), an incomplete profile, the text's own rules (chatTextProblem: said,
 * never rewritten), an announcement from a non-moderator, the company's block, a mute, then the
 * writer's pace, the slow mode and a repeated line, then the pace of the writer's address (pace.ts),
 * each decided across instances by one conditional upsert.
 *
 * What is stored and shown is the text as typed minus its invisible and abusive characters
 * (chat-text.ts); the rules compare its canonical form, so neither a muted word nor a repeated
 * line hides behind a zero-width space or a Cyrillic "а".
 */

const timeFormat = new Intl.DateTimeFormat('es-MX', { hour: '2-digit', minute: '2-digit', timeZone: MEXICO_CITY_TZ });

function mutedRefusal(until: Date | null): AppError {
  const extra = { mutedUntil: until ? until.getTime() : null };
  if (!until) return new AppError('CHAT_MUTED', messages.chat.mutedUntilEnd, undefined, extra);
  const minutes = String(Math.max(1, Math.ceil((until.getTime() - Date.now()) / 60_000)));
  return new AppError('CHAT_MUTED', messages.chat.mutedUntil.replace('{{time}}', timeFormat.format(until)).replace('{{minutes}}', minutes), undefined, extra);
}

/** POST .../chat: the stored line and its events (to the room, or, when it holds a muted word, to its author and the show's moderators). */
export async function postLine(
  db: Db,
  opts: Acting<ScopedActor> & {
    present: ChatPresenter;
    sessionId: string;
    text: string;
    announcement: boolean;
    /** The writer's address, hashed (pace.ts), and the lines it may write per window; null: not counted (scripts, tests of other rules). */
    address: { hash: string; limit: number } | null;
  },
): Promise<{ message: ChatMessage; events: DomainEvent[] }> {
  const { actor } = opts;
  return db.transaction(async (tx) => {
    const session = await readChatSession(tx, opts.sessionId);
    // CONFLICT, not SESSION_ENDED: that code asks the Live Hub's seller to confirm reopening a show.
    if (!isChatOpen(session)) throw new AppError('CONFLICT', messages.chat.sessionEnded);
    const [author, power] = await Promise.all([readPerson(tx, actor.id), powerOf(tx, actor, session)]);
    // Bidding's rule (a last name and WhatsApp), for the audience: the show's own moderators answer in it whatever their profile.
    if (!author || (!power && !author.isComplete)) throw new AppError('PROFILE_INCOMPLETE', messages.chat.profileIncomplete);
    const problem = chatTextProblem(opts.text);
    if (problem) throw new AppError('VALIDATION', messages.errors.validation, { text: messages.chat.fields[problem] });
    const text = cleanChatText(opts.text);
    if (opts.announcement && !power) throw new AppError('FORBIDDEN', messages.chat.announcementModeratorsOnly);
    const standing = await readStanding(tx, { sessionId: session.id, companyId: session.companyId, userId: actor.id });
    if (standing.isBlocked) throw new AppError('BUYER_BLOCKED', messages.chat.blocked);
    if (standing.mutedUntil !== undefined) throw mutedRefusal(standing.mutedUntil);
    await takeWriterTurn(tx, { sessionId: session.id, userId: actor.id, text, slowModeSeconds: session.chatSlowModeSeconds, isModerator: power !== null });
    // The show's moderators often share the seller's Wi-Fi: their lines are not the flood this stops.
    if (opts.address && !power) await takeAddressTurn(tx, { sessionId: session.id, addressHash: opts.address.hash, limit: opts.address.limit });
    // The company's muted words keep its audience's lines to their authors; its moderators' lines are theirs to say.
    const onlyAuthor = !power && containsMutedWord(text, await readMutedWords(tx, session.companyId));
    await holdLineOrder(tx, session.id);
    const [row] = await tx
      .insert(chatMessages)
      .values({
        sessionId: session.id,
        authorId: actor.id,
        authorName: author.publicName,
        authorIsModerator: power !== null,
        kind: opts.announcement ? 'announcement' : 'user',
        text,
        onlyAuthor,
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    if (opts.announcement)
      await recordAudit(tx, { by: opts, action: 'chat.announce', entityType: 'live_session', entityId: session.id, after: { messageId: row.id, text } });
    const message = opts.present.message(row);
    if (!onlyAuthor) return { message, events: [chatLine(message, null)] };
    // Kept to its author, and shown to the show's moderators (marked) so they can act on it.
    const moderators = (await readModeratorIds(tx, session)).filter((id) => id !== actor.id);
    return { message, events: [actor.id, ...moderators].map((userId) => chatLine(message, userId)) };
  });
}

/** POST .../chat/{messageId}/report: once per user and line; a repeat is accepted without a second row (`created: false`). */
export async function reportLine(
  db: Db,
  opts: { actor: ScopedActor; sessionId: string; messageId: string },
): Promise<{ created: boolean; report: { messageId: string; reported: true } }> {
  const session = await readChatSession(db, opts.sessionId);
  const line = await readLine(db, session.id, opts.messageId);
  if (!line || !isVisibleTo(line, opts.actor.id)) throw lineNotFound();
  const inserted = await db
    .insert(chatReports)
    .values({ messageId: line.id, reporterId: opts.actor.id, sessionId: session.id })
    .onConflictDoNothing()
    .returning({ messageId: chatReports.messageId });
  return { created: inserted.length > 0, report: { messageId: line.id, reported: true } };
}
