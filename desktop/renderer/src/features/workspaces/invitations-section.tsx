import { Button, Group, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { assignableRoles, can, roleLabels } from '../../../../../shared/permissions';
import { inviteSchema, type InvitationDto, type WorkspaceDto } from '../../../../../shared/workspaces';
import { pagedItems } from '../../api/pages';
import { DataList } from '../../components/data-list';
import { RoleBadge } from '../../components/role-badge';
import { SectionHeading } from '../../components/section-heading';
import { formatDate } from '../../lib/format';
import { useInviteMember, useRevokeInvitation, workspaceQueries } from './queries';
import { failed, succeeded } from '../../components/feedback';
import { useZodForm } from '../../components/zod-form';

export function InviteForm({ workspace, onDone }: { workspace: WorkspaceDto; onDone: () => void }) {
  const invite = useInviteMember(workspace.id);
  const { form, onSubmit } = useZodForm(inviteSchema, { email: '', role: 'collaborator' });
  const submit = onSubmit((values) => {
    if (invite.isPending) return;
    invite.mutate(
      values,
      {
        onSuccess: (inv) => {
          succeeded('Invitation sent', `${inv.email} has been invited as ${roleLabels[inv.role_name].toLowerCase()}.`);
          onDone();
        },
        onError: (err) => failed('Invitation not sent', err, 'The invitation could not be sent.'),
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          We e-mail a link to join {workspace.name}. It works once and expires in 7 days.
        </Text>
        <TextInput
          label="Email"
          type="email"
          inputMode="email"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          {...form.getInputProps('email')}
          data-autofocus
        />
        <NativeSelect
          label="Role"
          {...form.getInputProps('role')}
          data={assignableRoles.map((r) => ({ value: r, label: roleLabels[r] }))}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={invite.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending} leftSection={<IconMail size={16} aria-hidden />}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function Invitations({ workspace }: { workspace: WorkspaceDto }) {
  const invitations = useInfiniteQuery(workspaceQueries.invitations(workspace.id));
  const items = pagedItems(invitations.data);
  const revoke = useRevokeInvitation(workspace.id);
  const canRevoke = can(workspace.role_name, 'invites.delete');
  return (
    <Stack gap="sm">
      <SectionHeading title="Pending invitations" />
      <DataList<InvitationDto>
        records={invitations.data ? items : undefined}
        error={invitations.error}
        label="Pending invitations"
        loadingLabel="Loading invitations…"
        loaderMinHeight={80}
        cardGap={0}
        empty={
          <Text c="dimmed" size="sm">
            No pending invitations.
          </Text>
        }
        card={(inv) => (
          <Paper withBorder p="sm" radius={0} style={{ marginTop: -1 }}>
            <Group justify="space-between" gap="sm">
              <Stack gap={2} miw={0} style={{ flex: '1 1 200px' }}>
                <Group gap="xs">
                  <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {inv.email}
                  </Text>
                  <RoleBadge role={inv.role_name} />
                </Group>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {inv.invited_by_email ? `Invited by ${inv.invited_by_email} · ` : ''}Expires {formatDate(inv.expires_at)}
                </Text>
              </Stack>
              {canRevoke && (
                <Button
                  variant="subtle"
                  color="red"
                  size="sm"
                  loading={revoke.isPending && revoke.variables === inv.id}
                  onClick={() =>
                    revoke.mutate(inv.id, {
                      onSuccess: () => succeeded('Invitation revoked', `The link sent to ${inv.email} no longer works.`),
                      onError: (err) => failed('Invitation not revoked', err, 'The invitation could not be revoked.'),
                    })
                  }
                  aria-label={`Revoke invitation for ${inv.email}`}
                >
                  Revoke
                </Button>
              )}
            </Group>
          </Paper>
        )}
        paging={{ kind: 'cursor', hasMore: invitations.hasNextPage, loading: invitations.isFetchingNextPage, onLoad: () => void invitations.fetchNextPage(), label: 'Load more invitations' }}
      />
    </Stack>
  );
}
