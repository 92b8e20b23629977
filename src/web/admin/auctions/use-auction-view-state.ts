import { useCallback } from 'react';
import { type SearchSource, usePanelUrl } from '../use-panel-url';
import { type AuctionView, type AuctionViewState, parseViewState, writeViewState } from './view-state';

export type { SearchSource } from '../use-panel-url';

export interface AuctionViewControls {
  state: AuctionViewState;
  setView: (view: AuctionView) => void;
  setSearch: (search: string, source?: SearchSource) => void;
  setPage: (page: number) => void;
  /** Relative to the page in the URL now, so quick clicks add up even before React re-renders. */
  stepPage: (delta: number) => void;
  setPageSize: (pageSize: number) => void;
  /** The list corrects a page past the end: the URL is fixed in place, no history entry is added. */
  clampPage: (page: number) => void;
  /** 'Ver en Pendientes' and the like: another view in one step (one history entry). */
  show: (patch: Partial<AuctionViewState>) => void;
}

const codec = { parse: parseViewState, write: writeViewState };

/**
 * Filter, search, page and page size live in the query string, so a reload or a shared link shows
 * the same view. Each change pushes a history entry, so Back returns to the
 * previous view instead of leaving the panel; Back and Forward re-read the URL, and the list and
 * the search box follow. Changing the filter, the search or the page size goes back to page 1.
 */
export function useAuctionViewState(): AuctionViewControls {
  const { state, update, setSearch: applySearchRule } = usePanelUrl(codec);

  const setView = useCallback((view: AuctionView) => update((s) => (s.view === view ? null : { view, page: 1 })), [update]);
  const setSearch = useCallback((search: string, source: SearchSource = 'enter') => applySearchRule(search, source), [applySearchRule]);
  const setPage = useCallback((page: number) => update(() => ({ page: Math.max(1, Math.floor(page)) })), [update]);
  const clampPage = useCallback((page: number) => update(() => ({ page: Math.max(1, Math.floor(page)) }), { replace: true }), [update]);
  const stepPage = useCallback((delta: number) => update((s) => ({ page: Math.max(1, s.page + delta) })), [update]);
  const setPageSize = useCallback((pageSize: number) => update((s) => (s.pageSize === pageSize ? null : { pageSize, page: 1 })), [update]);
  const show = useCallback((patch: Partial<AuctionViewState>) => update(() => ({ page: 1, ...patch })), [update]);

  return { state, setView, setSearch, setPage, stepPage, setPageSize, clampPage, show };
}
