import type { ChatMessage, ChatSettings } from '../../../domain/chat.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import type { Standing } from './queries.js';

/** The chat's DomainEvents (src/server/realtime/publisher.ts delivers them after the commit). */

/** A new line: to the session's room, or (a muted word in it) to one user's own room: its author's, or a moderator's. */
export function chatLine(message: ChatMessage, toUserId: string | null): DomainEvent {
  return { type: 'chatMessage', message, onlyAuthorId: toUserId };
}

export function chatRemoved(sessionId: string, messageId: string): DomainEvent {
  return { type: 'chatRemoved', removed: { sessionId, messageId } };
}

export function chatSettingsChanged(sessionId: string, settings: ChatSettings): DomainEvent {
  return { type: 'chatSettingsChanged', settings: { sessionId, ...settings } };
}

/** To the user's own room: their mute (or block) in this show changed. */
export function chatStandingChanged(opts: { userId: string; sessionId: string; companyId: string; standing: Standing }): DomainEvent {
  const { mutedUntil, isBlocked } = opts.standing;
  return {
    type: 'chatStandingChanged',
    userId: opts.userId,
    standing: {
      sessionId: opts.sessionId,
      companyId: opts.companyId,
      isBlocked,
      ...(mutedUntil !== undefined ? { mutedUntil: mutedUntil ? mutedUntil.getTime() : null } : {}),
    },
  };
}
