import { useState } from 'react';
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconWebhook } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
import { triggerLabels, webhookDisplayState, webhookMessages, type WebhookDto } from '../../../../../shared/webhooks';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { ListSearch } from '../../components/list-search';
import { pagedItems } from '../../api/pages';
import { EmptyState } from '../../components/empty-state';
import { LoadMore } from '../../components/load-more';
import { formatNumber } from '../../lib/format';
import { ErrorView } from '../../components/error-view';
import { PageLoader } from '../../components/page-loader';
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
      <ListSearch value={search} onChange={setSearch} query={q} list={webhooks} label="Search webhooks" placeholder="Webhook name" />
      {webhooks.isPending ? (
        <PageLoader label="Loading webhooks…" minHeight={120} />
      ) : webhooks.isError ? (
        <ErrorView error={webhooks.error} withRefresh />
      ) : items.length === 0 && q !== '' ? (
        <Text c="dimmed">No webhook name contains “{q}”.</Text>
      ) : items.length === 0 ? (
        <EmptyState icon={IconWebhook} title="No webhooks yet">
          {can(workspace.role_name, 'webhooks.add')
            ? 'Add a webhook to have Cairn send transactions, blocks, delegations or epochs to your endpoint as they happen.'
            : 'Nobody has added a webhook to this workspace yet.'}
        </EmptyState>
      ) : (
        <Stack component="ul" gap="sm" className={classes.plainList}>
          {items.map((w) => (
            <li key={w.id}>
              <WebhookCard webhook={w} />
            </li>
          ))}
        </Stack>
      )}
      <LoadMore
        hasMore={webhooks.hasNextPage}
        loading={webhooks.isFetchingNextPage}
        onLoad={() => void webhooks.fetchNextPage()}
        shown={webhooks.hasNextPage ? `${formatNumber(items.length)} webhooks shown` : undefined}
        label="Load more webhooks"
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
