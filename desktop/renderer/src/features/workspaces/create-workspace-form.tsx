import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { workspaceNameSchema } from '../../../../../shared/workspaces';
import { useCreateWorkspace } from './queries';
import { failed, succeeded } from '../../components/feedback';
import { useZodForm } from '../../components/zod-form';
import { useSelectedWorkspace } from './selected-workspace';

/** The server's body for a new workspace. */
const fields = z.object({ name: workspaceNameSchema });

export function CreateWorkspaceForm({ onDone }: { onDone: () => void }) {
  const create = useCreateWorkspace();
  const navigate = useNavigate();
  const { select } = useSelectedWorkspace();
  const { form, onSubmit } = useZodForm(fields, { name: '' });
  const submit = onSubmit(({ name }) => {
    if (create.isPending) return;
    create.mutate(name, {
      onSuccess: (workspace) => {
        // The workspace just made is the one the user means to work in next: select it (the list
        // already holds it, as the mutation waits for the refetch before this runs).
        select(workspace.id);
        succeeded('Workspace created', `${workspace.name} is ready. Invite members and add projects.`);
        onDone();
        navigate(`/dashboard/workspaces/${workspace.id}`);
      },
      onError: (err) => failed('Workspace not created', err, 'The workspace could not be created.'),
    });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Workspace name"
          {...form.getInputProps('name')}
          maxLength={200}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create Workspace
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
