import { APP_TIME_ZONE } from '../lib/dates';
import { fromMexicoWallTime } from '../lib/end-time';

/**
 * The scheduled date and time of a session as typed, pure so it is tested without a browser. The
 * date is a native date field ('YYYY-MM-DD', the browser's own calendar, past days not offered);
 * the time is plain text read exactly as typed ('21:30', '2130', '9:30 p.m.'), with no field that
 * completes or jumps by itself. Both are Mexico City wall time whatever the device's zone.
 */

export type ScheduleError = 'scheduleDateRequired' | 'scheduleDatePast' | 'scheduleTimeRequired' | 'scheduleTimeInvalid';

export type TimeOfDay = { hour: number; minute: number };

const SEPARATED = /^(\d{1,2})\s*[:.,hH\s]\s*(\d{2})$/;
const DIGITS = /^(\d{1,2})(\d{2})$/;
const MERIDIEM = /\s*([ap])\.?\s*m\.?$/i;

/** '21:30', '21.30', '21 30', '2130', '930', '9:30 p.m.', '9:30pm' → the time; anything else is refused. */
export function parseTimeText(text: string): { ok: true; value: TimeOfDay } | { ok: false; error: 'scheduleTimeRequired' | 'scheduleTimeInvalid' } {
  let rest = text.trim().toLowerCase();
  if (rest === '') return { ok: false, error: 'scheduleTimeRequired' };
  const meridiem = MERIDIEM.exec(rest);
  if (meridiem) rest = rest.slice(0, meridiem.index).trim();
  const match = SEPARATED.exec(rest) ?? DIGITS.exec(rest);
  if (!match) return { ok: false, error: 'scheduleTimeInvalid' };
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  if (minute > 59) return { ok: false, error: 'scheduleTimeInvalid' };
  if (meridiem) {
    // A 12-hour time: 12:05 a.m. is 00:05, 12:05 p.m. is 12:05.
    if (hour < 1 || hour > 12) return { ok: false, error: 'scheduleTimeInvalid' };
    hour = (hour % 12) + (meridiem[1] === 'p' ? 12 : 0);
  } else if (hour > 23) {
    return { ok: false, error: 'scheduleTimeInvalid' };
  }
  return { ok: true, value: { hour, minute } };
}

const pad = (n: number) => String(n).padStart(2, '0');

const mexicoDate = new Intl.DateTimeFormat('en-CA', { timeZone: APP_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const mexicoTime = new Intl.DateTimeFormat('en-GB', { timeZone: APP_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** The Mexico City calendar day of an instant, as a date field holds it ('2026-11-22'). */
export function mexicoDateOf(epochMs: number): string {
  return mexicoDate.format(epochMs);
}

/** The Mexico City time of an instant, as the time field shows it ('21:30'). */
export function mexicoTimeOf(epochMs: number): string {
  return mexicoTime.format(epochMs);
}

function isRealDate(date: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

export interface ScheduleInput {
  /** The date field's value ('' while incomplete). */
  date: string;
  time: string;
  /** The first day offered: today in Mexico City. */
  minDate: string;
  /** A day allowed even when past: the session's own date, when editing one that already ran. */
  keepDate?: string | null;
}

/** The instant the two fields name (epoch ms), or why there is none yet. */
export function composeSchedule(input: ScheduleInput): { ok: true; value: number } | { ok: false; error: ScheduleError } {
  if (!isRealDate(input.date)) return { ok: false, error: 'scheduleDateRequired' };
  if (input.date < input.minDate && input.date !== input.keepDate) return { ok: false, error: 'scheduleDatePast' };
  const time = parseTimeText(input.time);
  if (!time.ok) return time;
  const value = fromMexicoWallTime(`${input.date} ${pad(time.value.hour)}:${pad(time.value.minute)}:00`);
  return value === null ? { ok: false, error: 'scheduleDateRequired' } : { ok: true, value };
}

/** The earliest day the date field offers: today, or the session's own earlier day when editing it. */
export function firstOfferedDate(today: string, keepDate: string | null | undefined): string {
  return keepDate && keepDate < today ? keepDate : today;
}
