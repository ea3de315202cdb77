import { Box, Notification, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { messages } from '../../../../../shared/messages';
import { DEPLOY_POLL_MS, UNKNOWN_VERSION } from '../../../../../shared/site';
import { BUILD_ID } from './build-id';
import { deployQueries } from './queries';

/** A new build differs from this page's; an unreadable version (or a failed check) says nothing. */
const isNewVersion = (serverVersion: string | undefined, ownVersion: string = BUILD_ID): boolean =>
  !!serverVersion && serverVersion !== UNKNOWN_VERSION && serverVersion !== ownVersion;

/**
 * Polls GET /api/has-new-deploy every 30 s. When the server has a newer build than this page, a toast that
 * stays until clicked offers the reload; polling then stops. The toast is drawn here rather than through the
 * notifications container, which is loaded on the first toast: after a deploy the old build's chunks are
 * gone, so a container not loaded yet never arrives, and neither would this toast.
 */
export function DeployChecker() {
  const version = useQuery({
    ...deployQueries.version(),
    refetchInterval: (query) => (isNewVersion(query.state.data?.version) ? false : DEPLOY_POLL_MS),
  });
  if (!isNewVersion(version.data?.version)) return null;
  return (
    <Box pos="fixed" bottom={16} right={16} left={{ base: 16, xs: 'auto' }} maw={{ xs: 440 }} style={{ zIndex: 400 }}>
      <Notification color="indigo" withCloseButton={false} withBorder role="status">
        <UnstyledButton onClick={() => window.location.reload()} fw={600} fz="sm" style={{ textAlign: 'left' }}>
          {messages.deploy.newVersion}
        </UnstyledButton>
      </Notification>
    </Box>
  );
}
