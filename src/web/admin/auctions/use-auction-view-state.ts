import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { type AuctionView, type AuctionViewState, parseViewState, writeViewState } from './view-state';

/**
 * How a search reached the list: typed (applied after the debounce), submitted with Enter, or
 * cleared. Only the first typed search of a run pushes a history entry; the rest of the run
 * replaces it, so Back does not step through every pause in the typing.
 */
export type SearchSource = 'typing' | 'enter' | 'clear';

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

/** What our own entries carry in history.state (React Router keeps it under `usr`). */
interface EntryState {
  /** The entry was made by a typed search whose run has not ended yet. */
  isTypedSearch?: boolean;
}

function isTypedSearchEntry(): boolean {
  const state = window.history.state as { usr?: EntryState | null } | null;
  return Boolean(state?.usr?.isTypedSearch);
}

/**
 * Filter, search, page and page size live in the query string, so a reload or a shared link shows
 * the same view. Each change pushes a history entry (issue 14 item 6), so Back returns to the
 * previous view instead of leaving the panel; Back and Forward re-read the URL, and the list and
 * the search box follow. Changing the filter, the search or the page size goes back to page 1.
 */
export function useAuctionViewState(): AuctionViewControls {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseViewState(params), [params]);

  const update = useCallback(
    (patch: (current: AuctionViewState) => Partial<AuctionViewState> | null, opts: { replace?: boolean; entry?: EntryState } = {}) => {
      // The live URL, not the render's copy: two updates in one tick must not undo each other.
      const current = new URLSearchParams(window.location.search);
      const currentState = parseViewState(current);
      const changes = patch(currentState);
      if (!changes) return;
      const next = writeViewState(current, { ...currentState, ...changes });
      if (next.toString() === current.toString()) return;
      setParams(next, { replace: opts.replace ?? false, preventScrollReset: true, state: opts.entry ?? null });
    },
    [setParams],
  );

  const setView = useCallback((view: AuctionView) => update((s) => (s.view === view ? null : { view, page: 1 })), [update]);
  const setSearch = useCallback(
    (search: string, source: SearchSource = 'enter') => {
      const isRunGoingOn = isTypedSearchEntry();
      if (source === 'enter' && isRunGoingOn && parseViewState(new URLSearchParams(window.location.search)).search === search) {
        // Enter on what the debounce already applied: the run ends here, the next word pushes.
        setParams(new URLSearchParams(window.location.search), { replace: true, preventScrollReset: true, state: null });
        return;
      }
      update((s) => (s.search === search ? null : { search, page: 1 }), {
        // The rest of a typing run, and the Enter that ends it, rewrite the run's entry.
        replace: isRunGoingOn && source !== 'clear',
        entry: source === 'typing' ? { isTypedSearch: true } : undefined,
      });
    },
    [update, setParams],
  );
  const setPage = useCallback((page: number) => update(() => ({ page: Math.max(1, Math.floor(page)) })), [update]);
  const clampPage = useCallback((page: number) => update(() => ({ page: Math.max(1, Math.floor(page)) }), { replace: true }), [update]);
  const stepPage = useCallback((delta: number) => update((s) => ({ page: Math.max(1, s.page + delta) })), [update]);
  const setPageSize = useCallback((pageSize: number) => update((s) => (s.pageSize === pageSize ? null : { pageSize, page: 1 })), [update]);
  const show = useCallback((patch: Partial<AuctionViewState>) => update(() => ({ page: 1, ...patch })), [update]);

  return { state, setView, setSearch, setPage, stepPage, setPageSize, clampPage, show };
}
