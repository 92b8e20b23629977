import { useEffect, useRef } from 'react';

/**
 * The Hub's desktop keyboard shortcuts: N opens the next lot, 1/2/3 press the three timer buttons.
 * A key does nothing while the seller types (an input, a textarea, a select or editable text has
 * the focus), with a modifier held (the browser's and the system's own shortcuts stay theirs), or
 * while a window is open (its own keys come first).
 */
export type HubShortcut = { kind: 'next' } | { kind: 'timer'; index: number };

export const NEXT_KEY = 'N';
export const TIMER_KEYS = ['1', '2', '3'] as const;

const TYPING = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])';

export function hubShortcut(
  e: Pick<KeyboardEvent, 'key' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'repeat' | 'target'>,
  doc: Pick<Document, 'querySelector'>,
): HubShortcut | null {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.repeat) return null;
  const target = e.target as (Element & { isContentEditable?: boolean }) | null;
  if (target && typeof target.closest === 'function' && (target.closest(TYPING) || target.isContentEditable)) return null;
  if (doc.querySelector('[role="dialog"], [aria-modal="true"]')) return null;
  if (e.key === 'n' || e.key === 'N') return { kind: 'next' };
  const index = (TIMER_KEYS as readonly string[]).indexOf(e.key);
  return index >= 0 ? { kind: 'timer', index } : null;
}

/** Listens for the shortcuts while `enabled`; `onShortcut` may change every render. */
export function useHubShortcuts(enabled: boolean, onShortcut: (shortcut: HubShortcut) => void): void {
  const handler = useRef(onShortcut);
  handler.current = onShortcut;
  useEffect(() => {
    if (!enabled) return;
    const listen = (e: KeyboardEvent) => {
      const shortcut = hubShortcut(e, document);
      if (!shortcut) return;
      e.preventDefault();
      handler.current(shortcut);
    };
    window.addEventListener('keydown', listen);
    return () => window.removeEventListener('keydown', listen);
  }, [enabled]);
}
