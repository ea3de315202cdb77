import { useEffect, useState } from 'react';
import { Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Trigger } from '../../../../../shared/webhooks';
import { apiErrorText } from '../../api/client';
import { PageLayout } from '../../components/page-layout';
import { desktopBridge } from '../../lib/desktop';
import { webhookQueries } from '../webhooks/index';
import { useSelectedWorkspace } from '../workspaces/index';
import { sandboxQueries } from './queries';
import { JsonPathSandbox } from './sandbox';
import { DESCRIPTION } from './sandbox-description';

/** /dashboard/jsonpath-sandbox: the sandbox in the dashboard, which can also load events of your webhooks. */
export function JsonPathSandboxPage() {
  const bridge = desktopBridge();
  return (
    <PageLayout
      title="JSONPath sandbox"
      description={DESCRIPTION}
      actions={
        bridge && (
          <Button variant="default" onClick={() => void bridge.jsonpath.openSandbox()}>
            Open in its own window
          </Button>
        )
      }
    >
      <JsonPathSandbox historyLoader={(load) => <DeliveryHistoryLoader load={load} />} />
    </PageLayout>
  );
}

function DeliveryHistoryLoader({ load }: { load: (trigger: Trigger, payload: unknown) => void }) {
  const { workspace } = useSelectedWorkspace();
  const workspaceId = workspace?.id ?? 0;
  const [webhookId, setWebhookId] = useState('');
  const [eventId, setEventId] = useState('');
  const webhooks = useQuery({ ...webhookQueries.list(workspaceId), enabled: workspaceId > 0 });
  const events = useQuery({ ...webhookQueries.events(workspaceId, webhookId, 1), enabled: webhookId !== '' });
  const payload = useQuery({ ...sandboxQueries.eventPayload(workspaceId, webhookId, eventId), enabled: eventId !== '' });

  useEffect(() => {
    if (payload.data) load(payload.data.type, payload.data.payload);
    // Load each fetched event once; `load` changes identity on every render of the sandbox.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [payload.data]);

  if (!workspace || !webhooks.data || webhooks.data.length === 0) return null;
  return (
    <Stack gap={4}>
      <Group grow gap="xs" align="flex-end">
        <NativeSelect
          label="From a webhook's delivery history"
          value={webhookId}
          onChange={(e) => {
            setWebhookId(e.currentTarget.value);
            setEventId('');
          }}
          data={[{ value: '', label: 'Choose a webhook' }, ...webhooks.data.map((w) => ({ value: w.id, label: w.name }))]}
        />
        <NativeSelect
          label="Event"
          value={eventId}
          disabled={!events.data || events.data.events.length === 0}
          onChange={(e) => setEventId(e.currentTarget.value)}
          data={[
            { value: '', label: events.data && events.data.events.length === 0 ? 'No events yet' : 'Choose an event' },
            ...(events.data?.events ?? []).map((ev) => ({ value: ev.id, label: `${new Date(ev.created * 1000).toLocaleString()} · ${ev.type} · ${ev.status}` })),
          ]}
        />
      </Group>
      {(events.error || payload.error) && (
        <Text size="sm" c="red" role="alert">
          {apiErrorText(events.error ?? payload.error) ?? 'The event could not be loaded.'}
        </Text>
      )}
    </Stack>
  );
}
