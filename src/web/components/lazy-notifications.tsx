import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

const Container = lazy(() => import('./notifications-container').then((m) => ({ default: m.NotificationsContainer })));

/**
 * Mantine's notifications, whose container (with its transitions and scroll lock, about 9 KB gzip)
 * loads when the first notification is shown: most visits to a public page show none (issue 14).
 * A notification shown before then waits in the store and appears once the container is in.
 */
export function LazyNotifications() {
  const { notifications, queue } = useNotifications();
  const [isWanted, setWanted] = useState(false);
  if (!isWanted && notifications.length + queue.length > 0) setWanted(true);
  if (!isWanted) return null;
  return (
    <Suspense fallback={null}>
      <Container />
    </Suspense>
  );
}
