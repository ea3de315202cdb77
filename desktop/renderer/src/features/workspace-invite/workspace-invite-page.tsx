import type { ReactNode } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { InvitationPreview } from '../../../../../shared/workspaces';
import { errorMessage } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { RoleBadge } from '../../components/role-badge';
import { formatDateTime } from '../../lib/format';
import { meQueries } from '../account/index';
import { invitationQueries, useAcceptInvitation, useSelectedWorkspace } from '../workspaces/index';

const TITLE = 'Workspace invitation';

const statusText: Record<Exclude<InvitationPreview['status'], 'pending'>, string> = {
  accepted: 'This invitation has already been accepted.',
  expired: 'This invitation has expired. Ask for a new one.',
};

/** /workspace-invite/{token}: what the invitation is for, and Accept for the invited e-mail. */
export function WorkspaceInvitePage() {
  const { id: token = '' } = useParams();
  const preview = useQuery(invitationQueries.preview(token));
  return (
    <PageLayout title={TITLE}>
      {preview.isPending ? (
        <PageLoader label="Loading the invitation…" />
      ) : preview.isError ? (
        <ErrorView error={preview.error} />
      ) : (
        <InvitationCard token={token} invitation={preview.data} />
      )}
    </PageLayout>
  );
}

function InvitationCard({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const navigate = useNavigate();
  const { data: me } = useQuery(meQueries.me());
  const { select } = useSelectedWorkspace();
  const accept = useAcceptInvitation(token);
  const otherEmail = me && me.email.toLowerCase() !== invitation.email.toLowerCase();
  const pending = invitation.status === 'pending';

  const facts: Array<[string, ReactNode]> = [
    ['Workspace', invitation.workspace_name],
    ['Role', <RoleBadge key="role" role={invitation.role_name} />],
    ['Invited by', invitation.invited_by_email ?? 'A former member'],
    ['Sent to', invitation.email],
    [pending ? 'Expires' : 'Expired', formatDateTime(invitation.expires_at)],
  ];
  if (invitation.status === 'accepted') facts.pop();

  return (
    <Paper withBorder p={{ base: 'md', xs: 'xl' }} maw={640}>
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            Join {invitation.workspace_name}
          </Title>
          <Badge color={pending ? 'indigo' : 'gray'} variant="light" radius="sm">
            {pending ? 'Pending' : invitation.status === 'accepted' ? 'Accepted' : 'Expired'}
          </Badge>
        </Group>
        <Stack component="dl" gap="xs" m={0}>
          {facts.map(([term, value]) => (
            <Group key={term} gap="xs" wrap="nowrap" align="baseline">
              <Text component="dt" size="sm" c="dimmed" w={96} style={{ flexShrink: 0 }}>
                {term}
              </Text>
              <Text component="dd" size="sm" fw={500} m={0} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                {value}
              </Text>
            </Group>
          ))}
        </Stack>
        {invitation.status !== 'pending' && (
          <Alert color="gray" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {statusText[invitation.status]}
          </Alert>
        )}
        {pending && otherEmail && !accept.isError && (
          <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />}>
            You are signed in as {me.email}, but this invitation was sent to {invitation.email}. Sign in with that e-mail to accept
            it.
          </Alert>
        )}
        {accept.isError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert" title="The invitation was not accepted">
            {errorMessage(accept.error, 'The invitation could not be accepted.')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to="/dashboard" variant="default">
            Go to dashboard
          </Button>
          {pending && (
            <Button
              leftSection={<IconCheck size={16} aria-hidden />}
              loading={accept.isPending}
              onClick={() =>
                accept.mutate(undefined, {
                  onSuccess: ({ workspaceId }) => {
                    select(workspaceId);
                    notifications.show({ color: 'green', title: 'Invitation accepted', message: `Welcome to ${invitation.workspace_name}.` });
                    navigate('/dashboard');
                  },
                })
              }
            >
              Accept invitation
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
