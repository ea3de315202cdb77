import { Alert, Card, ColorSwatch, Divider, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { backendLabels, statusLabels, type ComponentState } from '../../../../../shared/status';
import { ErrorView } from '../../components/error-view';
import { statusQueries } from './queries';

const colours: Record<ComponentState, string> = { operational: 'teal', down: 'red', not_available: 'gray' };

function StateLabel({ state }: { state: ComponentState }) {
  return (
    <Group gap={6} wrap="nowrap">
      <ColorSwatch color={`var(--mantine-color-${colours[state]}-6)`} size={10} withShadow={false} aria-hidden />
      <Text size="sm" fw={500} c={state === 'down' ? 'red.8' : undefined}>
        {statusLabels[state]}
      </Text>
    </Group>
  );
}

/** "12 s ago", "4 min ago", "2 h ago". */
function formatAge(seconds: number): string {
  if (seconds < 90) return `${seconds} s ago`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

/** The public status page: each part of this server and each network's backend, refreshed live. */
export function StatusPage() {
  const { data, error, isPending, dataUpdatedAt } = useQuery(statusQueries.report());
  if (error && !data) return <ErrorView error={error} />;
  return (
    <Stack gap="lg" py="md">
      <div>
        <Title order={1} size="h2">
          Status
        </Title>
        <Text c="dimmed" size="sm">
          Refreshed every 10 seconds{dataUpdatedAt ? `; last checked ${new Date(dataUpdatedAt).toLocaleTimeString()}` : ''}.
        </Text>
      </div>
      {isPending ? (
        <Skeleton h={220} radius="md" />
      ) : (
        data && (
          <>
            <Alert color={data.overall === 'operational' ? 'teal' : 'orange'} variant="light" title={data.overall === 'operational' ? 'All systems operational' : 'Some parts are not answering'}>
              {data.overall === 'operational' ? 'Every part of this server answers.' : 'The parts marked below are not answering right now.'}
            </Alert>
            <Card withBorder radius="md" padding="md">
              <Title order={2} size="h4" mb="sm">
                Services
              </Title>
              <Stack gap="xs">
                {data.services.map((s) => (
                  <Group key={s.name} justify="space-between" wrap="nowrap" data-testid={`service-${s.name}`}>
                    <div>
                      <Text fw={500}>{s.name}</Text>
                      {s.since !== undefined && (
                        <Text size="sm" c="dimmed">
                          since {new Date(s.since).toLocaleString()}
                        </Text>
                      )}
                    </div>
                    <StateLabel state={s.state} />
                  </Group>
                ))}
              </Stack>
            </Card>
            <Card withBorder radius="md" padding="md">
              <Title order={2} size="h4" mb="sm">
                Networks
              </Title>
              <Stack gap={0}>
                {data.networks.map((n, i) => (
                  <div key={n.slug} data-testid={`network-${n.slug}`}>
                    {i > 0 && <Divider my="xs" />}
                    <Group justify="space-between" align="flex-start" gap="xs">
                      <div>
                        <Text fw={500}>{n.label}</Text>
                        <Text size="sm" c="dimmed">
                          {backendLabels[n.backend]}
                        </Text>
                      </div>
                      <Stack gap={2} align="flex-start">
                        <StateLabel state={n.state} />
                        {n.latestBlockAgeSeconds !== null && (
                          <Text size="xs" c="dimmed">
                            Latest block {formatAge(n.latestBlockAgeSeconds)}
                          </Text>
                        )}
                      </Stack>
                    </Group>
                  </div>
                ))}
              </Stack>
            </Card>
          </>
        )
      )}
    </Stack>
  );
}
