import { useEffect, useState, type FormEvent } from 'react';
import { Badge, Button, Card, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconFolderOpen, IconSettings, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
import { NETWORK_NOT_AVAILABLE, networkLabel, networkOptions } from '../../../../../shared/networks';
import { projectNameSchema, type ProjectDto, type WorkspaceDto } from '../../../../../shared/workspaces';
import { errorMessage, isApiError } from '../../api/client';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal';
import { EmptyState } from '../../components/empty-state';
import { ErrorView } from '../../components/error-view';
import { FactLine } from '../../components/fact-line';
import { ModalDialog } from '../../components/modal-dialog';
import { NameForm } from '../../components/name-form';
import { PageLayout, type Crumb } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { ReasonTooltip } from '../../components/reason-tooltip';
import { RoleBadge } from '../../components/role-badge';
import { SectionHeading } from '../../components/section-heading';
import { formatDate, formatNumber } from '../../lib/format';
import { addProjectBlockedReason, workspaceUsageText } from '../workspaces/limits';
import { workspaceQueries } from '../workspaces/queries';
import { useSelectedWorkspace, WithSelectedWorkspace } from '../workspaces/selected-workspace';
import { ApiExamples, RequestInsight, RequestsChart, SandboxBadge, StatsCards, statsQueries } from '../project-stats';
import { isMilkomeda, MilkomedaPanel } from '../milkomeda';
import { WebhooksSection } from '../webhooks/webhooks-section';
import { FaucetButton } from '../sandbox-faucet/faucet-button';
import { IpfsPanel } from '../ipfs';
import { projectQueries, useCreateProject, useDeleteProject, useRenameProject, type ProjectWithRole } from './queries';
import { KeepKeyButton } from '../api-console/keep-key-button';

const PROJECTS: Crumb = { label: 'Projects', to: '/dashboard' };

/** Should GET /api/networks fail: every enabled network, and the server still refuses a wrong one. */
const fallbackNetworks = networkOptions(() => true);

// ---- /dashboard ----

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
  const projects = useQuery(projectQueries.list(workspace.id));
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
      {projects.isPending ? (
        <PageLoader label="Loading projects…" />
      ) : projects.isError ? (
        <ErrorView error={projects.error} withRefresh />
      ) : projects.data.length === 0 ? (
        <EmptyState icon={IconFolderOpen} title="No projects yet">
          {can(workspace.role_name, 'projects.add')
            ? 'Add a project to get a project ID for the Cardano or IPFS API.'
            : 'Nobody has added a project to this workspace yet.'}
        </EmptyState>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {projects.data.map((p) => (
            <li key={p.uuid}>
              <ProjectCard project={p} />
            </li>
          ))}
        </SimpleGrid>
      )}
      <ModalDialog opened={adding} onClose={() => setAdding(false)} title="Add Project">
        <AddProjectForm workspaceId={workspace.id} onDone={() => setAdding(false)} />
      </ModalDialog>
    </Stack>
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

function AddProjectForm({ workspaceId, onDone }: { workspaceId: number; onDone: () => void }) {
  const navigate = useNavigate();
  const create = useCreateProject(workspaceId);
  const [name, setName] = useState('');
  // Networks this server cannot serve are listed but cannot be chosen; the first servable is the default.
  const networks = useQuery(projectQueries.networks());
  const options = networks.data ?? (networks.isError ? fallbackNetworks : []);
  const [chosen, setChosen] = useState<string | null>(null);
  const firstAvailable = options.find((n) => n.available);
  const networkId = chosen ?? (firstAvailable ? String(firstAvailable.value) : '');
  const unavailable = options.some((n) => !n.available);
  const [nameError, setNameError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending || !networkId) return;
    const parsed = projectNameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? 'Project name is not valid');
      return;
    }
    setNameError(null);
    create.mutate(
      { projectName: parsed.data, networkId: Number(networkId) },
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
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Project name"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            if (nameError) setNameError(null);
          }}
          error={nameError}
          maxLength={200}
          data-autofocus
        />
        <NativeSelect
          label="Network"
          value={networkId}
          onChange={(e) => setChosen(e.currentTarget.value)}
          disabled={networks.isPending}
          data={options.map((n) => ({ value: String(n.value), label: n.available ? n.label : `${n.label} (${NETWORK_NOT_AVAILABLE})`, disabled: !n.available }))}
          description={unavailable ? `Networks marked '${NETWORK_NOT_AVAILABLE}' have no backend here or are turned off; the status page shows which networks answer.` : undefined}
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

