import { CHAT_MIN_INTERVAL_SECONDS } from '../../../domain/chat.js';
import { chatRepeatKey } from '../../../domain/chat-text.js';
import { canEditSession } from '../../policies/live-sessions.js';
import type { Owned, ScopedActor } from '../../policies/scope.js';

/**
 * Who moderates a show's chat, and what the pace rules refuse. No database here: the callers read
 * the facts (queries.ts) and these decide.
 *
 * - Owners: the session's editors (`canEditSession`: its seller and its company's admins while that
 *   company is theirs, and platform admins). They always moderate their shows, the replay included.
 * - Appointed moderators (session_moderators): only that session, and only until it ends.
 * Nobody moderates another company's show by being a moderator of one of their own.
 */

export interface ChatSessionFacts extends Owned {
  id: string;
  status: string;
}

export type ModeratorPower = 'owner' | 'appointed' | null;

export function moderatorPower(actor: ScopedActor | null, session: ChatSessionFacts, opts: { isAppointed: boolean }): ModeratorPower {
  if (!actor) return null;
  if (canEditSession(actor, session)) return 'owner';
  if (opts.isAppointed && session.status !== 'ended') return 'appointed';
  return null;
}

/** Appointing and removing moderators: the session's editors only (an appointed moderator appoints nobody). */
export function mayManageModerators(actor: ScopedActor | null, session: ChatSessionFacts): boolean {
  return canEditSession(actor, session);
}

/** The chat is written in while the show has not ended; after that it is its replay, read-only. */
export function isChatOpen(session: ChatSessionFacts): boolean {
  return session.status !== 'ended';
}

/** Seconds a writer must leave between lines: the pace, or the slow mode when longer (moderators keep the pace only). */
export function lineInterval(opts: { slowModeSeconds: number; isModerator: boolean }): number {
  return opts.isModerator ? CHAT_MIN_INTERVAL_SECONDS : Math.max(CHAT_MIN_INTERVAL_SECONDS, opts.slowModeSeconds);
}

/** How a line's text is compared with the writer's previous one: its canonical form without punctuation (chat-text.ts). */
export function repeatKey(text: string): string {
  return chatRepeatKey(text);
}

export type PaceRefusal = { code: 'CHAT_RATE_LIMITED' | 'CHAT_SLOW_MODE'; waitSeconds: number } | { code: 'CHAT_DUPLICATE' };

/**
 * Why the writer's row refused a line (the conditional upsert in lines.ts returned nothing): the
 * longer wait first (slow mode when on, else the 2-second pace), then the repeated text. Null when none holds (the row
 * changed between the upsert and this read: the caller refuses as a pace anyway).
 */
export function paceRefusal(opts: { elapsedMs: number; slowModeSeconds: number; isModerator: boolean; sameText: boolean }): PaceRefusal | null {
  const waitFor = (seconds: number) => Math.max(1, Math.ceil((seconds * 1000 - opts.elapsedMs) / 1000));
  const interval = lineInterval(opts);
  // Slow mode's wait is the longer one: naming the 2-second pace inside it would tell the writer to come back too soon.
  if (interval > CHAT_MIN_INTERVAL_SECONDS && opts.elapsedMs < interval * 1000) return { code: 'CHAT_SLOW_MODE', waitSeconds: waitFor(interval) };
  if (opts.elapsedMs < CHAT_MIN_INTERVAL_SECONDS * 1000) return { code: 'CHAT_RATE_LIMITED', waitSeconds: waitFor(CHAT_MIN_INTERVAL_SECONDS) };
  if (opts.sameText) return { code: 'CHAT_DUPLICATE' };
  return null;
}
