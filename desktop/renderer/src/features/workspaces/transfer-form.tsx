import { useState } from 'react';
import { Alert, Anchor, Button, Group, List, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { roleLabels } from '../../../../../shared/permissions';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { errorMessage } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { PageLoader } from '../../components/page-loader';
import { useTransferWorkspace, workspaceQueries } from './queries';
import { failed, succeeded } from '../../components/feedback';

export function TransferForm({ workspace }: { workspace: WorkspaceDto }) {
  const navigate = useNavigate();
  const members = useQuery(workspaceQueries.members(workspace.id));
  const [choice, setChoice] = useState('');
  const newOwnerId = choice ? Number(choice) : null;
  const plan = useQuery({ ...workspaceQueries.transferPlan(workspace.id, newOwnerId ?? 0), enabled: newOwnerId !== null });
  const transfer = useTransferWorkspace(workspace.id);

  if (members.isPending) return <PageLoader label="Loading members…" />;
  if (members.isError) return <ErrorView error={members.error} withRefresh />;
  const candidates = members.data.filter((m) => !m.is_creator);
  if (candidates.length === 0) {
    return (
      <Alert color="gray" variant="light">
        {workspace.name} has no other members yet. Invite someone on the{' '}
        <Anchor component={Link} to={`/dashboard/workspaces/${workspace.id}`} c="indigo.9" underline="always">
          workspace page
        </Anchor>{' '}
        first; you can transfer the workspace to them once they have joined.
      </Alert>
    );
  }

  const result = plan.data;
  const allowed = !!result?.allowed && !plan.isFetching;
  return (
    <Paper withBorder p="md">
      <Stack gap="md">
        <NativeSelect
          label="New owner"
          value={choice}
          onChange={(e) => setChoice(e.currentTarget.value)}
          data={[
            { value: '', label: 'Choose a member' },
            ...candidates.map((m) => ({ value: String(m.user_id), label: `${m.email} (${roleLabels[m.role_name]})` })),
          ]}
        />
        {newOwnerId !== null &&
          (plan.isPending ? (
            <PageLoader label="Checking what the transfer would change…" minHeight={80} />
          ) : plan.isError ? (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(plan.error, 'Could not check the transfer.')}
            </Alert>
          ) : (
            result && (
              <Stack gap="sm" aria-live="polite">
                <Title order={2} size="h4">
                  What changes
                </Title>
                <List size="sm" spacing={4}>
                  <List.Item>
                    {result.newOwner.email} becomes the owner (now {roleLabels[result.newOwner.currentRole].toLowerCase()}).
                  </List.Item>
                  <List.Item>You become {roleLabels[result.changes.previousOwnerRole].toLowerCase()}.</List.Item>
                  <List.Item>
                    The workspace runs on their {result.changes.plan} plan; {result.changes.projectsMoving}{' '}
                    {result.changes.projectsMoving === 1 ? 'project moves' : 'projects move'} with it.
                  </List.Item>
                </List>
                <Text size="sm" c="dimmed">
                  Afterwards they would own {result.after.workspaceCount} workspace{result.after.workspaceCount === 1 ? '' : 's'} with{' '}
                  {result.after.projectCount} project{result.after.projectCount === 1 ? '' : 's'}, and this workspace would have{' '}
                  {result.after.workspaceMembers} member{result.after.workspaceMembers === 1 ? '' : 's'}.
                </Text>
                {result.blockers.length > 0 && (
                  <Alert color="red" variant="light" title="The transfer is not possible" role="alert">
                    <List size="sm" spacing={4}>
                      {result.blockers.map((b) => (
                        <List.Item key={b.limit}>{b.message}</List.Item>
                      ))}
                    </List>
                  </Alert>
                )}
              </Stack>
            )
          ))}
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to={`/dashboard/workspaces/${workspace.id}`} variant="default">
            Cancel
          </Button>
          <Button
            disabled={!allowed}
            loading={transfer.isPending}
            leftSection={<IconArrowsExchange size={16} aria-hidden />}
            onClick={() =>
              newOwnerId !== null &&
              transfer.mutate(newOwnerId, {
                onSuccess: () => {
                  succeeded('Workspace transferred', `${result?.newOwner.email ?? 'The new owner'} now owns ${workspace.name}.`);
                  navigate(`/dashboard/workspaces/${workspace.id}`);
                },
                onError: (err) => failed('Workspace not transferred', err, 'The workspace could not be transferred.'),
              })
            }
          >
            Transfer
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
