import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { apiErrorText } from '../../api/client';
import { endpointNetworks, type CommunityEndpoint, type EndpointStatus } from '../../../../../shared/endpoints';
import { useReviewEndpoint } from './queries';

const STATUS_COLOR: Record<EndpointStatus, string> = { pending: 'yellow', enabled: 'teal', disabled: 'gray', rejected: 'red' };

const formatDate = (ms: number) => new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export function EndpointTable({ endpoints, review }: { endpoints: CommunityEndpoint[]; review?: boolean }) {
  const action = useReviewEndpoint();
  return (
    <Table.ScrollContainer minWidth={review ? 860 : 560}>
      <Table striped verticalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Endpoint</Table.Th>
            <Table.Th>Network</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Requests served</Table.Th>
            {review ? <Table.Th>Submitted by</Table.Th> : <Table.Th>Submitted</Table.Th>}
            {review && <Table.Th>Review</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {endpoints.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="sm" ff="monospace">
                  {e.url}
                </Text>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  pays {e.payment_address}
                </Text>
              </Table.Td>
              <Table.Td>{endpointNetworks[e.network]?.label ?? e.network}</Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOR[e.status]} variant="light">
                  {e.status}
                  {e.status === 'enabled' ? ` #${e.position}` : ''}
                </Badge>
              </Table.Td>
              <Table.Td>{e.requests_served.toLocaleString()}</Table.Td>
              <Table.Td>{review ? (e as CommunityEndpoint & { submitter_email: string }).submitter_email : formatDate(e.created_at)}</Table.Td>
              {review && (
                <Table.Td>
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
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
