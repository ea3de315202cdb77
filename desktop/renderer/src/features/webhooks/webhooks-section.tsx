import { useState } from 'react';
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconWebhook } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
import { triggerLabels, webhookDisplayState, webhookMessages, type WebhookDto } from '../../../../../shared/webhooks';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { pagedItems } from '../../api/pages';
import { DataList } from '../../components/data-list';
import { EmptyState } from '../../components/empty-state';
import { formatNumber } from '../../lib/format';
import { SectionHeading } from '../../components/section-heading';
import { useSelectedWorkspace, webhookUsageText, workspaceQueries } from '../workspaces/index';
import { addWebhookBlockedReason, webhookNetworkLabel } from './form-model';
import { webhookQueries } from './queries';
import classes from './webhooks.module.css';

/** The selected workspace's webhooks, for the dashboard: each links to its page. */
export function WebhooksSection() {
  const { workspace } = useSelectedWorkspace();
  if (!workspace) return null;
  return <WorkspaceWebhooks key={workspace.id} workspace={workspace} />;
}

function WorkspaceWebhooks({ workspace }: { workspace: WorkspaceDto }) {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300)[0];
  const webhooks = useInfiniteQuery(webhookQueries.pages(workspace.id, q));
  const items = pagedItems(webhooks.data);
  const quota = useQuery(workspaceQueries.quota(workspace.id));
  const reason = addWebhookBlockedReason(workspace.role_name, quota.data);

  return (
    <Stack gap="md" component="section" aria-label="Webhooks">
      <SectionHeading title="Webhooks" create={{ label: 'Add Webhook', onClick: () => navigate('/dashboard/webhooks/add'), disabledReason: reason }} />
      {quota.data && (
        <Text size="sm" c="dimmed" mt={-8}>
          {webhookUsageText(workspace, quota.data)}
        </Text>
      )}
      <DataList<WebhookDto>
        records={webhooks.data ? items : undefined}
        error={webhooks.error}
        label="Webhooks"
        loadingLabel="Loading webhooks…"
        loaderMinHeight={120}
        card={(w) => <WebhookCard webhook={w} />}
        search={{ value: search, onChange: setSearch, query: q, list: webhooks, label: 'Search webhooks', placeholder: 'Webhook name' }}
        empty={
          q !== '' ? (
            <Text c="dimmed">No webhook name contains “{q}”.</Text>
          ) : (
            <EmptyState icon={IconWebhook} title="No webhooks yet">
              {can(workspace.role_name, 'webhooks.add')
                ? 'Add a webhook to have Cairn send transactions, blocks, delegations, epochs or the status of the transactions your projects submit to your endpoint as they happen.'
                : 'Nobody has added a webhook to this workspace yet.'}
            </EmptyState>
          )
        }
        paging={{
          kind: 'cursor',
          hasMore: webhooks.hasNextPage,
          loading: webhooks.isFetchingNextPage,
          onLoad: () => void webhooks.fetchNextPage(),
          label: 'Load more webhooks',
          ...(webhooks.hasNextPage ? { shown: `${formatNumber(items.length)} webhooks shown` } : {}),
        }}
      />
    </Stack>
  );
}

const stateBadge = {
  disabled: { label: 'Disabled', color: 'gray' },
  'enabled-warning': { label: 'Enabled', color: 'orange' },
  enabled: { label: 'Enabled', color: 'green' },
} as const;

function WebhookCard({ webhook }: { webhook: WebhookDto }) {
  const state = webhookDisplayState(webhook);
  const badge = stateBadge[state];
  return (
    <Paper component={Link} to={`/dashboard/webhooks/${webhook.id}`} withBorder p="md" className={classes.cardLink}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Text fw={600} className={classes.wrap}>
            {webhook.name}
          </Text>
          <Badge
            variant="light"
            color={badge.color}
            leftSection={state === 'enabled-warning' ? <IconAlertTriangle size={12} aria-hidden /> : undefined}
            style={{ flexShrink: 0 }}
          >
            {badge.label}
          </Badge>
        </Group>
        <Text size="sm" ff="monospace" c="dimmed" className={classes.wrap}>
          {webhook.target_url}
        </Text>
        <Group gap="xs">
          <Badge variant="outline" color="gray" radius="sm">
            {triggerLabels[webhook.type]}
          </Badge>
          <Badge variant="outline" color="gray" radius="sm">
            {webhookNetworkLabel(webhook.network)}
          </Badge>
        </Group>
        {state === 'enabled-warning' && (
          <Group gap={6} wrap="nowrap" align="flex-start">
            <IconAlertTriangle size={16} aria-hidden color="var(--mantine-color-orange-8)" style={{ flexShrink: 0, marginTop: 2 }} />
            <Text size="sm" c="orange.9">
              {webhookMessages.failingWarning}
            </Text>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
