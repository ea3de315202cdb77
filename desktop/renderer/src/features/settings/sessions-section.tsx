import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDeviceDesktop, IconLogout, IconWorld } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { AccountSessionDto } from '../../../../../shared/account';
import { pagedItems } from '../../api/pages';
import { DataList } from '../../components/data-list';
import { formatDateTime } from '../../lib/format';
import { failed, succeeded } from '../../components/feedback';
import { accountSecurityQueries, useEndSession, useSignOutOthers } from './queries';

/** Where the user is signed in: browsers and the desktop app, each with a way to sign it out. */
export function SessionsSection() {
  const sessions = useInfiniteQuery(accountSecurityQueries.sessions());
  const list = pagedItems(sessions.data);
  const end = useEndSession();
  const others = useSignOutOthers();
  const hasOthers = list.some((s) => !s.current) || sessions.hasNextPage;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sessions-title">
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Title order={2} size="h3" id="sessions-title">
            Where you are signed in
          </Title>
          <Button
            variant="default"
            leftSection={<IconLogout size={16} aria-hidden />}
            disabled={!hasOthers}
            loading={others.isPending}
            onClick={() =>
              others.mutate(undefined, {
                onSuccess: (r) => succeeded('Signed out', r.message),
                onError: (err) => failed('Not signed out', err, 'The other sessions could not be signed out.'),
              })
            }
          >
            Sign out everywhere else
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Browsers and desktop apps signed in to your account. Sign out any you do not recognise.
        </Text>
        <DataList<AccountSessionDto>
          records={sessions.data ? list : undefined}
          error={sessions.error}
          label="Sessions"
          loadingLabel="Loading your sessions…"
          loaderMinHeight={80}
          cardGap={0}
          empty={null}
          card={(s) => (
            <SessionRow
              session={s}
              ending={end.isPending && end.variables === s.id}
              onEnd={() =>
                end.mutate(s.id, {
                  onSuccess: () => succeeded('Signed out', `${s.device} has been signed out.`),
                  onError: (err) => failed('Not signed out', err, 'The session could not be signed out.'),
                })
              }
            />
          )}
          paging={{ kind: 'cursor', hasMore: sessions.hasNextPage, loading: sessions.isFetchingNextPage, onLoad: () => void sessions.fetchNextPage(), label: 'Load more sessions' }}
        />
      </Stack>
    </Paper>
  );
}

function SessionRow({ session: s, ending, onEnd }: { session: AccountSessionDto; ending: boolean; onEnd: () => void }) {
  const Icon = s.desktop ? IconDeviceDesktop : IconWorld;
  return (
    <Paper withBorder p="sm" radius={0} style={{ marginTop: -1 }} data-session={s.device} data-current={s.current || undefined}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="sm" wrap="nowrap" align="flex-start" miw={0} style={{ flex: '1 1 240px' }}>
          <Icon size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <Stack gap={2} miw={0}>
            <Group gap="xs">
              <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                {s.device}
              </Text>
              {s.current && (
                <Badge color="green" variant="light">
                  This device
                </Badge>
              )}
            </Group>
            {s.device_name && (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {s.device_name}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              {s.ip ? `IP ${s.ip}` : 'IP not known yet'}
              {' · '}
              {s.signed_in_at ? `Signed in ${formatDateTime(s.signed_in_at)}` : 'Sign-in time not recorded'}
              {s.last_seen_at ? ` · Last seen ${formatDateTime(s.last_seen_at)}` : ''}
            </Text>
          </Stack>
        </Group>
        {!s.current && (
          <Button variant="subtle" color="red" size="sm" loading={ending} onClick={onEnd} aria-label={`Sign out ${s.device}`}>
            Sign out
          </Button>
        )}
      </Group>
    </Paper>
  );
}
