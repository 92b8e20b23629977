import { useEffect, useRef } from 'react';

/**
 * Calls `resync` the moment the page may have missed events: it becomes visible again (a phone
 * woke, a tab came back), the network came back, or the browser restored it from its back-forward
 * cache. The socket's own reconnection resyncs too; this does not wait for it.
 */
export function useResyncOnWake(resync: () => void): void {
  const ref = useRef(resync);
  ref.current = resync;
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'visible') ref.current();
    };
    const onOnline = () => ref.current();
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) ref.current();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('online', onOnline);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('online', onOnline);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, []);
}
