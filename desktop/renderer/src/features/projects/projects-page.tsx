import { useEffect, useState } from 'react';
import { Anchor, Badge, Button, Card, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFolderOpen } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useNavigate } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
import { networkLabel, networkOptions, projectNetworkChoices } from '../../../../../shared/networks';
import { createProjectSchema, type ProjectDto, type WorkspaceDto } from '../../../../../shared/workspaces';
import { errorMessage, isApiError } from '../../api/client';
import { pagedItems } from '../../api/pages';
import { DataList } from '../../components/data-list';
import { EmptyState } from '../../components/empty-state';
import { FactLine } from '../../components/fact-line';
import { ModalDialog } from '../../components/modal-dialog';
import { useZodForm } from '../../components/zod-form';
import { PageLayout } from '../../components/page-layout';
import { RoleBadge } from '../../components/role-badge';
import { SectionHeading } from '../../components/section-heading';
import { formatNumber } from '../../lib/format';
import { addProjectBlockedReason, WithSelectedWorkspace, workspaceQueries, workspaceUsageText } from '../workspaces/index';
import { SandboxBadge } from '../project-stats/index';
import { WebhooksSection } from '../webhooks/index';
import { projectQueries, useCreateProject } from './queries';

/** Should GET /api/networks fail: every enabled network, and the server still refuses a wrong one. */
const fallbackNetworks = networkOptions(() => true);

export function ProjectsPage() {
  return (
    <PageLayout title="Projects">
      <WithSelectedWorkspace missing="Projects live in workspaces. Create a workspace, or ask a workspace owner to invite you.">
        {(workspace) => (
          <Stack gap="xl">
            <WorkspaceProjects key={workspace.id} workspace={workspace} />
            <WebhooksSection />
          </Stack>
        )}
      </WithSelectedWorkspace>
    </PageLayout>
  );
}

function WorkspaceProjects({ workspace }: { workspace: WorkspaceDto }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300)[0];
  const projects = useInfiniteQuery(projectQueries.list(workspace.id, q));
  const items = pagedItems(projects.data);
  const quota = useQuery(workspaceQueries.quota(workspace.id));
  const [adding, setAdding] = useState(false);
  const reason = addProjectBlockedReason(workspace.role_name, quota.data);

  // 404: the user is no longer in this workspace (removed, or it was deleted); refresh the list so
  // the selection falls back to the first workspace.
  const gone = isApiError(projects.error, 404);
  useEffect(() => {
    if (gone) void queryClient.invalidateQueries({ queryKey: workspaceQueries.list().queryKey });
  }, [gone, queryClient]);

  return (
    <Stack gap="md">
      <SectionHeading
        title={workspace.name}
        create={{ label: 'Add Project', onClick: () => setAdding(true), disabledReason: reason }}
      />
      <FactLine size="sm">
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            Your role
          </Text>
          <RoleBadge role={workspace.role_name} />
        </Group>
        {quota.data && (
          <Text size="sm" c="dimmed" data-testid="workspace-usage">
            {workspaceUsageText(workspace, quota.data)}
          </Text>
        )}
      </FactLine>
      {reason && <AddProjectBlocked reason={reason} planLimited={can(workspace.role_name, 'projects.add')} owner={workspace.is_creator} />}
      <DataList<ProjectDto>
        records={projects.data ? items : undefined}
        error={projects.error}
        label="Projects"
        loadingLabel="Loading projects…"
        idAccessor="uuid"
        card={(p) => <ProjectCard project={p} />}
        cardColumns={{ base: 1, sm: 2, md: 3 }}
        search={{ value: search, onChange: setSearch, query: q, list: projects, label: 'Search projects', placeholder: 'Project name' }}
        empty={
          q !== '' ? (
            <Text c="dimmed">No project name contains “{q}”.</Text>
          ) : (
            <EmptyState icon={IconFolderOpen} title="No projects yet">
              {can(workspace.role_name, 'projects.add')
                ? 'Add a project to get a project ID for the Cardano or IPFS API.'
                : 'Nobody has added a project to this workspace yet.'}
            </EmptyState>
          )
        }
        paging={{
          kind: 'cursor',
          hasMore: projects.hasNextPage,
          loading: projects.isFetchingNextPage,
          onLoad: () => void projects.fetchNextPage(),
          label: 'Load more projects',
          ...(projects.hasNextPage ? { shown: `${formatNumber(items.length)} projects shown` } : {}),
        }}
      />
      <ModalDialog opened={adding} onClose={() => setAdding(false)} title="Add Project">
        <AddProjectForm workspaceId={workspace.id} onDone={() => setAdding(false)} />
      </ModalDialog>
    </Stack>
  );
}

