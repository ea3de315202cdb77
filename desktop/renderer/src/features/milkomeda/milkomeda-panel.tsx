import { useEffect, useId, useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, List, Paper, Stack, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconFlask, IconWallet } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { messages } from '../../../../../shared/messages';
import { MILKOMEDA_MAINNET } from '../../../../../shared/milkomeda';
import { gatewayUrlOf, statsQueries } from '../project-stats/index';
import classes from '../../components/code-snippet.module.css';
import { evmExamples, rpcUrlWithKey } from './examples';
import { addMilkomedaToWallet, injectedProvider, type Eip1193Provider } from './metamask';
import { milkomedaQueries } from './queries';

export interface MilkomedaPanelProps {
  projectKey: string;
  /** Served by the embedded EVM development chain ('Sandbox data'). */
  sandbox: boolean;
}

/** The Milkomeda project's RPC URL, curl/ethers/viem examples and the 'Add to MetaMask' button. */
export function MilkomedaPanel({ projectKey, sandbox }: MilkomedaPanelProps) {
  const titleId = useId();
  const gateway = useQuery(statsQueries.gatewayUrl());
  const gatewayUrl = gateway.data ?? gatewayUrlOf(undefined);
  const rpcUrl = rpcUrlWithKey(gatewayUrl, projectKey);
  const examples = evmExamples(gatewayUrl, projectKey);
  const provider = useInjectedProvider();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId} style={{ minWidth: 0 }}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id={titleId}>
            {MILKOMEDA_MAINNET.chainName} RPC
          </Title>
          <AddToMetaMask provider={provider} gatewayUrl={gatewayUrl} projectKey={projectKey} />
        </Group>
        {!provider && <NoWalletNote />}
        <Text size="sm" c="dimmed">
          JSON-RPC 2.0, chain id {MILKOMEDA_MAINNET.chainIdNumber} ({MILKOMEDA_MAINNET.chainId}). Send the key in the project_id header, or use this URL, which carries it as its first path segment (for wallets and libraries that take only a URL):
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Code block className={classes.code} data-testid="milkomeda-rpc-url" style={{ flex: 1, minWidth: 0 }}>
            {rpcUrl}
          </Code>
          <CopyButton value={rpcUrl} timeout={500}>
            {({ copied, copy }) => (
              <Button size="xs" variant={copied ? 'filled' : 'light'} color={copied ? 'teal' : undefined} onClick={copy} aria-label={copied ? 'Copied' : 'Copy the RPC URL'} leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />} style={{ flexShrink: 0 }}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Tabs defaultValue="curl" keepMounted={false}>
          <Tabs.List aria-label="Example client">
            {examples.map((ex) => (
              <Tabs.Tab key={ex.value} value={ex.value}>
                {ex.tab}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {examples.map((ex) => (
            <Tabs.Panel key={ex.value} value={ex.value} pt="sm">
              <Stack gap="xs">
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text size="sm" c="dimmed">
                    {ex.description}
                  </Text>
                  <CopyButton value={ex.code} timeout={500}>
                    {({ copied, copy }) => (
                      <Button size="xs" variant={copied ? 'filled' : 'light'} color={copied ? 'teal' : undefined} onClick={copy} aria-label={copied ? 'Copied' : `Copy the ${ex.tab} example`} style={{ flexShrink: 0 }}>
                        {copied ? 'Copied' : 'Copy'}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
                <Code block className={classes.code} data-testid={`evm-example-${ex.value}`}>
                  {ex.code}
                </Code>
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
        {sandbox && <DevChainNotice />}
      </Stack>
    </Paper>
  );
}

/** The embedded development chain says what it is, and which accounts hold its test funds. */
function DevChainNotice() {
  const devChain = useQuery(milkomedaQueries.devChain());
  if (!devChain.data) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconFlask size={18} aria-hidden />} title="Development chain">
      <Stack gap="xs">
        <Text size="sm">
          No Milkomeda RPC is configured on this Cairn server, so this network is a local EVM development chain (chain id {MILKOMEDA_MAINNET.chainIdNumber}). It keeps its accounts, contracts and blocks across restarts: its transactions are kept in this server's database and replayed on start. These development accounts hold 10,000 mADA each; their private keys are public, so never send real funds to them:
        </Text>
        <List size="xs" spacing={2} className={classes.code} style={{ overflowWrap: 'anywhere' }}>
          {devChain.data.accounts.map((a) => (
            <List.Item key={a.address}>
              <Text span ff="monospace" size="xs">
                {a.address}
              </Text>{' '}
              <Text span size="xs" c="dimmed">
                key {a.privateKey}
              </Text>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Alert>
  );
}

/** The wallet the browser injected, if any; MetaMask may inject after the page loaded and announces itself with an event. */
function useInjectedProvider() {
  const [provider, setProvider] = useState(injectedProvider);
  useEffect(() => {
    const found = () => setProvider(injectedProvider());
    window.addEventListener('ethereum#initialized', found, { once: true });
    return () => window.removeEventListener('ethereum#initialized', found);
  }, []);
  return provider;
}

/** Why 'Add to MetaMask' is disabled, in view: a tooltip is out of reach on a touch screen. */
function NoWalletNote() {
  return (
    <Text size="sm" data-testid="metamask-missing">
      Add to MetaMask is disabled: this browser has no MetaMask extension. Install it and reload the page, or use the RPC URL below in your wallet.
    </Text>
  );
}

/** wallet_addEthereumChain through the injected provider; disabled with the spec's tooltip when there is none. */
function AddToMetaMask({ provider, gatewayUrl, projectKey }: { provider: Eip1193Provider | null; gatewayUrl: string; projectKey: string }) {
  const [busy, setBusy] = useState(false);

  if (!provider) {
    return (
      <Tooltip label={messages.metamask.notInstalled} events={{ hover: true, focus: true, touch: true }}>
        {/* A disabled button gets no pointer events: the wrapper carries the tooltip and the focus. */}
        <span tabIndex={0} aria-label={`Add to MetaMask: ${messages.metamask.notInstalled}`}>
          <Button size="xs" leftSection={<IconWallet size={14} aria-hidden />} disabled style={{ pointerEvents: 'none' }}>
            Add to MetaMask
          </Button>
        </span>
      </Tooltip>
    );
  }
  return (
    <Button
      size="xs"
      leftSection={<IconWallet size={14} aria-hidden />}
      loading={busy}
      onClick={() => {
        setBusy(true);
        addMilkomedaToWallet(provider, gatewayUrl, projectKey)
          .then(() => notifications.show({ color: 'green', title: 'Milkomeda added', message: `${MILKOMEDA_MAINNET.chainName} is now a network in your wallet.` }))
          .catch(() => notifications.show({ color: 'red', title: 'MetaMask', message: messages.metamask.addError }))
          .finally(() => setBusy(false));
      }}
    >
      Add to MetaMask
    </Button>
  );
}
