import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { PANEL_PARAMS } from './panel-url';

/**
 * How a search reached a list: typed (applied after the debounce), submitted with Enter, or
 * cleared. Only the first typed search of a run pushes a history entry; the rest of the run
 * replaces it, so Back does not step through every pause in the typing.
 */
export type SearchSource = 'typing' | 'enter' | 'clear';

/** What the panel's own entries carry in history.state (React Router keeps it under `usr`). */
export interface PanelEntryState {
  /** The entry was made by a typed search whose run has not ended yet. */
  isTypedSearch?: boolean;
  /**
   * With a window open: how many entries this one is past the entry the window was opened from
   * (1 for the opening itself). Unknown (absent) when the window came from a link or a reload.
   */
  windowDepth?: number;
}

export function currentEntry(): PanelEntryState {
  const state = window.history.state as { usr?: PanelEntryState | null } | null;
  return state?.usr ?? {};
}

export interface PanelUrlCodec<S> {
  parse: (params: URLSearchParams) => S;
  /** A copy of the params holding the state; keys it does not own are kept. */
  write: (params: URLSearchParams, state: S) => URLSearchParams;
}

/** Both the auction list and the windows have a search that goes back to page 1. */
interface Searchable {
  search: string;
  page: number;
}

export interface PanelUrl<S extends Searchable> {
  state: S;
  /** Pushes (or replaces) the state `patch` makes of the URL's state now; null changes nothing. */
  update: (patch: (current: S) => Partial<S> | null, opts?: { replace?: boolean }) => void;
  /** A new search, back to page 1, by the typed-search rule above. */
  setSearch: (search: string, source: SearchSource) => void;
}

/**
 * A slice of the panel's state kept in the query string: each change pushes a
 * history entry, so Back returns to the previous view instead of leaving the panel, and Back and
 * Forward re-read the URL. The auction list and the windows both go through here; the `codec`
 * must be a stable (module-level) object.
 */
export function usePanelUrl<S extends Searchable>(codec: PanelUrlCodec<S>): PanelUrl<S> {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => codec.parse(params), [codec, params]);

  const commit = useCallback(
    (next: URLSearchParams, opts: { replace: boolean; isTypedSearch?: boolean }) => {
      const entry = currentEntry();
      const hadWindow = new URLSearchParams(window.location.search).has(PANEL_PARAMS.window);
      let windowDepth: number | undefined;
      if (next.has(PANEL_PARAMS.window)) {
        if (opts.replace) windowDepth = entry.windowDepth;
        else if (!hadWindow) windowDepth = 1;
        else if (entry.windowDepth !== undefined) windowDepth = entry.windowDepth + 1;
      }
      const usr: PanelEntryState = { isTypedSearch: opts.isTypedSearch, windowDepth };
      setParams(next, { replace: opts.replace, preventScrollReset: true, state: usr });
    },
    [setParams],
  );

  const update = useCallback(
    (patch: (current: S) => Partial<S> | null, opts: { replace?: boolean; isTypedSearch?: boolean } = {}) => {
      // The live URL, not the render's copy: two updates in one tick must not undo each other.
      const current = new URLSearchParams(window.location.search);
      const currentState = codec.parse(current);
      const changes = patch(currentState);
      if (!changes) return;
      const next = codec.write(current, { ...currentState, ...changes });
      if (next.toString() === current.toString()) return;
      commit(next, { replace: opts.replace ?? false, isTypedSearch: opts.isTypedSearch });
    },
    [codec, commit],
  );

  const setSearch = useCallback(
    (search: string, source: SearchSource) => {
      const isRunGoingOn = Boolean(currentEntry().isTypedSearch);
      const current = new URLSearchParams(window.location.search);
      if (source === 'enter' && isRunGoingOn && codec.parse(current).search === search) {
        // Enter on what the debounce already applied: the run ends here, the next word pushes.
        commit(current, { replace: true });
        return;
      }
      update((s) => (s.search === search ? null : ({ search, page: 1 } as Partial<S>)), {
        // The rest of a typing run, and the Enter that ends it, rewrite the run's entry.
        replace: isRunGoingOn && source !== 'clear',
        isTypedSearch: source === 'typing',
      });
    },
    [codec, commit, update],
  );

  return { state, update, setSearch };
}
