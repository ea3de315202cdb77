import { useState } from 'react';
import { Alert, Badge, Button, Code, Group, Paper, Progress, SimpleGrid, Skeleton, Stack, Text, Title, type MantineTheme } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconCopy, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { IPFS_MAX_ADD_BYTES, ipfsMessages, mbText, storageIsDanger, type IpfsPin, type PinState } from '../../../../../shared/ipfs';
import { ErrorView } from '../../components/error-view';
import { DataList, type DataListColumn } from '../../components/data-list';
import { formatDateTime } from '../../lib/format';
import { statsQueries } from '../project-stats/index';
import { ipfsQueries, PINS_PER_PAGE } from './queries';
import classes from '../../components/code-snippet.module.css';

export interface IpfsPanelProps {
  workspaceId: number;
  projectUuid: string;
  projectKey: string;
}

const STATE_COLOURS: Record<PinState, string> = { queued: 'yellow', pinned: 'teal', unpinned: 'gray', failed: 'red', gc: 'gray' };

/** "12.35 MB of 100 MB", in the danger colour from 85 % of the limit (spec section 9). */
function StorageMeter({ label, used, limit }: { label: string; used: number; limit: number }) {
  const danger = storageIsDanger(used, limit);
  const percent = limit > 0 ? Math.min(100, (used / limit) * 100) : 0;
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm" c={danger ? 'red.8' : undefined} fw={danger ? 600 : undefined} data-testid={`storage-${label === 'Storage' ? 'ipfs' : 'filecoin'}`} data-danger={danger}>
          {mbText(used)} of {mbText(limit)}
        </Text>
      </Group>
      <Progress value={percent} color={danger ? 'red' : 'blue'} aria-label={`${label}: ${mbText(used)} of ${mbText(limit)} used`} />
    </Stack>
  );
}

// Phones keep CID, state and size; when and whether on Filecoin join from the `sm` breakpoint.
const fromSm = (theme: MantineTheme) => `(min-width: ${theme.breakpoints.sm})`;

const pinColumns: DataListColumn<IpfsPin>[] = [
  {
    accessor: 'ipfs_hash',
    title: 'CID',
    render: (p) => (
      <Text ff="monospace" size="xs" title={p.ipfs_hash}>
        {p.ipfs_hash.slice(0, 10)}…{p.ipfs_hash.slice(-6)}
      </Text>
    ),
  },
  {
    accessor: 'state',
    title: 'State',
    render: (p) => (
      <Badge variant="light" color={STATE_COLOURS[p.state]}>
        {p.state}
      </Badge>
    ),
  },
  { accessor: 'size', title: 'Size', textAlign: 'right', noWrap: true, customCellAttributes: () => ({ 'data-testid': 'pin-size' }), render: (p) => mbText(Number(p.size)) },
  { accessor: 'filecoin', title: 'Filecoin', visibleMediaQuery: fromSm, render: (p) => (p.filecoin ? 'Yes' : 'No') },
  { accessor: 'time_created', title: 'Created', visibleMediaQuery: fromSm, render: (p) => formatDateTime(p.time_created * 1000) },
];

function Snippet({ title, code }: { title: string; code: string }) {
  const clipboard = useClipboard({ timeout: 500 });
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" c="dimmed">
          {title}
        </Text>
        <Button
          size="xs"
          variant={clipboard.copied ? 'filled' : 'light'}
          color={clipboard.copied ? 'teal' : undefined}
          leftSection={clipboard.copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          onClick={() => clipboard.copy(code)}
          aria-label={clipboard.copied ? 'Copied' : `Copy: ${title}`}
          style={{ flexShrink: 0 }}
        >
          {clipboard.copied ? 'Copied' : 'Copy'}
        </Button>
      </Group>
      <Code block className={classes.code}>
        {code}
      </Code>
    </Stack>
  );
}

/** curl for add, pin (with and without Filecoin) and the gateway, with the project's key, this gateway and its add limit. */
function ipfsExamples(projectKey: string, gatewayUrl: string, maxAddBytes: number): Array<{ title: string; code: string }> {
  const base = `${gatewayUrl}/api/v0/ipfs`;
  const h = `-H "project_id: ${projectKey}"`;
  return [
    { title: `Add a file (at most ${mbText(maxAddBytes)}); the answer carries its ipfs_hash (CID).`, code: `curl -X POST ${h} \\\n  -F "file=@./photo.png" \\\n  ${base}/add` },
    { title: 'Pin it, so it is kept and counted against your storage (add ?filecoin=true for Filecoin).', code: `curl -X POST ${h} \\\n  ${base}/pin/add/<ipfs_hash>` },
    { title: 'Read it back through the gateway (Range requests work too).', code: `curl ${h} \\\n  ${base}/gateway/<ipfs_hash>` },
  ];
}

/** An IPFS project's storage against its plan, its pins, and how to call the IPFS API. */
export function IpfsPanel({ workspaceId, projectUuid, projectKey }: IpfsPanelProps) {
  const [page, setPage] = useState(1);
  const q = useQuery(ipfsQueries.project(workspaceId, projectUuid, page));
  const gateway = useQuery(statsQueries.gatewayUrl());
  if (q.isError) return <ErrorView error={q.error} withRefresh />;
  const d = q.data;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={3} size="h4">
              IPFS storage
            </Title>
            {d ? (
              <>
                <StorageMeter label="Storage" used={d.storage.used} limit={d.storage.limit} />
                <StorageMeter label="Filecoin storage" used={d.storage.filecoinUsed} limit={d.storage.filecoinLimit} />
                <Text size="xs" c="dimmed">
                  Pinned bytes of every project on this subscription, and adds not yet pinned until they are collected, each object counted once. MB = bytes ÷ 1,000,000, KB = bytes ÷ 1,000.
                </Text>
                {d.store === 'embedded' && (
                  <Alert variant="light" color="blue" icon={<IconInfoCircle size={16} aria-hidden />} p="xs">
                    <Text size="sm">{ipfsMessages.embeddedStore}</Text>
                  </Alert>
                )}
                {d.filecoinProvider ? (
                  <Text size="sm">Filecoin storage deals are made through the pinning service at {d.filecoinProvider}.</Text>
                ) : (
                  <Alert variant="light" color="yellow" icon={<IconInfoCircle size={16} aria-hidden />} p="xs" data-testid="no-filecoin-deal">
                    <Text size="sm">{ipfsMessages.noFilecoinDeal}</Text>
                  </Alert>
                )}
              </>
            ) : (
              <Skeleton h={120} aria-label="Loading storage…" />
            )}
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Stack gap="md">
            <Title order={3} size="h4">
              IPFS API examples
            </Title>
            {ipfsExamples(projectKey, gateway.data ?? '', d?.maxAddBytes ?? IPFS_MAX_ADD_BYTES).map((e) => (
              <Snippet key={e.title} {...e} />
            ))}
          </Stack>
        </Paper>
      </SimpleGrid>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3} size="h4">
              Pins
            </Title>
            {d && (
              <Text size="sm" c="dimmed">
                {d.totalPins} in total
              </Text>
            )}
          </Group>
          <DataList
            records={d?.pins}
            columns={pinColumns}
            idAccessor="ipfs_hash"
            label="Pins of this project"
            loadingLabel="Loading pins…"
            loaderMinHeight={80}
            empty={
              <Text size="sm" c="dimmed">
                No pins yet. Add a file, then pin its CID: only pinned objects are kept and counted.
              </Text>
            }
            paging={{ kind: 'pages', page, totalPages: d ? Math.ceil(d.totalPins / PINS_PER_PAGE) : 1, onChange: setPage, label: 'Pins pages' }}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
