import { Button, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconKey } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { desktopBridge } from '../../lib/desktop';
import { keptKeyQueries, useKeepKey } from './queries';

/** On the project page in the desktop app: keep this project's key in the OS keychain for the API console. */
export function KeepKeyButton({ projectUuid }: { projectUuid: string }) {
  const inDesktop = desktopBridge() !== null;
  const kept = useQuery({ ...keptKeyQueries.list(), enabled: inDesktop });
  const keep = useKeepKey();
  if (!inDesktop) return null;
  const isKept = kept.data?.some((k) => k.projectUuid === projectUuid) ?? false;
  if (isKept) {
    return (
      <Button component={Link} to="/dashboard/api-console" variant="light" leftSection={<IconKey size={16} aria-hidden />}>
        In your keychain: open the API console
      </Button>
    );
  }
  return (
    <>
      <Button variant="default" leftSection={<IconKey size={16} aria-hidden />} loading={keep.isPending} onClick={() => keep.mutate(projectUuid)}>
        Keep key in keychain
      </Button>
      {keep.error && (
        <Text size="sm" c="red" role="alert">
          {keep.error.message}
        </Text>
      )}
    </>
  );
}
