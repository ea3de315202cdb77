import { Badge, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataList } from '../../components/data-list';
import { formatDateTime } from '../../lib/format';
import { txStateLabels, type TrackedTxDto, type TxState } from '../../../../../shared/txs';
import { projectQueries } from './queries';

const stateColors: Record<TxState, string> = {
  pending: 'gray',
  in_block: 'blue',
  confirmed: 'green',
  rolled_back: 'orange',
  expired: 'yellow',
  invalid: 'red',
};

/** The transactions the project submitted through the gateway lately, with where each one stands. */
export function SubmissionsCard({ projectUuid }: { projectUuid: string }) {
  const submissions = useQuery(projectQueries.submissions(projectUuid));
  const needed = submissions.data?.confirmations;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Submitted transactions
        </Title>
        <Text size="sm" c="dimmed">
          Transactions sent to /tx/submit with this project's key{needed ? `; confirmed at ${needed} block${needed === 1 ? '' : 's'}` : ''}. Each one's status: GET /cairn/v1/txs/{'{hash}'}/status.
        </Text>
        <DataList<TrackedTxDto>
          records={submissions.data?.txs}
          error={submissions.error}
          idAccessor="tx_hash"
          label="Submitted transactions"
          loadingLabel="Loading submitted transactions…"
          loaderMinHeight={120}
          minWidth={640}
          empty={<Text c="dimmed">No transaction submitted yet.</Text>}
          columns={[
            {
              accessor: 'tx_hash',
              title: 'Transaction',
              render: (t) => (
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {t.tx_hash}
                </Text>
              ),
            },
            {
              accessor: 'state',
              title: 'State',
              render: (t) => (
                <Badge color={stateColors[t.state]} variant="light" title={t.reason ?? undefined}>
                  {txStateLabels[t.state]}
                </Badge>
              ),
            },
            { accessor: 'block_height', title: 'Block', render: (t) => (t.block_height === null ? '—' : String(t.block_height)) },
            { accessor: 'depth', title: 'Confirmations', render: (t) => (t.block_height === null ? '—' : `${Math.min(t.depth, t.confirmations_needed)} / ${t.confirmations_needed}`) },
            { accessor: 'submitted_at', title: 'Submitted', render: (t) => formatDateTime(t.submitted_at) },
          ]}
        />
      </Stack>
    </Paper>
  );
}
