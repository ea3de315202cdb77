import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';

export const DASHBOARD_UNAVAILABLE = 'This part of the dashboard is not available yet.';

/** The honest body of a dashboard page whose feature this version does not have. */
export function FeatureUnavailable({ children = DASHBOARD_UNAVAILABLE }: { children?: string }) {
  return (
    <Alert variant="light" color="gray" icon={<IconInfoCircle aria-hidden />}>
      {children}
    </Alert>
  );
}
