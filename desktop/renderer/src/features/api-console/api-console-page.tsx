import { useEffect, useMemo, useState } from 'react';
import { Alert, Badge, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconSend, IconTrash } from '@tabler/icons-react';
import type { KeptKey } from '../../../../preload/bridge';
import { consoleEndpointsFor, pathPlaceholders } from '../../../../../shared/console-endpoints';
import { findNetwork, networkLabel } from '../../../../../shared/networks';
import { DataList } from '../../components/data-list';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { desktopBridge } from '../../lib/desktop';
import { keptKeyQueries, useConsoleRequest, useRemoveKeptKey } from './queries';
import { ResponseView } from './response-view';

/** /dashboard/api-console: keys kept in the OS keychain and a console that calls the gateway with them (desktop app). */
export function ApiConsolePage() {
  const inDesktop = desktopBridge() !== null;
  return (
    <PageLayout title="API console" description="Call the gateway with a key kept in your OS keychain; the request is sent by the desktop app, and the key never reaches this page.">
      {inDesktop ? (
        <ConsoleWithKeys />
      ) : (
        <Alert color="blue" title="The API console is part of the Cairn desktop app">
          It keeps project keys in your operating system's keychain and sends requests with them from the app. In a browser, copy a project's key from its page and use the curl examples there.
        </Alert>
      )}
    </PageLayout>
  );
}

function ConsoleWithKeys() {
  const kept = useQuery(keptKeyQueries.list());
  if (kept.isPending) return <PageLoader label="Reading the keychain…" />;
  if (kept.isError) return <Alert color="red" title="The keychain could not be read">{kept.error.message}</Alert>;
  return (
    <Stack gap="lg">
      <KeptKeys keys={kept.data} />
      {kept.data.some((k) => k.status !== 'deleted' && k.status !== 'rolled') ? <Console keys={kept.data.filter((k) => k.status !== 'deleted' && k.status !== 'rolled')} /> : null}
    </Stack>
  );
}

function KeyState({ status }: { status: KeptKey['status'] }) {
  if (status === 'deleted')
    return (
      <Badge color="red" variant="light">
        Project deleted
      </Badge>
    );
  if (status === 'rolled')
    return (
      <Badge color="orange" variant="light" title="The project's key was rolled: keep the key again from the project page.">
        Key rolled
      </Badge>
    );
  if (status === 'unknown')
    return (
      <Badge color="gray" variant="light">
        Not checked
      </Badge>
    );
  return (
    <Badge color="green" variant="light">
      Active
    </Badge>
  );
}

function KeptKeys({ keys }: { keys: KeptKey[] }) {
  const remove = useRemoveKeptKey();
  const removeButton = (k: KeptKey) => (
    <Button size="compact-sm" variant="subtle" color="red" leftSection={<IconTrash size={14} aria-hidden />} loading={remove.isPending && remove.variables === k.projectUuid} onClick={() => remove.mutate(k.projectUuid)} aria-label={`Remove the key of ${k.projectName}`}>
      Remove
    </Button>
  );
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Keys in your keychain
        </Title>
        <DataList<KeptKey>
          records={keys}
          idAccessor="projectUuid"
          label="Keys in your keychain"
          loadingLabel="Reading the keychain…"
          minWidth={560}
          empty={
            <Text size="sm" c="dimmed">
              No keys yet. Open a project and choose 'Keep key in keychain'.
            </Text>
          }
          columns={[
            { accessor: 'projectName', title: 'Project' },
            { accessor: 'networkId', title: 'Network', render: (k) => networkLabel(k.networkId) },
            { accessor: 'workspaceName', title: 'Workspace' },
            { accessor: 'status', title: 'State', render: (k) => <KeyState status={k.status} /> },
            { accessor: 'remove', title: '', textAlign: 'right', render: removeButton },
          ]}
          card={(k) => (
            <Paper withBorder p="sm">
              <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                <Stack gap={2} miw={0}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {k.projectName}
                  </Text>
                  <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {networkLabel(k.networkId)} · {k.workspaceName}
                  </Text>
                </Stack>
                <KeyState status={k.status} />
              </Group>
              <Group justify="flex-end" mt="xs">
                {removeButton(k)}
              </Group>
            </Paper>
          )}
        />
        {remove.error && (
          <Text size="sm" c="red" role="alert">
            {remove.error.message}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function Console({ keys }: { keys: KeptKey[] }) {
  const [projectUuid, setProjectUuid] = useState(keys[0]!.projectUuid);
  const key = keys.find((k) => k.projectUuid === projectUuid) ?? keys[0]!;
  const endpoints = useMemo(() => consoleEndpointsFor(key.networkId), [key.networkId]);
  const [endpointIndex, setEndpointIndex] = useState(0);
  const endpoint = endpoints[endpointIndex] ?? endpoints[0]!;
  const [path, setPath] = useState(endpoint.path);
  const [body, setBody] = useState(endpoint.body ?? '');
  const send = useConsoleRequest();

  useEffect(() => {
    setPath(endpoint.path);
    setBody(endpoint.body ?? '');
  }, [endpoint]);

  const missing = pathPlaceholders(path);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Request
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NativeSelect
            label="Key"
            value={projectUuid}
            onChange={(e) => {
              setProjectUuid(e.currentTarget.value);
              setEndpointIndex(0);
            }}
            data={keys.map((k) => ({ value: k.projectUuid, label: `${k.projectName} · ${networkLabel(k.networkId)} · ${k.workspaceName}` }))}
          />
          <NativeSelect label="Endpoint" value={String(endpointIndex)} onChange={(e) => setEndpointIndex(Number(e.currentTarget.value))} data={endpoints.map((ep, i) => ({ value: String(i), label: `${ep.method} ${ep.label}` }))} />
        </SimpleGrid>
        <TextInput
          label={`${endpoint.method} path`}
          description={missing.length > 0 ? `Replace ${missing.map((m) => `{${m}}`).join(', ')} before sending.` : `Under /${findNetwork(key.networkId)?.slug ?? ''}/api/v0 on the gateway.`}
          value={path}
          onChange={(e) => setPath(e.currentTarget.value)}
          spellCheck={false}
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        {endpoint.method === 'POST' && (
          <Textarea label="Body (JSON)" value={body} onChange={(e) => setBody(e.currentTarget.value)} autosize minRows={3} maxRows={12} spellCheck={false} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }} />
        )}
        <Group>
          <Button
            leftSection={<IconSend size={16} aria-hidden />}
            loading={send.isPending}
            disabled={missing.length > 0 || !path.startsWith('/')}
            onClick={() => send.mutate({ projectUuid: key.projectUuid, method: endpoint.method, path, ...(endpoint.method === 'POST' && body !== '' ? { body } : {}) })}
          >
            Send
          </Button>
        </Group>
        {send.error && (
          <Alert color="red" title="The request could not be sent">
            {send.error.message}
          </Alert>
        )}
        {send.data && <ResponseView response={send.data} />}
      </Stack>
    </Paper>
  );
}
