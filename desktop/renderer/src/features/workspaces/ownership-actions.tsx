import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowsExchange, IconDoorExit, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal';
import { ModalDialog } from '../../components/modal-dialog';
import { useDeleteWorkspace, useLeaveWorkspace } from './queries';
import { failed, succeeded } from '../../components/feedback';

/** Transfer and delete for the owner, leave for everyone else. */
export function OwnershipActions({ workspace }: { workspace: WorkspaceDto }) {
  const role = workspace.role_name;
  const navigate = useNavigate();
  const del = useDeleteWorkspace(workspace.id);
  const leave = useLeaveWorkspace(workspace.id);
  const [deleting, setDeleting] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const canTransfer = can(role, 'workspace.transfer');
  const canDelete = can(role, 'workspace.delete');
  const canLeave = can(role, 'workspace.leave');
  if (!canTransfer && !canDelete && !canLeave) return null;

  return (
    <Paper withBorder p="md" style={{ borderColor: 'var(--mantine-color-red-3)' }}>
      <Stack gap="md">
        <Title order={2} size="h3">
          {canLeave ? 'Leave workspace' : 'Ownership'}
        </Title>
        {canTransfer && (
          <Group justify="space-between" gap="sm">
            <Text size="sm" style={{ flex: '1 1 240px' }}>
              Make another member the owner. You stay in the workspace as an administrator.
            </Text>
            <Button
              component={Link}
              to={`/dashboard/workspaces/${workspace.id}/transfer`}
              variant="default"
              leftSection={<IconArrowsExchange size={16} aria-hidden />}
            >
              Transfer workspace
            </Button>
          </Group>
        )}
        {canDelete && (
          <Group justify="space-between" gap="sm">
            <Text size="sm" style={{ flex: '1 1 240px' }}>
              Deleting the workspace removes its projects, members and invitations for good.
            </Text>
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)}>
              Delete workspace
            </Button>
          </Group>
        )}
        {canLeave && (
          <Group justify="space-between" gap="sm">
            <Text size="sm" style={{ flex: '1 1 240px' }}>
              You will lose access to this workspace and its projects until someone invites you again.
            </Text>
            <Button color="red" variant="light" leftSection={<IconDoorExit size={16} aria-hidden />} onClick={() => setLeaving(true)}>
              Leave workspace
            </Button>
          </Group>
        )}
      </Stack>
      <ConfirmDeleteModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title={`Delete ${workspace.name}?`}
        confirmation={workspace.name}
        checkbox="I understand that every project in this workspace is deleted with it."
        loading={del.isPending}
        onConfirm={() =>
          del.mutate(undefined, {
            onSuccess: () => {
              setDeleting(false);
              succeeded('Workspace deleted', `${workspace.name} has been deleted.`);
              navigate('/dashboard/workspaces');
            },
            onError: (err) => failed('Workspace not deleted', err, 'The workspace could not be deleted.'),
          })
        }
      />
      <ModalDialog opened={leaving} onClose={() => setLeaving(false)} title={`Leave ${workspace.name}?`}>
        <Stack gap="md">
          <Text>You will lose access to this workspace and its projects. To come back, someone has to invite you again.</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setLeaving(false)} disabled={leave.isPending}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={leave.isPending}
              onClick={() =>
                leave.mutate(undefined, {
                  onSuccess: () => {
                    setLeaving(false);
                    succeeded('Workspace left', `You are no longer a member of ${workspace.name}.`);
                    navigate('/dashboard/workspaces');
                  },
                  onError: (err) => failed('Could not leave', err, 'You could not leave the workspace.'),
                })
              }
            >
              Leave workspace
            </Button>
          </Group>
        </Stack>
      </ModalDialog>
    </Paper>
  );
}
