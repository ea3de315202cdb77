import { useState } from 'react';
import { Alert, Grid, List, Paper, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
import { MAX_CONDITIONS, webhookMessages } from '../../../../../shared/webhooks';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { PageLayout } from '../../components/page-layout';
import { WithSelectedWorkspace, workspaceQueries } from '../workspaces/index';
import { addWebhookBlockedReason, emptyDraft } from './form-model';
import { useCreateWebhook } from './queries';
import { WebhookForm } from './webhook-form';
import { WEBHOOKS } from './crumbs';
import { warnIfPrivate, saveFailed } from './save-feedback';

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
  const queryClient = useQueryClient();
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
                    warnIfPrivate(queryClient, body.target_url);
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
              <List.Item>Pick the trigger: transactions, blocks, delegations, epochs, or the status of the transactions your projects submit.</List.Item>
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
