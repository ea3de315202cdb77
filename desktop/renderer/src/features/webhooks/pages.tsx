import { useMemo, useState } from 'react';
import { Alert, Button, Grid, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconBan, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';
import { messages } from '../../../../../shared/messages';
import { can, isRole } from '../../../../../shared/permissions';
import { MAX_CONDITIONS, privateEndpointWarning, webhookDisplayState, webhookMessages, type WebhookDto } from '../../../../../shared/webhooks';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { apiErrorText, isApiError } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { ModalDialog } from '../../components/modal-dialog';
import { PageLayout, type Crumb } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { ReasonTooltip } from '../../components/reason-tooltip';
import { workspaceQueries } from '../workspaces/queries';
import { useSelectedWorkspace, WithSelectedWorkspace } from '../workspaces/selected-workspace';
import { DeliveryHistory } from './delivery-history';
import { addWebhookBlockedReason, draftOf, emptyDraft } from './form-model';
import { useCreateWebhook, useDeleteWebhook, useUpdateWebhook, webhookQueries } from './queries';
import { WebhookCredentials } from './webhook-credentials';
import { WebhookForm } from './webhook-form';

const WEBHOOKS: Crumb = { label: 'Webhooks', to: '/dashboard' };
const SAVE_FAILED = 'The webhook could not be saved. Please try again.';
const CANNOT_CHANGE = 'Only the owner, administrators and maintainers can change webhooks.';
const CANNOT_DELETE = 'Only the owner, administrators and maintainers can delete webhooks.';

// Saved, but Cairn's guard will refuse the address unless the operator allows it: say so at save time.
const warnIfPrivate = (url: string) => {
  const warning = privateEndpointWarning(url);
  if (warning) notifications.show({ color: 'yellow', title: 'Private endpoint', message: warning, autoClose: 10_000 });
};
const saveFailed = (error: unknown) => notifications.show({ color: 'red', title: 'Webhook not saved', message: apiErrorText(error) ?? SAVE_FAILED });

// ---- /dashboard/webhooks/add ----

export function AddWebhookPage() {
  return (
    <PageLayout
      title="Add webhook"
      breadcrumbs={[WEBHOOKS, { label: 'Add webhook' }]}
      description="Cairn follows the chain and sends a signed POST request to your endpoint for every event that meets the conditions."
    >
      <WithSelectedWorkspace missing="Webhooks live in workspaces. Create a workspace, or ask a workspace owner to invite you.">
        {(workspace) => <AddWebhook key={workspace.id} workspace={workspace} />}
      </WithSelectedWorkspace>
    </PageLayout>
  );
}

function AddWebhook({ workspace }: { workspace: WorkspaceDto }) {
  const navigate = useNavigate();
  const quota = useQuery(workspaceQueries.quota(workspace.id));
  const create = useCreateWebhook(workspace.id);
  const [initial] = useState(emptyDraft);
  const reason = addWebhookBlockedReason(workspace.role_name, quota.data);
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="md">
          {reason && (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />}>
              {reason}
            </Alert>
          )}
          <Paper withBorder p={{ base: 'sm', xs: 'md' }}>
            <WebhookForm
              initial={initial}
              workspace={workspace}
              blockedReason={reason}
              editable={can(workspace.role_name, 'webhooks.add')}
              submitting={create.isPending}
              onSubmit={(body) =>
                create.mutate(body, {
                  onSuccess: ({ id }) => {
                    notifications.show({ color: 'green', message: webhookMessages.created });
                    warnIfPrivate(body.target_url);
                    // The new webhook's page shows its identifier and auth token.
                    navigate(`/dashboard/webhooks/${id}`, { replace: true });
                  },
                  onError: saveFailed,
                })
              }
            />
          </Paper>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Title order={2} size="h4">
              How it works
            </Title>
            <List size="sm" spacing="xs">
              <List.Item>Pick the trigger: transactions, blocks, delegations or epochs.</List.Item>
              <List.Item>Narrow it with up to {MAX_CONDITIONS} conditions; an event must meet all of them.</List.Item>
              <List.Item>Cairn waits for the required confirmations, then sends the event, signed with the webhook's auth token.</List.Item>
              <List.Item>Failed deliveries are retried; the delivery history shows every attempt.</List.Item>
            </List>
          </Stack>
        </Paper>
      </Grid.Col>
    </Grid>
  );
}