/**
 * Why Add Project is disabled, in view (a tooltip is out of reach on a touch screen), with the way to
 * more projects when the plan is what stops it: the plans for the owner, the pricing for a member.
 */
function AddProjectBlocked({ reason, planLimited, owner }: { reason: string; planLimited: boolean; owner: boolean }) {
  return (
    <Text size="sm" data-testid="add-project-blocked">
      Add Project is disabled: {reason}{' '}
      {planLimited &&
        (owner ? (
          <Anchor component={Link} to="/dashboard/subscription/plans">
            See the plans
          </Anchor>
        ) : (
          <Anchor href="/#pricing">See the plans</Anchor>
        ))}
    </Text>
  );
}

function ProjectCard({ project }: { project: ProjectDto }) {
  return (
    <Card component={Link} to={`/dashboard/project/${project.uuid}`} withBorder padding="md" h="100%" className="cairn-card-link">
      <Stack gap="xs">
        <Text fw={600} size="lg" style={{ overflowWrap: 'anywhere' }}>
          {project.project_name}
        </Text>
        <Group justify="space-between" gap="xs">
          <Group gap={6}>
            <Badge variant="light" color="gray" radius="sm">
              {networkLabel(project.network_id)}
            </Badge>
            <SandboxBadge sandbox={project.sandbox ?? false} />
          </Group>
          <Text size="sm" c="dimmed">
            Requests today: <strong>{formatNumber(project.requests_today)}</strong>
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}

/** The name of a new project, as the server's body has it; the network is chosen beside it. */
const addProjectFields = createProjectSchema.pick({ projectName: true });

function AddProjectForm({ workspaceId, onDone }: { workspaceId: number; onDone: () => void }) {
  const navigate = useNavigate();
  const create = useCreateProject(workspaceId);
  const { form, onSubmit } = useZodForm(addProjectFields, { projectName: '' });
  // Only the networks this server serves, the test networks first; the first is the default.
  const networks = useQuery(projectQueries.networks());
  const options = projectNetworkChoices(networks.data ?? (networks.isError ? fallbackNetworks : []));
  const [chosen, setChosen] = useState<string | null>(null);
  const networkId = chosen ?? (options[0] ? String(options[0].value) : '');

  const submit = onSubmit(({ projectName }) => {
    if (create.isPending || !networkId) return;
    create.mutate(
      { projectName, networkId: Number(networkId) },
      {
        onSuccess: ({ uuid, project }) => {
          notifications.show({ color: 'green', title: 'Project created', message: `${project.project_name} is ready to use.` });
          onDone();
          navigate(`/dashboard/project/${uuid}`);
        },
        onError: (error) => {
          notifications.show({ color: 'red', title: 'Project not created', message: errorMessage(error, 'The project could not be created.') });
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Project name"
          {...form.getInputProps('projectName')}
          maxLength={200}
          data-autofocus
        />
        <NativeSelect
          label="Network"
          value={networkId}
          onChange={(e) => setChosen(e.currentTarget.value)}
          disabled={networks.isPending}
          data={options.map((n) => ({ value: String(n.value), label: n.label }))}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending} disabled={!networkId}>
            Add Project
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
