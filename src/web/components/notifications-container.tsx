import { Notifications } from '@mantine/notifications';
import classes from './notifications-container.module.css';

/**
 * Mantine's notifications container, on its own so that it loads on demand (lazy-notifications.tsx),
 * in the band a screen keeps for toasts, if it keeps one (notifications-place.ts).
 */
export function NotificationsContainer() {
  return <Notifications position="top-right" classNames={{ root: classes.root }} />;
}
