import { useId } from 'react';
import { Button, Code, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconBrandJavascript, IconCheck, IconCopy, IconTerminal2 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { findNetwork } from '../../../../../shared/networks';
import classes from './api-examples.module.css';
import { gatewayUrlOf, statsQueries } from './queries';

export interface ApiExamplesProps {
  /** The project's key (project_id), network prefix included. */
  projectKey: string;
  networkId: number;
}

interface Example {
  value: 'curl' | 'javascript';
  tab: string;
  /** What the snippet does, shown above it. */
  description: string;
  code: string;
}

type Flavour = 'cardano' | 'ipfs' | 'milkomeda';

const flavourOf = (networkId: number, key: string): Flavour => {
  const prefix = findNetwork(networkId)?.prefix ?? '';
  if (prefix === 'ipfs' || key.startsWith('ipfs')) return 'ipfs';
  if (prefix.startsWith('milk') || key.startsWith('milk')) return 'milkomeda';
  return 'cardano';
};

/** The snippets, with the project's real key and this deployment's gateway; the key's prefix selects the network. */
function apiExamples(projectKey: string, networkId: number, gatewayUrl: string): Example[] {
  const base = `${gatewayUrl}/api/v0`;
  switch (flavourOf(networkId, projectKey)) {
    case 'ipfs':
      return [
        {
          value: 'curl',
          tab: 'cURL',
          description: 'List the objects pinned by this project.',
          code: `curl -H "project_id: ${projectKey}" \\\n  ${base}/ipfs/pin/list`,
        },
        {
          value: 'javascript',
          tab: 'JavaScript SDK',
          description: 'The same call with the Blockfrost JavaScript SDK pointed at this gateway.',
          code: [
            '// npm install @blockfrost/blockfrost-js',
            "import { BlockFrostIPFS } from '@blockfrost/blockfrost-js';",
            '',
            'const ipfs = new BlockFrostIPFS({',
            `  projectId: '${projectKey}',`,
            `  customBackend: '${base}',`,
            '});',
            '',
            'const pinned = await ipfs.list();',
            'console.log(pinned);',
          ].join('\n'),
        },
      ];
    case 'milkomeda':
      return [
        {
          value: 'curl',
          tab: 'cURL',
          description: 'Ask the Milkomeda RPC for the latest block number (JSON-RPC).',
          code:
            `curl -X POST -H "project_id: ${projectKey}" -H "Content-Type: application/json" \\\n` +
            `  -d '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' \\\n` +
            `  ${base}/`,
        },
        {
          value: 'javascript',
          tab: 'JavaScript',
          description: 'The same JSON-RPC call with fetch.',
          code: [
            `const res = await fetch('${base}/', {`,
            "  method: 'POST',",
            `  headers: { project_id: '${projectKey}', 'Content-Type': 'application/json' },`,
            "  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),",
            '});',
            'console.log(await res.json());',
          ].join('\n'),
        },
      ];
    default:
      return [
        {
          value: 'curl',
          tab: 'cURL',
          description: 'Fetch the latest block.',
          code: `curl -H "project_id: ${projectKey}" \\\n  ${base}/blocks/latest`,
        },
        {
          value: 'javascript',
          tab: 'JavaScript SDK',
          description: 'The same call with the Blockfrost JavaScript SDK pointed at this gateway.',
          code: [
            '// npm install @blockfrost/blockfrost-js',
            "import { BlockFrostAPI } from '@blockfrost/blockfrost-js';",
            '',
            'const api = new BlockFrostAPI({',
            `  projectId: '${projectKey}',`,
            `  customBackend: '${base}',`,
            '});',
            '',
            'const latestBlock = await api.blocksLatest();',
            'console.log(latestBlock);',
          ].join('\n'),
        },
      ];
  }
}

/** curl and JavaScript snippets calling this gateway with the project's key, each with a copy button. */
export function ApiExamples({ projectKey, networkId }: ApiExamplesProps) {
  const titleId = useId();
  // Until /api/site answers (or if it fails), the gateway is assumed on port 3001 of this host.
  const gateway = useQuery(statsQueries.gatewayUrl());
  const examples = apiExamples(projectKey, networkId, gateway.data ?? gatewayUrlOf(undefined));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId} style={{ minWidth: 0 }}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={titleId}>
          API examples
        </Title>
        <Tabs defaultValue="curl" keepMounted={false}>
          <Tabs.List aria-label="Example language">
            {examples.map((ex) => (
              <Tabs.Tab
                key={ex.value}
                value={ex.value}
                leftSection={ex.value === 'curl' ? <IconTerminal2 size={16} aria-hidden /> : <IconBrandJavascript size={16} aria-hidden />}
              >
                {ex.tab}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {examples.map((ex) => (
            <Tabs.Panel key={ex.value} value={ex.value} pt="sm">
              <Snippet example={ex} />
            </Tabs.Panel>
          ))}
        </Tabs>
      </Stack>
    </Paper>
  );
}

function Snippet({ example }: { example: Example }) {
  const clipboard = useClipboard({ timeout: 500 });
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs" wrap="nowrap" align="center">
        <Text size="sm" c="dimmed">
          {example.description}
        </Text>
        <Button
          size="xs"
          variant={clipboard.copied ? 'filled' : 'light'}
          color={clipboard.copied ? 'teal' : undefined}
          leftSection={clipboard.copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          onClick={() => clipboard.copy(example.code)}
          aria-label={clipboard.copied ? 'Copied' : `Copy the ${example.tab} example`}
          style={{ flexShrink: 0 }}
        >
          {clipboard.copied ? 'Copied' : 'Copy'}
        </Button>
      </Group>
      <Code block data-testid={`api-example-${example.value}`} className={classes.code}>
        {example.code}
      </Code>
      <Text size="sm" role="status" aria-live="polite" c={clipboard.error ? 'red.8' : undefined}>
        {clipboard.error ? 'The browser did not allow copying. Select the example and copy it by hand.' : ''}
      </Text>
    </Stack>
  );
}
