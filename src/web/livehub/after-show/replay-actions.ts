import { formatClock } from '../../../domain/live-public.js';
import { type SubmitLock, tryLock } from '../submission';

/**
 * The 'Repetición' card's rules, pure so they are tested without a browser: one request per
 * action however fast the clicks, and a delete that only asks until the seller confirms.
 */

/**
 * Starts `send` unless this action's previous request is still on its way; `send` calls `done`
 * when its answer arrives. The lock is set in the click itself: a mutation's isPending reaches the
 * button a render later, and a double click in that moment would send twice.
 */
export function sendOnce(lock: SubmitLock, send: (done: () => void) => void): boolean {
  if (!tryLock(lock)) return false;
  send(() => {
    lock.isLocked = false;
  });
  return true;
}

export type DeleteStep = 'idle' | 'asking';

/** 'Eliminar repetición' asks first; only the question's confirmation sends the delete. */
export function nextDeleteStep(step: DeleteStep, event: 'press' | 'cancel' | 'confirm'): { step: DeleteStep; send: boolean } {
  if (event === 'press') return { step: 'asking', send: false };
  if (event === 'cancel') return { step: 'idle', send: false };
  return { step: 'idle', send: step === 'asking' };
}

/** The replay's length as the player's clock shows it ('12:34', '1:02:03'); null when unknown. */
export function replayLength(durationMs: number | null): string | null {
  return durationMs === null || durationMs <= 0 ? null : formatClock(Math.round(durationMs / 1000));
}

/**
 * When the replay is asked again without polling: the recording starts and ends with the show and
 * the seller's broadcast, and 'Grabar el show' turns it on or off; no room event announces it.
 */
export function replayRevision(session: { status: string; broadcasting: boolean; recording: boolean }): string {
  return `${session.status}:${session.broadcasting}:${session.recording}`;
}
