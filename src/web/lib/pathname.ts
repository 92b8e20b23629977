import { useSyncExternalStore } from 'react';

/**
 * The address bar's path, for the shell's choice of screen, without React Router: the router ships
 * with the admin panel and the Live Hub only, never with a buyer's public page. The
 * path changes by Back and Forward (popstate), by `replaceUrl`, and inside the panel and the Live
 * Hub by their router, which reports each change (`pathChanged`, components/panel-screen.tsx).
 */
const PATH_CHANGED = 'martillo:pathchange';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(PATH_CHANGED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(PATH_CHANGED, onChange);
  };
}

const currentPath = () => window.location.pathname;

export function usePathname(): string {
  return useSyncExternalStore(subscribe, currentPath, currentPath);
}

/** Tells `usePathname` that the path may have changed (a router's pushState fires no event). */
export function pathChanged(): void {
  window.dispatchEvent(new Event(PATH_CHANGED));
}

/** Replaces the current history entry's URL (path, query or both), keeping its state. */
export function replaceUrl(url: string): void {
  window.history.replaceState(window.history.state, '', url);
  pathChanged();
}