// ---- /dashboard/project/:id ----

function useProject() {
  const { id = '' } = useParams();
  return useQuery(projectQueries.detail(id));
}

export function ProjectPage() {
  const project = useProject();
  if (!project.data) {
    return (
      <PageLayout title="Project" breadcrumbs={[PROJECTS, { label: 'Project' }]}>
        {project.isPending ? <PageLoader label="Loading project…" /> : <ErrorView error={project.error} withRefresh={!isApiError(project.error, 404)} />}
      </PageLayout>
    );
  }
  const p = project.data;
  return (
    <PageLayout
      title={p.project_name}
      breadcrumbs={[PROJECTS, { label: p.project_name }]}
      actions={
        <Group gap="xs">
          <KeepKeyButton projectUuid={p.uuid} />
          <Button component={Link} to={`/dashboard/project/${p.uuid}/settings`} variant="default" leftSection={<IconSettings size={16} aria-hidden />}>
            Settings
          </Button>
        </Group>
      }
    >
      <Stack gap="lg">
        <SandboxBadge sandbox={p.sandbox ?? false} />
        <FaucetButton networkId={p.network_id} sandbox={p.sandbox ?? false} />
        <RequestsChart projectUuid={p.uuid} workspaceId={p.workspace_id} />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <ProjectIdCard projectId={p.project_id} />
          {isMilkomeda(p.network_id) ? <MilkomedaPanel projectKey={p.project_id} sandbox={p.sandbox ?? false} /> : <ApiExamples projectKey={p.project_id} networkId={p.network_id} />}
        </SimpleGrid>
        {p.network_id === 2 && <IpfsPanel workspaceId={p.workspace_id} projectUuid={p.uuid} projectKey={p.project_id} />}
        <ProjectFacts project={p} />
        <StatsCards workspaceId={p.workspace_id} projectUuid={p.uuid} />
        <RequestInsight workspaceId={p.workspace_id} projectUuid={p.uuid} />
      </Stack>
    </PageLayout>
  );
}

/** The project's key with a copy button whose confirmation shows for 0.5 s (spec section 9). */
export function ProjectIdCard({ projectId }: { projectId: string }) {
  const clipboard = useClipboard({ timeout: 500 });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Project ID
        </Title>
        <Text size="sm" c="dimmed">
          Send it in the project_id header of every API request.
        </Text>
        <Group gap="sm" wrap="nowrap" align="center">
          <Text
            component="code"
            ff="monospace"
            size="sm"
            p="xs"
            bg="gray.1"
            style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', borderRadius: 'var(--mantine-radius-sm)' }}
            data-testid="project-id"
          >
            {projectId}
          </Text>
          <Button
            variant={clipboard.copied ? 'filled' : 'light'}
            color={clipboard.copied ? 'teal' : undefined}
            onClick={() => clipboard.copy(projectId)}
            data-testid="copy-project-id"
            leftSection={clipboard.copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            miw={96}
          >
            {clipboard.copied ? 'Copied' : 'Copy'}
          </Button>
        </Group>
        <Text size="sm" role="status" aria-live="polite" c={clipboard.error ? 'red.8' : undefined}>
          {clipboard.error ? 'The browser did not allow copying. Select the project ID and copy it by hand.' : ''}
        </Text>
      </Stack>
    </Paper>
  );
}

