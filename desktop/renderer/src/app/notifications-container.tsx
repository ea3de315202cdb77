import { Notifications } from '@mantine/notifications';

/** Loaded on demand by DeferredNotifications. */
export function NotificationsContainer() {
  return <Notifications />;
}
