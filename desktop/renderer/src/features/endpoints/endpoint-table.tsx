import { Badge, Button, Group, Text } from '@mantine/core';
import { DataList, type DataListColumn } from '../../components/data-list';
import { notifications } from '@mantine/notifications';
import { apiErrorText } from '../../api/client';
import { endpointNetworks, type CommunityEndpoint, type EndpointStatus } from '../../../../../shared/endpoints';
import { useReviewEndpoint } from './queries';

const STATUS_COLOR: Record<EndpointStatus, string> = { pending: 'yellow', enabled: 'teal', disabled: 'gray', rejected: 'red' };

const formatDate = (ms: number) => new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

type ReviewedEndpoint = CommunityEndpoint & { submitter_email?: string };

/** The endpoints' list; the pages around it say what an empty one means before it is drawn. */
export function EndpointTable({ endpoints, review }: { endpoints: CommunityEndpoint[]; review?: boolean }) {
  const action = useReviewEndpoint();
  const columns: DataListColumn<ReviewedEndpoint>[] = [
    {
      accessor: 'url',
      title: 'Endpoint',
      cellsStyle: () => ({ overflowWrap: 'anywhere' }),
      render: (e) => (
        <>
          <Text size="sm" ff="monospace">
            {e.url}
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            pays {e.payment_address}
          </Text>
        </>
      ),
    },
    { accessor: 'network', title: 'Network', render: (e) => endpointNetworks[e.network]?.label ?? e.network },
    {
      accessor: 'status',
      title: 'Status',
      render: (e) => (
        <Badge color={STATUS_COLOR[e.status]} variant="light">
          {e.status}
          {e.status === 'enabled' ? ` #${e.position}` : ''}
        </Badge>
      ),
    },
    { accessor: 'requests_served', title: 'Requests served', render: (e) => e.requests_served.toLocaleString() },
    review
      ? { accessor: 'submitter_email', title: 'Submitted by' }
      : { accessor: 'created_at', title: 'Submitted', render: (e) => formatDate(e.created_at) },
  ];
  if (review) {
    columns.push({
      accessor: 'review',
      title: 'Review',
      render: (e) => (
        <Group gap={4} wrap="nowrap">
          {(['enable', 'disable', 'reject'] as const)
            .filter((a) => (a === 'enable' ? e.status !== 'enabled' : a === 'disable' ? e.status === 'enabled' : e.status === 'pending'))
            .map((a) => (
              <Button
                key={a}
                size="compact-xs"
                variant={a === 'enable' ? 'filled' : 'default'}
                color={a === 'reject' ? 'red' : undefined}
                aria-label={`${a[0]!.toUpperCase()}${a.slice(1)} ${e.url}`}
                loading={action.isPending && action.variables?.id === e.id && action.variables.action === a}
                onClick={() =>
                  action.mutate(
                    { id: e.id, action: a },
                    { onError: (error) => notifications.show({ color: 'red', title: 'Review not saved', message: apiErrorText(error) ?? 'The endpoint could not be updated.' }) },
                  )
                }
              >
                {a[0]!.toUpperCase() + a.slice(1)}
              </Button>
            ))}
        </Group>
      ),
    });
  }
  return (
    <DataList<ReviewedEndpoint>
      records={endpoints}
      columns={columns}
      label={review ? 'Submitted endpoints' : 'Your endpoints'}
      loadingLabel="Loading endpoints…"
      empty={null}
      minWidth={review ? 860 : 560}
    />
  );
}
