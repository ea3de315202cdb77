import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { formatAda, formatRequests } from '../../../../../shared/ppu';
import { pagedItems } from '../../api/pages';
import { ErrorView } from '../../components/error-view';
import { DataList } from '../../components/data-list';
import { PageLayout } from '../../components/page-layout';
import { formatDateTime } from '../../lib/format';
import { ppuQueries } from './queries';
import { SUBSCRIPTION } from '../subscription/index';
import { OrderStatusBadge } from './order-status-badge';

export function PayAsYouGoHistoryPage() {
  const pages = useInfiniteQuery(ppuQueries.history());
  const orders = { isPending: pages.isPending, error: pages.error, data: pages.data ? pagedItems(pages.data) : undefined };
  return (
    <PageLayout title="Pay as you go history" breadcrumbs={[SUBSCRIPTION, { label: 'Pay as you go history' }]}>
      <Stack gap="md">
        <Button component={Link} to="/dashboard/subscription/ppu/order" w="fit-content">
          New order
        </Button>
        {orders.error ? (
          <ErrorView error={orders.error} withRefresh />
        ) : (
          <DataList
            records={orders.data}
            label="Pay as you go orders"
            loadingLabel="Loading orders…"
            minWidth={720}
            empty={<Text c="dimmed">No orders yet.</Text>}
            paging={{ kind: 'cursor', hasMore: pages.hasNextPage, loading: pages.isFetchingNextPage, onLoad: () => void pages.fetchNextPage(), label: 'Load more orders' }}
            columns={[
              {
                accessor: 'id',
                title: 'Order',
                render: (o) => (
                  <Anchor component={Link} to={`/dashboard/subscription/ppu/order/${o.id}`}>
                    #{o.id}
                  </Anchor>
                ),
              },
              { accessor: 'createdAt', title: 'Date', render: (o) => formatDateTime(o.createdAt) },
              { accessor: 'workspaceName', title: 'Workspace' },
              { accessor: 'requests', title: 'Requests', render: (o) => formatRequests(o.requests) },
              { accessor: 'lovelace', title: 'Amount', render: (o) => formatAda(o.lovelace) },
              { accessor: 'status', title: 'Status', cellsStyle: () => ({ minWidth: 150 }), render: (o) => <OrderStatusBadge status={o.status} /> },
              {
                accessor: 'txHashes',
                title: 'Transaction',
                render: (o) => (
                  <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {o.txHashes[0] ?? '—'}
                  </Text>
                ),
              },
            ]}
          />
        )}
      </Stack>
    </PageLayout>
  );
}
