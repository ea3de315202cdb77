import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router-dom';
import { projectNameSchema } from '../../../../../shared/workspaces';
import { findNetwork } from '../../../../../shared/networks';
import { errorMessage, isApiError } from '../../api/client';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal';
import { ErrorView } from '../../components/error-view';
import { NameForm } from '../../components/name-form';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { ReasonTooltip } from '../../components/reason-tooltip';
import { deniedReason } from '../../components/permission';
import { useDeleteProject, useRenameProject, type ProjectWithRole } from './queries';
import { PROJECTS } from './crumbs';
import { useProject } from './use-project';
import { TxConfirmationsCard } from './tx-confirmations-card';

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
      {/* Transactions are tracked on sandbox Cardano networks only. */}
      {findNetwork(p.network_id)?.family === 'cardano' && <TxConfirmationsCard key={`tx-${p.uuid}`} project={p} />}
      <DeleteProject project={p} />
    </PageLayout>
  );
}

function RenameProject({ project }: { project: ProjectWithRole }) {
  const rename = useRenameProject(project);
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
          disabledReason={deniedReason(project.role_name, 'projects.update')}
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
  const reason = deniedReason(project.role_name, 'projects.delete');
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
