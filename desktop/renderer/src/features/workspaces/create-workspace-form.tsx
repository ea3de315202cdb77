import { useState, type FormEvent } from 'react';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { workspaceNameSchema } from '../../../../../shared/workspaces';
import { useCreateWorkspace } from './queries';
import { failed, succeeded } from '../../components/feedback';
import { useSelectedWorkspace } from './selected-workspace';

export function CreateWorkspaceForm({ onDone }: { onDone: () => void }) {
  const create = useCreateWorkspace();
  const navigate = useNavigate();
  const { select } = useSelectedWorkspace();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    const parsed = workspaceNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Workspace name is not valid');
      return;
    }
    setError(null);
    create.mutate(parsed.data, {
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
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Workspace name"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            if (error) setError(null);
          }}
          error={error}
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
