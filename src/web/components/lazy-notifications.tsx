import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { LoadErrorBoundary } from './load-error-boundary';

const loadContainer = () => import('./notifications-container').then((m) => ({ default: m.NotificationsContainer }));

/** After a failed load: tries again when the browser is back online. */
function RetryWhenOnline({ onRetry }: { onRetry: () => void }) {
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);
  return null;
}

/**
 * Mantine's notifications, whose container (with its transitions and scroll lock, about 9 KB gzip)
 * loads when the first notification is shown: most visits to a public page show none.
 * A notification shown before then waits in the store and appears once the container is in. If the
 * container's code cannot arrive (offline), the page goes on and it is fetched again once online.
 */
export function LazyNotifications() {
  const { notifications, queue } = useNotifications();
  const [isWanted, setWanted] = useState(false);
  // React keeps a lazy component's failed load for good: a retry needs a new one.
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new lazy component per attempt is the point
  const Container = useMemo(() => lazy(loadContainer), [attempt]);
  if (!isWanted && notifications.length + queue.length > 0) setWanted(true);
  if (!isWanted) return null;
  return (
    <LoadErrorBoundary key={attempt} fallback={() => <RetryWhenOnline onRetry={() => setAttempt((n) => n + 1)} />}>
      <Suspense fallback={null}>
        <Container />
      </Suspense>
    </LoadErrorBoundary>
  );
}
