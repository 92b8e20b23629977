/**
 * The search's addresses, shared by the search page and the server that sends its first answer
 * inside the HTML: both must build the API address byte for byte alike, or the page would not find
 * the inlined answer and would ask again. No Zod here: the buyers' pages import it.
 */

/** A search reads 2 to 100 characters, counted after trimming. */
export const SEARCH_MIN = 2;
export const SEARCH_MAX = 100;

/** The query parameter that holds the chosen category, on the home and the search page. */
export const CATEGORY_PARAM = 'categoria';

/** The category a page's query (`?categoria=`) names, or null for all. */
export function categoryFromSearch(search: string): string | null {
  const value = new URLSearchParams(search).get(CATEGORY_PARAM)?.trim();
  return value ? value : null;
}

/** `GET /api/search` for a trimmed query and a category, as the search page asks it. */
export function searchApiUrl(q: string, categoryId: string | null): string {
  const params = new URLSearchParams({ q });
  if (categoryId) params.set('categoryId', categoryId);
  return `/api/search?${params.toString()}`;
}

/**
 * The search a `/buscar?q=…&categoria=…` page starts with, or null when its query is not one the
 * page sends (empty, too short or too long once trimmed: the page says so instead of asking).
 */
export function firstSearchUrl(search: string): string | null {
  const q = (new URLSearchParams(search).get('q') ?? '').trim();
  if (q.length < SEARCH_MIN || q.length > SEARCH_MAX) return null;
  return searchApiUrl(q, categoryFromSearch(search));
}
