import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { findNetwork, ipfsNetwork, isDevnetNetwork, networkLabel } from '../../../../../shared/networks';
import { isApiError } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { formatDate, formatNumber } from '../../lib/format';
import { useSelectedWorkspace } from '../workspaces/index';
import { ApiExamples, RequestInsight, RequestsChart, SandboxBadge, StatsCards, statsQueries } from '../project-stats/index';
import { isMilkomeda, MilkomedaPanel } from '../milkomeda/index';
import { FaucetButton } from '../sandbox-faucet/index';
import { IpfsPanel } from '../ipfs/index';
import { DevnetCard } from '../devnets/index';
import { type ProjectWithRole } from './queries';
import { KeepKeyButton } from '../api-console/index';
import { PROJECTS } from './crumbs';
import { useProject } from './use-project';
import { ProjectIdCard } from './project-id-card';
import { AllowListsCard } from './allow-lists-card';
import { SubmissionsCard } from './submissions-card';
import { DAY_MS } from '../../../../../shared/time';

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
          <ProjectIdCard project={p} />
          {isMilkomeda(p.network_id) ? <MilkomedaPanel projectKey={p.project_id} sandbox={p.sandbox ?? false} /> : <ApiExamples projectKey={p.project_id} />}
        </SimpleGrid>
        {isDevnetNetwork(p.network_id) && <DevnetCard project={p} />}
        {p.network_id === ipfsNetwork.value && <IpfsPanel workspaceId={p.workspace_id} projectUuid={p.uuid} projectKey={p.project_id} />}
        <ProjectFacts project={p} />
        {findNetwork(p.network_id)?.family === 'cardano' && <SubmissionsCard projectUuid={p.uuid} />}
        <AllowListsCard key={`${p.uuid}:${JSON.stringify(p.allow_lists)}`} project={p} milkomeda={isMilkomeda(p.network_id)} />
        <StatsCards workspaceId={p.workspace_id} projectUuid={p.uuid} />
        <RequestInsight workspaceId={p.workspace_id} projectUuid={p.uuid} />
      </Stack>
    </PageLayout>
  );
}

function ProjectFacts({ project }: { project: ProjectWithRole }) {
  const { workspaces } = useSelectedWorkspace();
  const workspace = workspaces.find((w) => w.id === project.workspace_id);
  // Today's count from the history the chart refreshes (same cache), so the two never disagree.
  const history = useQuery(statsQueries.history(project.uuid));
  const now = Date.now();
  const today = history.data?.data.find((d) => d.time === now - (now % DAY_MS));
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
