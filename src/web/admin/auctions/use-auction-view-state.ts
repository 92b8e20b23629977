import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { type AuctionView, type AuctionViewState, parseViewState, writeViewState } from './view-state';

export interface AuctionViewControls {
  state: AuctionViewState;
  setView: (view: AuctionView) => void;
  setSearch: (search: string) => void;
  setPage: (page: number) => void;
  /** Relative to the page in the URL now, so quick clicks add up even before React re-renders. */
  stepPage: (delta: number) => void;
  setPageSize: (pageSize: number) => void;
}

/**
 * Filter, search, page and page size live in the query string (replaced, not pushed), so a reload
 * or a shared link shows the same view. Changing the filter, the search or the page size goes back
 * to page 1.
 */
export function useAuctionViewState(): AuctionViewControls {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseViewState(params), [params]);

  const update = useCallback(
    (patch: (current: AuctionViewState) => Partial<AuctionViewState> | null) => {
      // The live URL, not the render's copy: two updates in one tick must not undo each other.
      const current = new URLSearchParams(window.location.search);
      const currentState = parseViewState(current);
      const changes = patch(currentState);
      if (!changes) return;
      const next = writeViewState(current, { ...currentState, ...changes });
      if (next.toString() === current.toString()) return;
      setParams(next, { replace: true, preventScrollReset: true });
    },
    [setParams],
  );

  const setView = useCallback((view: AuctionView) => update((s) => (s.view === view ? null : { view, page: 1 })), [update]);
  const setSearch = useCallback((search: string) => update((s) => (s.search === search ? null : { search, page: 1 })), [update]);
  const setPage = useCallback((page: number) => update(() => ({ page: Math.max(1, Math.floor(page)) })), [update]);
  const stepPage = useCallback((delta: number) => update((s) => ({ page: Math.max(1, s.page + delta) })), [update]);
  const setPageSize = useCallback((pageSize: number) => update((s) => (s.pageSize === pageSize ? null : { pageSize, page: 1 })), [update]);

  return { state, setView, setSearch, setPage, stepPage, setPageSize };
}
