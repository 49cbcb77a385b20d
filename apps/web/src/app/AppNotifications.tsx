import { Notifications } from '@mantine/notifications';
import notificationClasses from './notifications.module.css';

/**
 * The notices' container (its transitions, swipe and scroll-lock helpers) is a chunk of its own, mounted
 * right after the first render: notifications.show() before that is kept by the store and shown on mount.
 */
export default function AppNotifications() {
  // Below the 60 px top bar, so a notice never hides the status, billing or user menus.
  return <Notifications position="top-right" limit={4} classNames={notificationClasses} />;
}
