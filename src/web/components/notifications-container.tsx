import { Notifications } from '@mantine/notifications';

/** Mantine's notifications container, on its own so that it loads on demand (lazy-notifications.tsx). */
export function NotificationsContainer() {
  return <Notifications position="top-right" />;
}