// ---- /dashboard/webhooks/:id ----

export function WebhookPage() {
  const { id = '' } = useParams();
  const { workspace, workspaces, isPending, error } = useSelectedWorkspace();
  // The URL names only the webhook: look in the selected workspace first, then in the others.
  const order = useMemo(
    () => (workspace ? [workspace.id, ...workspaces.filter((w) => w.id !== workspace.id).map((w) => w.id)] : workspaces.map((w) => w.id)),
    [workspace, workspaces],
  );
  const location = useQuery({ ...webhookQueries.locate(id, order), enabled: !isPending && order.length > 0 });
  const workspaceId = location.data;
  const detail = useQuery({ ...webhookQueries.detail(workspaceId ?? 0, id), enabled: workspaceId !== undefined });

  if (detail.data) return <WebhookView key={detail.data.id} webhook={detail.data} />;
  const failure = error ?? location.error ?? detail.error ?? (!isPending && order.length === 0 ? 'Webhook not found.' : null);
  return (
    <PageLayout title="Webhook" breadcrumbs={[WEBHOOKS, { label: 'Webhook' }]}>
      {failure ? <ErrorView error={failure} withRefresh={!isApiError(failure, 404) && typeof failure !== 'string'} /> : <PageLoader label="Loading webhook…" />}
    </PageLayout>
  );
}

function WebhookView({ webhook }: { webhook: WebhookDto }) {
  const navigate = useNavigate();
  const role = isRole(webhook.role_name) ? webhook.role_name : null;
  const canUpdate = can(role, 'webhooks.update');
  const deleteReason = can(role, 'webhooks.delete') ? null : CANNOT_DELETE;
  const update = useUpdateWebhook(webhook.workspace_id, webhook.id);
  const remove = useDeleteWebhook(webhook.workspace_id, webhook.id);
  const [initial] = useState(() => draftOf(webhook));
  const [confirming, setConfirming] = useState(false);

  const onDelete = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        notifications.show({ color: 'green', message: `The webhook ${webhook.name} was deleted.` });
        navigate('/dashboard');
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Webhook not deleted', message: apiErrorText(error) ?? 'The webhook could not be deleted. Please try again.' }),
    });

  return (
    <PageLayout
      title={webhook.name}
      breadcrumbs={[WEBHOOKS, { label: webhook.name }]}
      actions={
        <ReasonTooltip reason={deleteReason}>
          <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setConfirming(true)} disabled={!!deleteReason}>
            Delete
          </Button>
        </ReasonTooltip>
      }
    >
      {webhook.disabled_reason && (
        <Alert color="red" variant="light" icon={<IconBan size={20} aria-hidden />} title="This webhook was disabled">
          {webhook.disabled_reason}
        </Alert>
      )}
      {webhookDisplayState(webhook) === 'enabled-warning' && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />}>
          {webhookMessages.failingWarning}
        </Alert>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder p={{ base: 'sm', xs: 'md' }}>
            <WebhookForm
              initial={initial}
              workspace={{ id: webhook.workspace_id, name: webhook.workspace_name }}
              blockedReason={canUpdate ? null : CANNOT_CHANGE}
              editable={canUpdate}
              revealErrors
              submitting={update.isPending}
              onSubmit={(body) =>
                update.mutate(body, {
                  onSuccess: () => {
                    notifications.show({ color: 'green', message: webhookMessages.updated });
                    warnIfPrivate(body.target_url);
                  },
                  onError: saveFailed,
                })
              }
            />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <WebhookCredentials webhook={webhook} />
        </Grid.Col>
      </Grid>
      <DeliveryHistory webhook={webhook} deniedReason={canUpdate ? null : CANNOT_CHANGE} />
      <ModalDialog opened={confirming} onClose={() => (remove.isPending ? undefined : setConfirming(false))} title="Delete this webhook?">
        <Stack gap="md">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            Cairn stops sending events to <strong>{webhook.target_url}</strong> and removes the webhook {webhook.name} with its delivery history.
            This cannot be undone.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={remove.isPending} data-autofocus>
              {messages.deleteEndpoint.cancel}
            </Button>
            <Button color="red" onClick={onDelete} loading={remove.isPending}>
              {messages.deleteEndpoint.confirm}
            </Button>
          </Group>
        </Stack>
      </ModalDialog>
    </PageLayout>
  );
}
