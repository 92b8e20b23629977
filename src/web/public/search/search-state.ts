/**
 * The search page's pure rules: what a query asks of the server (or why not yet), what a result
 * says of its time, and the page's address. Tested without a browser (test/web/public/search-state.test.ts).
 */
import type { SearchItem } from '../../api/home';
import { SEARCH_MAX, SEARCH_MIN } from '../../api/home';
import { SEARCH_PATH } from '../../routes';
import { CATEGORY_PARAM } from '../home/home-shows';

export type QueryState = { kind: 'empty' } | { kind: 'tooShort' } | { kind: 'tooLong' } | { kind: 'ready'; q: string };

/** What a typed query is: nothing yet, too short or too long to send (as the server counts, trimmed), or ready. */
export function queryState(text: string): QueryState {
  const q = text.trim();
  if (q.length === 0) return { kind: 'empty' };
  if (q.length < SEARCH_MIN) return { kind: 'tooShort' };
  if (q.length > SEARCH_MAX) return { kind: 'tooLong' };
  return { kind: 'ready', q };
}

export type ResultWhen = { kind: 'live' } | { kind: 'show'; at: number } | { kind: 'auction'; endsAt: number | null };

/** A result's time: its show is on now, the show's date, or an auction and when it ends. */
export function resultWhen(item: SearchItem): ResultWhen {
  if (item.kind === 'auction') return { kind: 'auction', endsAt: item.endsAt ?? null };
  if (item.live || item.startsAt === null) return { kind: 'live' };
  return { kind: 'show', at: item.startsAt };
}

/** The page's address for a query and a category: `/buscar?q=…&categoria=…`. */
export function searchPageUrl(q: string, categoryId: string | null): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (categoryId) params.set(CATEGORY_PARAM, categoryId);
  const text = params.toString();
  return text ? `${SEARCH_PATH}?${text}` : SEARCH_PATH;
}
