import { useEffect, useRef } from 'react';
import type { AuctionView } from './view-state';

export interface AuctionShortcutHandlers {
  onView: (view: AuctionView) => void;
  onFocusSearch: () => void;
  /** Returns false when there was nothing to clear, so Escape keeps its usual meaning. */
  onClearSearch: () => boolean;
}

/** SPEC §2: 1 = Todas, 2 = Pagadas, 3 = Pendientes, 4 = Resumen de ganadores. */
export const VIEW_SHORTCUTS: Record<string, AuctionView> = { '1': 'all', '2': 'paid', '3': 'pending', '4': 'winners' };
export const SHORTCUT_KEY_OF: Record<AuctionView, string> = { all: '1', paid: '2', pending: '3', winners: '4' };

/** Inputs that never take typed text (a checkbox or a button may keep focus after a click). */
const NON_TEXT_INPUTS = new Set(['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'color', 'file', 'image']);

/** True when a key press is typing: an input, textarea, select, combobox or contenteditable has focus. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !NON_TEXT_INPUTS.has((target as HTMLInputElement).type);
  const role = target.getAttribute('role');
  return role === 'textbox' || role === 'combobox' || role === 'searchbox';
}

/** Any modal dialog on screen (ours, the auction form, categories, users...) owns the keyboard. */
export function isModalOpen(): boolean {
  return [...document.querySelectorAll('[aria-modal="true"]')].some((el) => el instanceof HTMLElement && el.getClientRects().length > 0);
}

/** The panel's keyboard shortcuts, on the whole page while it is mounted. */
export function useAuctionShortcuts(handlers: AuctionShortcutHandlers): void {
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target) || isModalOpen()) return;
      const view = VIEW_SHORTCUTS[event.key];
      if (view) {
        event.preventDefault();
        handlersRef.current.onView(view);
      } else if (event.key === '/') {
        // Otherwise the '/' would land in the box it focuses.
        event.preventDefault();
        handlersRef.current.onFocusSearch();
      } else if (event.key === 'Escape') {
        if (handlersRef.current.onClearSearch()) event.preventDefault();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
