import { type ReactNode, useEffect } from 'react';
import { BrowserRouter, useLocation } from 'react-router';
import { pathChanged } from '../lib/pathname';

/** Reports the router's path changes to the shell (lib/pathname.ts), which picks the screen by path. */
function PathReporter() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs for each path the router moves to, which is its point
  useEffect(() => {
    pathChanged();
  }, [pathname]);
  return null;
}

/** React Router for the admin panel and the Live Hub, loaded with them (panel-screen.tsx). */
export function PanelRouter({ children }: { children: ReactNode }) {
  return (
    <BrowserRouter>
      <PathReporter />
      {children}
    </BrowserRouter>
  );
}
