/**
 * Time left and time since, on the server's clock. Pure, so the page's clock logic is tested
 * without a browser; the components only pick the catalogue text for the parts.
 */

/** The last minute turns the countdown red. */
export const FINAL_MINUTE_MS = 60_000;

export interface Countdown {
  /** Milliseconds left, never negative. */
  remainingMs: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** Which catalogue pattern fits: '2 d 3 h 4 min 5 s', '3 h 4 min 5 s', '4 min 5 s' or '5 s'. */
  pattern: 'days' | 'hours' | 'minutes' | 'seconds';
  isOver: boolean;
  isFinalMinute: boolean;
}

/**
 * Splits what is left until `endTime` at `now` (both epoch ms on the server's clock). Seconds round
 * up, so '1 s' shows until the very end and '0 s' never does: at zero the auction is over.
 */
export function countdownParts(endTime: number, now: number): Countdown {
  const remainingMs = Math.max(0, endTime - now);
  const total = Math.ceil(remainingMs / 1000);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pattern = days > 0 ? 'days' : hours > 0 ? 'hours' : minutes > 0 ? 'minutes' : 'seconds';
  return { remainingMs, days, hours, minutes, seconds, pattern, isOver: remainingMs === 0, isFinalMinute: remainingMs > 0 && remainingMs <= FINAL_MINUTE_MS };
}

/** Two digits for the parts after the first: '2 h 05 min 09 s'. */
export const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * How far the server's clock is ahead of this device: `serverNow` read from an answer, minus the
 * device's time when that answer arrived. Add it to Date.now() to get the server's time.
 */
export function clockOffset(serverNow: number, receivedAt: number): number {
  return serverNow - receivedAt;
}

export type Age = { unit: 'justNow' } | { unit: 'seconds' | 'minutes' | 'hours'; count: number } | { unit: 'date' };

/** 'hace un momento', 'hace 40 s', 'hace 3 min', 'hace 2 h'; from a day on, the date itself. */
export function relativeAge(at: number, now: number): Age {
  const ms = Math.max(0, now - at);
  if (ms < 10_000) return { unit: 'justNow' };
  if (ms < 60_000) return { unit: 'seconds', count: Math.floor(ms / 1000) };
  if (ms < 3_600_000) return { unit: 'minutes', count: Math.floor(ms / 60_000) };
  if (ms < 86_400_000) return { unit: 'hours', count: Math.floor(ms / 3_600_000) };
  return { unit: 'date' };
}
