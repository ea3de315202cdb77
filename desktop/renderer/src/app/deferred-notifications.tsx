import { Component, lazy, Suspense, useState, useSyncExternalStore, type ReactNode } from 'react';
import { notificationsStore } from '@mantine/notifications';

// The toast container (with its transitions and scroll-lock helpers) is only downloaded once the
// first toast is shown, which keeps it out of the landing page's entry bundle. Toasts shown before
// it arrives wait in the store and appear as soon as it mounts.
const NotificationsContainer = lazy(() =>
  import('./notifications-container').then((m) => ({ default: m.NotificationsContainer })),
);

const hasToasts = () => {
  const { notifications, queue } = notificationsStore.getState();
  return notifications.length > 0 || queue.length > 0;
};

// If the container cannot be downloaded (offline, or a new deploy removed the old chunk), toasts are
// lost but the page keeps working.
class IgnoreErrors extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

export function DeferredNotifications() {
  const wanted = useSyncExternalStore(notificationsStore.subscribe, hasToasts, () => false);
  const [mounted, setMounted] = useState(false);
  // Once mounted, stay mounted so later toasts animate in and out normally.
  if (wanted && !mounted) setMounted(true);
  if (!mounted) return null;
  return (
    <IgnoreErrors>
      <Suspense fallback={null}>
        <NotificationsContainer />
      </Suspense>
    </IgnoreErrors>
  );
}