function ProjectFacts({ project }: { project: ProjectWithRole }) {
  const { workspaces } = useSelectedWorkspace();
  const workspace = workspaces.find((w) => w.id === project.workspace_id);
  // Today's count from the history the chart refreshes (same cache), so the two never disagree.
  const history = useQuery(statsQueries.history(project.uuid));
  const now = Date.now();
  const today = history.data?.data.find((d) => d.time === now - (now % 86_400_000));
  const facts: Array<[string, string]> = [
    ['Network', networkLabel(project.network_id)],
    ['Created', formatDate(project.created_at)],
    ['Requests today', formatNumber(today?.requestCount ?? project.requests_today)],
  ];
  if (workspace) facts.push(['Workspace', workspace.name]);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Details
        </Title>
        <Stack component="dl" gap="xs" m={0}>
          {facts.map(([term, value]) => (
            <Group key={term} justify="space-between" gap="xs" wrap="nowrap" align="baseline">
              <Text component="dt" size="sm" c="dimmed">
                {term}
              </Text>
              <Text component="dd" size="sm" fw={500} m={0} ta="right" style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Text>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}

// ---- /dashboard/project/:id/settings ----

export function ProjectSettingsPage() {
  const project = useProject();
  const { id = '' } = useParams();
  if (!project.data) {
    return (
      <PageLayout
        title="Project settings"
        breadcrumbs={[PROJECTS, { label: 'Project', to: `/dashboard/project/${encodeURIComponent(id)}` }, { label: 'Settings' }]}
      >
        {project.isPending ? <PageLoader label="Loading project…" /> : <ErrorView error={project.error} withRefresh={!isApiError(project.error, 404)} />}
      </PageLayout>
    );
  }
  const p = project.data;
  return (
    <PageLayout
      title="Project settings"
      breadcrumbs={[PROJECTS, { label: p.project_name, to: `/dashboard/project/${p.uuid}` }, { label: 'Settings' }]}
    >
      <RenameProject key={p.uuid} project={p} />
      <DeleteProject project={p} />
    </PageLayout>
  );
}

function RenameProject({ project }: { project: ProjectWithRole }) {
  const rename = useRenameProject(project);
  const allowed = can(project.role_name, 'projects.update');
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Name
        </Title>
        <NameForm
          label="Project name"
          initialName={project.project_name}
          schema={projectNameSchema}
          saving={rename.isPending}
          disabledReason={allowed ? null : 'Only the owner, administrators and maintainers can rename projects.'}
          onSave={(name) =>
            rename.mutate(name, {
              onSuccess: () => notifications.show({ color: 'green', title: 'Project renamed', message: `The project is now called ${name}.` }),
              onError: (error) =>
                notifications.show({ color: 'red', title: 'Project not renamed', message: errorMessage(error, 'The project could not be renamed.') }),
            })
          }
        />
      </Stack>
    </Paper>
  );
}

function DeleteProject({ project }: { project: ProjectWithRole }) {
  const navigate = useNavigate();
  const remove = useDeleteProject(project);
  const [confirming, setConfirming] = useState(false);
  const reason = can(project.role_name, 'projects.delete') ? null : 'Only the owner, administrators and maintainers can delete projects.';
  return (
    <Paper withBorder p="md" style={{ borderColor: 'var(--mantine-color-red-3)' }}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Delete project
        </Title>
        <Text size="sm">Deleting the project revokes its project ID: requests that send it stop working at once.</Text>
        <Group justify="flex-end">
          <ReasonTooltip reason={reason}>
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} disabled={!!reason} onClick={() => setConfirming(true)}>
              Delete project
            </Button>
          </ReasonTooltip>
        </Group>
      </Stack>
      <ConfirmDeleteModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Delete ${project.project_name}?`}
        confirmation={project.project_name}
        loading={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notifications.show({ color: 'green', title: 'Project deleted', message: `${project.project_name} has been deleted.` });
              navigate('/dashboard');
            },
            onError: (error) =>
              notifications.show({ color: 'red', title: 'Project not deleted', message: errorMessage(error, 'The project could not be deleted.') }),
          })
        }
      />
    </Paper>
  );
}
