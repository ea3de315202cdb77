import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { pagedItems } from '../../api/pages';
import { DataList } from '../../components/data-list';
import { formatEur } from '../../../../../shared/pricing';
import { logTypeLabels } from '../../../../../shared/billing';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
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
      ) : (
        <DataList
          records={logs.data}
          label="Subscription logs"
          loadingLabel="Loading logs…"
          testId="subscription-logs"
          minWidth={640}
          empty={<Text c="dimmed">No subscription events yet.</Text>}
          paging={{ kind: 'cursor', hasMore: pages.hasNextPage, loading: pages.isFetchingNextPage, onLoad: () => void pages.fetchNextPage(), label: 'Load more log entries' }}
          columns={[
            { accessor: 'created_at', title: 'Date', render: (l) => formatDateTime(l.created_at) },
            { accessor: 'type', title: 'Event', render: (l) => `${logTypeLabels[l.type]}${l.boost ? ` (${l.boost})` : ''}` },
            { accessor: 'plan', title: 'Plan', render: (l) => `${l.plan}${l.period ? ` / ${l.period}` : ''}` },
            { accessor: 'amount', title: 'Amount', render: (l) => (l.amount === null ? '—' : formatEur(l.amount)) },
            { accessor: 'status', title: 'Status', render: (l) => <StatusBadge status={l.status} /> },
            {
              accessor: 'download',
              title: <span className="visually-hidden">Download</span>,
              render: (l) => (
                <Anchor href={`/api/logs/${l.id}/download`} size="sm" aria-label={`Download log entry ${l.id}`}>
                  <Group gap={4} wrap="nowrap">
                    <IconDownload size={14} aria-hidden /> Download
                  </Group>
                </Anchor>
              ),
            },
          ]}
          card={(l) => (
            /* Phones get one card per entry; wider screens the table. */
            <Paper withBorder p="sm" radius="md">
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
          )}
        />
      )}
    </PageLayout>
  );
}
