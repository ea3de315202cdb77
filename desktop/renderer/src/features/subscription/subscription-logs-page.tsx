import { Anchor, Box, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { pagedItems } from '../../api/pages';
import { LoadMore } from '../../components/load-more';
import { formatEur } from '../../../../../shared/pricing';
import { logTypeLabels } from '../../../../../shared/billing';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { formatDateTime } from '../../lib/format';
import { billingQueries } from './queries';
import { SUBSCRIPTION } from './crumbs';
import { StatusBadge } from './status-badge';
import { BillingErrorFromLink } from './billing-error-from-link';

export function SubscriptionLogsPage() {
  const pages = useInfiniteQuery(billingQueries.logs());
  const logs = { error: pages.error, data: pages.data ? pagedItems(pages.data) : undefined };
  return (
    <PageLayout title="Subscription logs" breadcrumbs={[SUBSCRIPTION, { label: 'Subscription logs' }]} description="Every event of your subscription: checkouts, plan changes, renewals, payments, cancellations and boosts.">
      <BillingErrorFromLink />
      {logs.error ? (
        <ErrorView error={logs.error} withRefresh />
      ) : !logs.data ? (
        <PageLoader label="Loading logs…" />
      ) : logs.data.length === 0 ? (
        <Text c="dimmed">No subscription events yet.</Text>
      ) : (
        <>
          {/* Phones get one card per entry; wider screens the table. */}
          <Stack gap="sm" hiddenFrom="sm">
            {logs.data.map((l) => (
              <Paper key={l.id} withBorder p="sm" radius="md">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={2} miw={0}>
                    <Text fw={600} size="sm">
                      {logTypeLabels[l.type]}
                      {l.boost ? ` (${l.boost})` : ''}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(l.created_at)} · {l.plan}
                      {l.period ? ` / ${l.period}` : ''} · {l.amount === null ? '—' : formatEur(l.amount)}
                    </Text>
                  </Stack>
                  <StatusBadge status={l.status} />
                </Group>
                <Anchor href={`/api/logs/${l.id}/download`} size="sm" mt={6} display="inline-flex">
                  <IconDownload size={14} aria-hidden /> Download
                </Anchor>
              </Paper>
            ))}
          </Stack>
          <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={640}>
            <Table striped data-testid="subscription-logs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Plan</Table.Th>
                  <Table.Th>Amount</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <span className="visually-hidden">Download</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {logs.data.map((l) => (
                  <Table.Tr key={l.id}>
                    <Table.Td>{formatDateTime(l.created_at)}</Table.Td>
                    <Table.Td>
                      {logTypeLabels[l.type]}
                      {l.boost ? ` (${l.boost})` : ''}
                    </Table.Td>
                    <Table.Td>
                      {l.plan}
                      {l.period ? ` / ${l.period}` : ''}
                    </Table.Td>
                    <Table.Td>{l.amount === null ? '—' : formatEur(l.amount)}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={l.status} />
                    </Table.Td>
                    <Table.Td>
                      <Anchor href={`/api/logs/${l.id}/download`} size="sm" aria-label={`Download log entry ${l.id}`}>
                        <Group gap={4} wrap="nowrap">
                          <IconDownload size={14} aria-hidden /> Download
                        </Group>
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          </Box>
          <LoadMore hasMore={pages.hasNextPage} loading={pages.isFetchingNextPage} onLoad={() => void pages.fetchNextPage()} label="Load more log entries" />
        </>
      )}
    </PageLayout>
  );
}
