import { Badge, Box, Group, Paper, Stack, Text, Title } from '@mantine/core';
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

function StateBadge({ tx }: { tx: TrackedTxDto }) {
  return (
    // The whole label always: a state cut to 'ROLLED BA…' says nothing.
    <Badge color={stateColors[tx.state]} variant="light" title={tx.reason ?? undefined} style={{ flexShrink: 0, overflow: 'visible' }} styles={{ label: { overflow: 'visible' } }}>
      {txStateLabels[tx.state]}
    </Badge>
  );
}

/** Confirmations so far of the needed ones, once the transaction is in a block. */
const confirmations = (t: TrackedTxDto) => (t.block_height === null ? '—' : `${Math.min(t.depth, t.confirmations_needed)} / ${t.confirmations_needed}`);

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
              width: 130,
              render: (t) => <StateBadge tx={t} />,
            },
            { accessor: 'block_height', title: 'Block', render: (t) => (t.block_height === null ? '—' : String(t.block_height)) },
            { accessor: 'depth', title: 'Confirmations', render: confirmations },
            { accessor: 'submitted_at', title: 'Submitted', render: (t) => formatDateTime(t.submitted_at) },
          ]}
          // On a phone each transaction is two lines: its state and hash, then its block, confirmations and time.
          card={(t, i) => (
            <Box py={8} style={{ borderTop: i > 0 ? '1px solid var(--mantine-color-gray-3)' : undefined }}>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <StateBadge tx={t} />
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                  {t.tx_hash}
                </Text>
              </Group>
              <Text size="xs" c="dimmed" mt={2}>
                {t.block_height === null ? '' : `Block ${t.block_height} · ${confirmations(t)} confirmations · `}
                {formatDateTime(t.submitted_at)}
              </Text>
            </Box>
          )}
          cardGap={0}
        />
      </Stack>
    </Paper>
  );
}
