import { useMemo, useState } from 'react';
import { Alert, Button, Grid, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconBan, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';
import { messages } from '../../../../../shared/messages';
import { can, isRole } from '../../../../../shared/permissions';
import { webhookDisplayState, webhookMessages, type WebhookDto } from '../../../../../shared/webhooks';
import { apiErrorText, isApiError } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { ModalDialog } from '../../components/modal-dialog';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { ReasonTooltip } from '../../components/reason-tooltip';
import { deniedReason } from '../../components/permission';
import { useSelectedWorkspace } from '../workspaces/index';
import { DeliveryHistory } from './delivery-history';
import { draftOf } from './form-model';
import { useDeleteWebhook, useUpdateWebhook, webhookQueries } from './queries';
import { WebhookCredentials } from './webhook-credentials';
import { WebhookForm } from './webhook-form';
import { WEBHOOKS } from './crumbs';
import { warnIfPrivate, saveFailed } from './save-feedback';

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
  const deleteReason = deniedReason(role, 'webhooks.delete');
  const update = useUpdateWebhook(webhook.workspace_id, webhook.id);
  const queryClient = useQueryClient();
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
              blockedReason={deniedReason(role, 'webhooks.update')}
              editable={canUpdate}
              revealErrors
              submitting={update.isPending}
              onSubmit={(body) =>
                update.mutate(body, {
                  onSuccess: () => {
                    notifications.show({ color: 'green', message: webhookMessages.updated });
                    warnIfPrivate(queryClient, body.target_url);
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
      <DeliveryHistory webhook={webhook} deniedReason={deniedReason(role, 'webhooks.update')} />
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
