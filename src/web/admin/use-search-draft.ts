import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../domain/auction-list.js';
import { MAX_SEARCH_LENGTH } from './panel-url';
import type { SearchSource } from './use-panel-url';

export interface SearchDraft {
  /** What the box shows, applied SEARCH_DEBOUNCE_MS after the last keystroke. */
  draft: string;
  setDraft: (value: string) => void;
  /** Enter: apply now. */
  applyNow: () => void;
  /** Clear button, Escape: empty the box and the applied search at once. */
  clear: () => void;
  /** For a search box with no handler of its own: Enter applies now. */
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
}

/**
 * The search box's text and its debounced hand-over to `apply` (SPEC §2, §9: 250 ms; Enter at
 * once). A change of `applied` that did not come from here (back button, another tab's link)
 * replaces the text; our own echoes do not, so typing is never overwritten mid-word.
 */
export function useSearchDraft(applied: string, apply: (search: string, source: SearchSource) => void): SearchDraft {
  const [draft, setDraftState] = useState(applied);
  const lastApplied = useRef(applied);
  /**
   * Searches handed to `apply` whose echo has not come back yet, oldest first. Enter then Escape
   * sends 'reloj' then '': the late echo of 'reloj' is ours, and must not refill the box.
   */
  const echoes = useRef<string[]>([]);
  const applyRef = useRef(apply);
  useEffect(() => {
    applyRef.current = apply;
  });

  useEffect(() => {
    const own = echoes.current.indexOf(applied);
    if (own >= 0) {
      echoes.current.splice(0, own + 1);
      return;
    }
    // A change from elsewhere (back button, a link) supersedes whatever we were waiting for.
    echoes.current = [];
    if (applied !== lastApplied.current) {
      lastApplied.current = applied;
      setDraftState(applied);
    }
  }, [applied]);

  const commit = useCallback((value: string, source: SearchSource) => {
    const search = value.trim().slice(0, MAX_SEARCH_LENGTH);
    if (search === lastApplied.current) {
      // Enter on what the debounce already applied still ends the typing run (no echo: the URL keeps its search).
      if (source === 'enter') applyRef.current(search, source);
      return;
    }
    lastApplied.current = search;
    echoes.current.push(search);
    applyRef.current(search, source);
  }, []);

  useEffect(() => {
    if (draft.trim() === lastApplied.current) return;
    const timer = window.setTimeout(() => commit(draft, 'typing'), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [draft, commit]);

  const setDraft = useCallback((value: string) => setDraftState(value.slice(0, MAX_SEARCH_LENGTH)), []);
  const applyNow = useCallback(() => commit(draft, 'enter'), [commit, draft]);
  const clear = useCallback(() => {
    setDraftState('');
    commit('', 'clear');
  }, [commit]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLInputElement>) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      applyNow();
    },
    [applyNow],
  );

  return { draft, setDraft, applyNow, clear, onKeyDown };
}
