import { useEffect, useRef } from 'react';
import { UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { messages } from '../../../../../shared/messages';
import { DEPLOY_POLL_MS, UNKNOWN_VERSION } from '../../../../../shared/site';
import { BUILD_ID } from './build-id';
import { deployQueries } from './queries';

const NEW_VERSION_TOAST_ID = 'new-version';

/** A new build differs from this page's; an unreadable version (or a failed check) says nothing. */
const isNewVersion = (serverVersion: string | undefined, ownVersion: string = BUILD_ID): boolean =>
  !!serverVersion && serverVersion !== UNKNOWN_VERSION && serverVersion !== ownVersion;

/**
 * Polls GET /api/has-new-deploy every 30 s. When the server has a newer build than this page, a toast that
 * stays until clicked offers the reload; polling then stops.
 */
export function DeployChecker() {
  const shown = useRef(false);
  const version = useQuery({
    ...deployQueries.version(),
    refetchInterval: (query) => (isNewVersion(query.state.data?.version) ? false : DEPLOY_POLL_MS),
  });
  const serverVersion = version.data?.version;

  useEffect(() => {
    if (shown.current || !isNewVersion(serverVersion)) return;
    shown.current = true;
    notifications.show({
      id: NEW_VERSION_TOAST_ID,
      color: 'indigo',
      autoClose: false,
      withCloseButton: false,
      message: (
        <UnstyledButton onClick={() => window.location.reload()} fw={600} fz="sm" style={{ textAlign: 'left' }}>
          {messages.deploy.newVersion}
        </UnstyledButton>
      ),
    });
  }, [serverVersion]);

  return null;
}
