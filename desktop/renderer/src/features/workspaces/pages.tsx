import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { isApiError } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { FactLine } from '../../components/fact-line';
import { ModalDialog } from '../../components/modal-dialog';
import { PageLayout, type Crumb } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { RoleBadge } from '../../components/role-badge';
import { SectionHeading } from '../../components/section-heading';
import { createWorkspaceBlockedReason } from './limits';
import { workspaceQueries } from './queries';
import { useSelectedWorkspace } from './selected-workspace';
import { CreateWorkspaceForm } from './create-workspace-form';
import { TransferForm } from './transfer-form';
import { WorkspaceSettings } from './workspace-settings';

const WORKSPACES: Crumb = { label: 'Workspaces', to: '/dashboard/workspaces' };

/** The workspace id of the route, or null when it is not a positive integer (answered like a 404). */
function useWorkspaceId(): number | null {
  const { id = '' } = useParams();
  const n = Number(id);
  return /^\d+$/.test(id) && Number.isSafeInteger(n) && n > 0 ? n : null;
}

const NOT_FOUND = 'Workspace not found.';

// ---- /dashboard/workspaces ----

export function WorkspacesPage() {
  const { workspaces, workspace: selected, select, isPending, error } = useSelectedWorkspace();
  const [creating, setCreating] = useState(false);
  // The user's own plan, read from the quota of a workspace they own.
  const owned = workspaces.find((w) => w.is_creator);
  const quota = useQuery({ ...workspaceQueries.quota(owned?.id ?? 0), enabled: !!owned });
  const reason = createWorkspaceBlockedReason(workspaces, quota.data?.subscription.currentPlan.name);

  return (
    <PageLayout title="Workspaces" description="Workspaces group projects and the people who work on them.">
      <SectionHeading title="Your workspaces" create={{ label: 'Create Workspace', onClick: () => setCreating(true), disabledReason: reason }} />
      {isPending ? (
        <PageLoader label="Loading workspaces…" />
      ) : error && workspaces.length === 0 ? (
        <ErrorView error={error} withRefresh />
      ) : workspaces.length === 0 ? (
        <Paper withBorder p="xl">
          <Text ta="center" c="dimmed">
            You are not in any workspace. Create one to start adding projects.
          </Text>
        </Paper>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {workspaces.map((w) => (
            <li key={w.id}>
              <Paper withBorder p="md">
                <Group justify="space-between" gap="sm">
                  <Stack gap={4} miw={0} style={{ flex: '1 1 220px' }}>
                    <Group gap="xs">
                      <Anchor component={Link} to={`/dashboard/workspaces/${w.id}`} fw={600} size="lg" style={{ overflowWrap: 'anywhere' }}>
                        {w.name}
                      </Anchor>
                      <RoleBadge role={w.role_name} />
                      {selected?.id === w.id && (
                        <Badge variant="outline" color="gray" radius="sm">
                          Selected
                        </Badge>
                      )}
                    </Group>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      Owner: {w.creator_email}
                    </Text>
                  </Stack>
                  <Group gap="xs">
                    {selected?.id !== w.id && (
                      <Button variant="default" size="sm" onClick={() => select(w.id)} aria-label={`Select ${w.name}`}>
                        Select
                      </Button>
                    )}
                    <Button
                      component={Link}
                      to={`/dashboard/workspaces/${w.id}`}
                      variant="light"
                      size="sm"
                      leftSection={<IconSettings size={16} aria-hidden />}
                      aria-label={`Manage ${w.name}`}
                    >
                      Manage
                    </Button>
                  </Group>
                </Group>
              </Paper>
            </li>
          ))}
        </Stack>
      )}
      <ModalDialog opened={creating} onClose={() => setCreating(false)} title="Create Workspace">
        <CreateWorkspaceForm onDone={() => setCreating(false)} />
      </ModalDialog>
    </PageLayout>
  );
}

// ---- /dashboard/workspaces/:id ----

/** Loads the workspace of the route; renders the loader or the error (404 included) until it is there. */
function WithWorkspace({ title, crumbs, children }: { title: string; crumbs?: (w: WorkspaceDto | null) => Crumb[]; children: (w: WorkspaceDto) => ReactNode }) {
  const id = useWorkspaceId();
  const detail = useQuery({ ...workspaceQueries.detail(id ?? 0), enabled: id !== null });
  if (!detail.data) {
    return (
      <PageLayout title={title} breadcrumbs={crumbs?.(null) ?? [WORKSPACES, { label: title }]}>
        {id !== null && detail.isPending ? (
          <PageLoader label="Loading workspace…" />
        ) : (
          <ErrorView error={id === null ? NOT_FOUND : detail.error} withRefresh={id !== null && !isApiError(detail.error, 404)} />
        )}
      </PageLayout>
    );
  }
  return <>{children(detail.data)}</>;
}

export function WorkspacePage() {
  return (
    <WithWorkspace title="Workspace">
      {(workspace) => (
        <PageLayout
          title={workspace.name}
          breadcrumbs={[WORKSPACES, { label: workspace.name }]}
          description={
            <FactLine>
              <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                Owner: {workspace.creator_email}
              </Text>
              <Group gap="xs">
                <Text c="dimmed">Your role</Text>
                <RoleBadge role={workspace.role_name} />
              </Group>
            </FactLine>
          }
        >
          <WorkspaceSettings key={workspace.id} workspace={workspace} />
        </PageLayout>
      )}
    </WithWorkspace>
  );
}

// ---- /dashboard/workspaces/:id/transfer ----

export function TransferWorkspacePage() {
  return (
    <WithWorkspace
      title="Transfer workspace"
      crumbs={() => [WORKSPACES, { label: 'Workspace' }, { label: 'Transfer workspace' }]}
    >
      {(workspace) => (
        <PageLayout
          title="Transfer workspace"
          breadcrumbs={[WORKSPACES, { label: workspace.name, to: `/dashboard/workspaces/${workspace.id}` }, { label: 'Transfer workspace' }]}
          description={`Make another member of ${workspace.name} its owner. The workspace then runs on their plan, and you stay as an administrator.`}
        >
          {can(workspace.role_name, 'workspace.transfer') ? (
            <TransferForm workspace={workspace} />
          ) : (
            <Alert color="yellow" variant="light">
              Only the owner can transfer the workspace.
            </Alert>
          )}
        </PageLayout>
      )}
    </WithWorkspace>
  );
}

