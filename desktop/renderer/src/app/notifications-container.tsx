// The toast styles travel with the container, which is loaded on the first toast (deferred-notifications.tsx).
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';

/**
 * Loaded on demand by DeferredNotifications. On a phone a toast spans the width, so at the bottom it
 * would cover what the page opened on (a new project's key and its Copy button); it comes in at the
 * top, over the header, instead.
 */
export function NotificationsContainer() {
  const narrow = useMediaQuery('(max-width: 48em)');
  return <Notifications position={narrow ? 'top-center' : 'bottom-right'} />;
}
