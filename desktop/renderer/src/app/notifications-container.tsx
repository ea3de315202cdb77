// The toast styles travel with the container, which is loaded on the first toast (deferred-notifications.tsx).
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';

/** Loaded on demand by DeferredNotifications. */
export function NotificationsContainer() {
  return <Notifications />;
}
