import { createHmac } from 'node:crypto';
import type { ChatKind, ChatMessage, ChatReport, SessionModerator, SessionMute } from '../../../domain/chat.js';
import type { chatMessages } from '../../db/schema.js';

export type ChatRow = typeof chatMessages.$inferSelect;

/**
 * What leaves the server of a chat line: the public name written with it and a per-session
 * pseudonym of its author, never the author's id, e-mail or phone. The pseudonym is keyed with the
 * server secret (as bids' tags are), so it cannot be reversed or linked across sessions.
 */
export function createChatPresenter(secret: string) {
  const tagKey = createHmac('sha256', secret).update('chat-author-tag').digest();

  function tag(sessionId: string, userId: string): string {
    return createHmac('sha256', tagKey).update(`${sessionId}:${userId}`).digest('base64url').slice(0, 10);
  }

  function message(row: ChatRow): ChatMessage {
    return {
      id: row.id,
      sessionId: row.sessionId,
      seq: row.seq,
      kind: row.kind as ChatKind,
      authorName: row.authorName,
      authorTag: row.authorId ? tag(row.sessionId, row.authorId) : null,
      authorIsModerator: row.authorIsModerator,
      text: row.text,
      system: row.system ?? null,
      onlyAuthor: row.onlyAuthor,
      createdAt: row.createdAt.getTime(),
    };
  }

  /** A reported line, for moderators: with its author's id, so they can mute or block them. */
  function report(row: ChatRow, counts: { reports: number; lastReportedAt: number }): ChatReport {
    return { messageId: row.id, message: message(row), authorId: row.authorId, ...counts };
  }

  return { tag, message, report };
}
export type ChatPresenter = ReturnType<typeof createChatPresenter>;

/** A moderator as listed; the e-mail only for a reader who owns the show (`withEmail`). */
export function presentModerator(row: { userId: string; name: string; email: string }, isOwner: boolean, opts: { withEmail: boolean }): SessionModerator {
  return { userId: row.userId, name: row.name, ...(opts.withEmail ? { email: row.email } : {}), isOwner };
}

export function presentMute(row: { userId: string; name: string; until: Date | null }): SessionMute {
  return { userId: row.userId, name: row.name, until: row.until ? row.until.getTime() : null };
}
