import { Paper, Stack, Title } from '@mantine/core';
import { can } from '../../../../../shared/permissions';
import { workspaceNameSchema, type WorkspaceDto } from '../../../../../shared/workspaces';
import { NameForm } from '../../components/name-form';
import { useRenameWorkspace } from './queries';
import { failed, succeeded } from '../../components/feedback';
import { Invitations } from './invitations-section';
import { Members } from './members-section';
import { OwnershipActions } from './ownership-actions';

export function WorkspaceSettings({ workspace }: { workspace: WorkspaceDto }) {
  const role = workspace.role_name;
  return (
    <Stack gap="xl">
      {can(role, 'workspace.change_name') && <RenameWorkspace workspace={workspace} />}
      <Members workspace={workspace} />
      <Invitations workspace={workspace} />
      <OwnershipActions workspace={workspace} />
    </Stack>
  );
}

function RenameWorkspace({ workspace }: { workspace: WorkspaceDto }) {
  const rename = useRenameWorkspace(workspace.id);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          Name
        </Title>
        <NameForm
          label="Workspace name"
          initialName={workspace.name}
          schema={workspaceNameSchema}
          saving={rename.isPending}
          onSave={(name) =>
            rename.mutate(name, {
              onSuccess: (w) => succeeded('Workspace renamed', `The workspace is now called ${w.name}.`),
              onError: (err) => failed('Workspace not renamed', err, 'The workspace could not be renamed.'),
            })
          }
        />
      </Stack>
    </Paper>
  );
}
