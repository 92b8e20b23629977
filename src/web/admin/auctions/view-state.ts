import { AUCTION_FILTERS, type AuctionFilter, DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../../domain/auction-list.js';
import { PANEL_PARAMS, parsePage, parseSearch } from '../panel-url';

export { MAX_SEARCH_LENGTH } from '../panel-url';

/** The panel's views: the three auction filters of SPEC §2 plus the winners summary. */
export const AUCTION_VIEWS = [...AUCTION_FILTERS, 'winners'] as const;
export type AuctionView = (typeof AUCTION_VIEWS)[number];

export interface AuctionViewState {
  view: AuctionView;
  /** The applied (debounced) search, trimmed. */
  search: string;
  page: number;
  pageSize: number;
}

/** Query-string keys (shared with the windows' in panel-url.ts); defaults are left out so /admin stays clean. */
const KEYS = { view: PANEL_PARAMS.view, search: PANEL_PARAMS.search, page: PANEL_PARAMS.page, pageSize: PANEL_PARAMS.pageSize } as const;

export const DEFAULT_VIEW_STATE: AuctionViewState = { view: 'all', search: '', page: 1, pageSize: DEFAULT_PAGE_SIZE };

export function isAuctionView(value: unknown): value is AuctionView {
  return typeof value === 'string' && (AUCTION_VIEWS as readonly string[]).includes(value);
}

/** The filter the list query runs with: the winners view still needs the counts of 'all'. */
export function listFilterFor(view: AuctionView): AuctionFilter {
  return view === 'winners' ? 'all' : view;
}

/** Reads the view from the URL; anything malformed falls back to its default. */
export function parseViewState(params: URLSearchParams): AuctionViewState {
  const view = params.get(KEYS.view);
  const pageSize = Number(params.get(KEYS.pageSize));
  return {
    view: isAuctionView(view) ? view : DEFAULT_VIEW_STATE.view,
    search: parseSearch(params.get(KEYS.search)),
    page: parsePage(params.get(KEYS.page)),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

/** A copy of `params` holding `state`; other keys of the query string are kept. */
export function writeViewState(params: URLSearchParams, state: AuctionViewState): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string, isDefault: boolean) => {
    if (isDefault) next.delete(key);
    else next.set(key, value);
  };
  set(KEYS.view, state.view, state.view === DEFAULT_VIEW_STATE.view);
  set(KEYS.search, state.search, state.search === '');
  set(KEYS.page, String(state.page), state.page === 1);
  set(KEYS.pageSize, String(state.pageSize), state.pageSize === DEFAULT_PAGE_SIZE);
  return next;
}

/** Pages of a result, at least one so 'Página 1 de 1' shows for an empty list. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
