import type { ReminderKind } from '../../../domain/after-show.js';
import type { ReminderView } from '../../../domain/reminders.js';

/** What the panel says of a reminder: its kind's label key, and the state of an automatic send that failed. */

export const REMINDER_KIND_KEYS = {
  bill: 'reminders.kinds.bill',
  afterLink: 'reminders.kinds.afterLink',
  beforeDeadline: 'reminders.kinds.beforeDeadline',
  secondChance: 'reminders.kinds.secondChance',
} as const satisfies Record<ReminderKind, string>;

export const REMINDER_KIND_COLORS: Record<ReminderKind, string> = { bill: 'blue', afterLink: 'yellow', beforeDeadline: 'red', secondChance: 'grape' };

/** A Cloud API send that failed: given up for good, or waiting for its next attempt (epoch ms). */
export type SendTrouble = { kind: 'gaveUp'; attempts: number } | { kind: 'retrying'; attempts: number; nextAt: number | null };

export function sendTrouble(r: Pick<ReminderView, 'status' | 'attempts' | 'nextAttemptAt'>): SendTrouble {
  return r.status === 'failed' ? { kind: 'gaveUp', attempts: r.attempts } : { kind: 'retrying', attempts: r.attempts, nextAt: r.nextAttemptAt };
}
