import type { LiveSessionListItem } from '../../../domain/live.js';
import { formatDate } from '../../lib/dates';

/** The phone list's three groups, in the order they are shown. */
export const SHOW_GROUPS = ['today', 'upcoming', 'past'] as const;
export type ShowGroup = (typeof SHOW_GROUPS)[number];

export type GroupedShows = Record<ShowGroup, LiveSessionListItem[]>;

/** Mexico City's calendar day of an instant ('2026-11-22'): the seller's "today" is Guadalajara's, not the phone's. */
export function mexicoDayKey(at: number): string {
  return formatDate(at, 'YYYY-MM-DD');
}

const isOnNow = (s: LiveSessionListItem) => s.status === 'live' || s.status === 'paused';

function groupOf(session: LiveSessionListItem, today: string): ShowGroup {
  // A show on the air is today's whatever its date (one that started last night and runs past midnight).
  if (isOnNow(session)) return 'today';
  const day = mexicoDayKey(session.scheduledAt);
  if (day === today) return 'today';
  // An ended show is behind the seller even if it was planned for a later day.
  if (session.status !== 'ended' && day > today) return 'upcoming';
  return 'past';
}

const byTime = (a: LiveSessionListItem, b: LiveSessionListItem) => a.scheduledAt - b.scheduledAt || a.id.localeCompare(b.id);

/**
 * The seller's shows as the phone lists them: 'Hoy' (on the air first, then by time), 'Próximos'
 * (soonest first) and 'Pasados' (latest first), by Mexico City dates.
 */
export function groupShows(sessions: readonly LiveSessionListItem[], now: number): GroupedShows {
  const today = mexicoDayKey(now);
  const groups: GroupedShows = { today: [], upcoming: [], past: [] };
  for (const session of sessions) groups[groupOf(session, today)].push(session);
  groups.today.sort((a, b) => Number(isOnNow(b)) - Number(isOnNow(a)) || byTime(a, b));
  groups.upcoming.sort(byTime);
  groups.past.sort((a, b) => byTime(b, a));
  return groups;
}

/** A card's date and time: the weekday, day and month, the year only when it is not this one ('sáb. 22 de nov, 18:05'). */
export function showDateLabel(at: number, now: number): string {
  const sameYear = formatDate(at, 'YYYY') === formatDate(now, 'YYYY');
  return formatDate(at, sameYear ? 'ddd D [de] MMM, HH:mm' : 'ddd D [de] MMM [de] YYYY, HH:mm');
}
