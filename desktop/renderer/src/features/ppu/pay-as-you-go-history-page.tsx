import { Anchor, Button, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { formatAda, formatRequests } from '../../../../../shared/ppu';
import { pagedItems } from '../../api/pages';
import { ErrorView } from '../../components/error-view';
import { LoadMore } from '../../components/load-more';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
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
        {orders.isPending && <PageLoader label="Loading orders…" />}
        {orders.error && <ErrorView error={orders.error} withRefresh />}
        {orders.data && orders.data.length === 0 && <Text c="dimmed">No orders yet.</Text>}
        {orders.data && orders.data.length > 0 && (
          <>
            <Table.ScrollContainer minWidth={720}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Order</Table.Th>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Workspace</Table.Th>
                    <Table.Th>Requests</Table.Th>
                    <Table.Th>Amount</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Transaction</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {orders.data.map((o) => (
                    <Table.Tr key={o.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/dashboard/subscription/ppu/order/${o.id}`}>
                          #{o.id}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{formatDateTime(o.createdAt)}</Table.Td>
                      <Table.Td>{o.workspaceName}</Table.Td>
                      <Table.Td>{formatRequests(o.requests)}</Table.Td>
                      <Table.Td>{formatAda(o.lovelace)}</Table.Td>
                      <Table.Td miw={150}>
                        <OrderStatusBadge status={o.status} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                          {o.txHashes[0] ?? '—'}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <LoadMore hasMore={pages.hasNextPage} loading={pages.isFetchingNextPage} onLoad={() => void pages.fetchNextPage()} label="Load more orders" />
          </>
        )}
      </Stack>
    </PageLayout>
  );
}
