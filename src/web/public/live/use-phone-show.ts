import { useSyncExternalStore } from 'react';

/**
 * Where the live page is the show itself (live/phone): a phone held upright (under 600 px wide), or
 * turned sideways (under 500 px tall). Wider screens keep the two columns.
 */
export const PHONE_SHOW_QUERY = '(max-width: 599.98px), (orientation: landscape) and (max-height: 499.98px)';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const query = window.matchMedia(PHONE_SHOW_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Read at the first render (no flash of the wide layout on a phone) and kept current as the screen turns. */
export function usePhoneShow(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => typeof window.matchMedia === 'function' && window.matchMedia(PHONE_SHOW_QUERY).matches,
    () => false,
  );
}
