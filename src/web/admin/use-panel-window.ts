import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DEFAULT_WINDOW_STATE, type PanelWindow, parseWindowState, type WindowState, writeWindowState } from './panel-url';
import { currentEntry, type SearchSource, usePanelUrl } from './use-panel-url';

const codec = { parse: parseWindowState, write: writeWindowState };

export interface PanelWindowControls {
  state: WindowState;
  /** Opens a window clean (its own defaults): one history entry. */
  open: (window: PanelWindow) => void;
  /** X, Escape, a click outside, or a window that closes itself after saving. */
  close: () => void;
  /** Another value of the window's controls: one history entry (a page past the end: `replace`). */
  set: (patch: Partial<Omit<WindowState, 'window'>>, opts?: { replace?: boolean }) => void;
  /** The window's search, by the typed-search rule of the auction list; goes back to page 1. */
  setSearch: (search: string, source: SearchSource) => void;
}

/**
 * Which window of the panel is open, and its filters, live in the URL (`?window=users&role=seller`),
 * so a reload or a shared link reopens it and Back with a window open steps back through its
 * filters and then closes it; Forward reopens it.
 *
 * Closing goes back in history rather than pushing an entry without the window: Back then leaves
 * the panel where it was before the window (not reopening a window the user just closed), and
 * Forward reopens the window as it was left, as a real app's dialog does. That needs to know how
 * many entries the window made (`windowDepth`); a window that came from a link or a reload has no
 * entry to go back to, so closing it pushes the panel without the window instead.
 */
export function usePanelWindow(): PanelWindowControls {
  const { state, update, setSearch } = usePanelUrl(codec);
  const navigate = useNavigate();
  const location = useLocation();
  // A second close before the first one's popstate arrives (Escape twice) must not go back twice.
  const isClosing = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: any new location ends a pending close
  useEffect(() => {
    isClosing.current = false;
  }, [location.key]);

  const open = useCallback((window: PanelWindow) => update(() => ({ ...DEFAULT_WINDOW_STATE, window })), [update]);
  const close = useCallback(() => {
    if (isClosing.current || !parseWindowState(new URLSearchParams(window.location.search)).window) return;
    const depth = currentEntry().windowDepth;
    if (depth !== undefined && depth > 0) {
      isClosing.current = true;
      navigate(-depth);
      return;
    }
    update(() => ({ ...DEFAULT_WINDOW_STATE }));
  }, [navigate, update]);
  const set = useCallback(
    (patch: Partial<Omit<WindowState, 'window'>>, opts?: { replace?: boolean }) => update((s) => (s.window ? patch : null), opts),
    [update],
  );

  return { state, open, close, set, setSearch };
}
