/**
 * The home's pure rules: which shows a category chip keeps, the live shows busiest first, and the
 * upcoming ones grouped by their day in Mexico City (Hoy, Mañana, "sábado 5 de diciembre").
 * Tested without a browser (test/web/public/home-shows.test.ts).
 */

import { CATEGORY_PARAM } from '../../../domain/search-links.js';
import type { HomeShow } from '../../api/home';
import { formatDate } from '../../lib/dates';

export { CATEGORY_PARAM, categoryFromSearch } from '../../../domain/search-links.js';

/** The same query with the category set (or removed for null), other parameters kept. */
export function searchWithCategory(search: string, categoryId: string | null): string {
  const params = new URLSearchParams(search);
  if (categoryId) params.set(CATEGORY_PARAM, categoryId);
  else params.delete(CATEGORY_PARAM);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The shows in a category (all of them for null); a show that names no categories is in none. */
export function inCategory(shows: readonly HomeShow[], categoryId: string | null): HomeShow[] {
  if (!categoryId) return [...shows];
  return shows.filter((show) => show.categoryIds?.includes(categoryId) ?? false);
}

/** Live shows, the most watched first (ties keep the server's order). */
export function busiestFirst(shows: readonly HomeShow[]): HomeShow[] {
  return [...shows].sort((a, b) => (b.viewerCount ?? 0) - (a.viewerCount ?? 0));
}

/** The calendar day of an instant in Mexico City, as 'YYYY-MM-DD'. */
export function mexicoDay(at: number): string {
  return formatDate(at, 'YYYY-MM-DD');
}

/** The day after a 'YYYY-MM-DD' day (calendar arithmetic, no time zone involved). */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return next.toISOString().slice(0, 10);
}

const maxDay = (a: string, b: string) => (a < b ? b : a);

export type DayLabel = { kind: 'today' } | { kind: 'tomorrow' } | { kind: 'date'; text: string };

export interface DayGroup {
  day: string;
  label: DayLabel;
  shows: HomeShow[];
}

/** The upcoming shows by their day in Mexico City, earliest first. */
export function groupByDay(shows: readonly HomeShow[], now: number): DayGroup[] {
  const today = mexicoDay(now);
  const tomorrow = nextDay(today);
  const sorted = [...shows].sort((a, b) => a.scheduledAt - b.scheduledAt);
  const groups: DayGroup[] = [];
  for (const show of sorted) {
    // A show whose time has passed but has not started yet is still today's.
    const day = maxDay(mexicoDay(show.scheduledAt), today);
    let group = groups[groups.length - 1];
    if (!group || group.day !== day) {
      const label: DayLabel =
        day === today ? { kind: 'today' } : day === tomorrow ? { kind: 'tomorrow' } : { kind: 'date', text: formatDate(show.scheduledAt, 'dddd D [de] MMMM') };
      group = { day, label, shows: [] };
      groups.push(group);
    }
    group.shows.push(show);
  }
  return groups;
}
