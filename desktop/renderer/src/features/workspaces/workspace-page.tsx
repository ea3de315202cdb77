import { Group, Text } from '@mantine/core';
import { FactLine } from '../../components/fact-line';
import { PageLayout } from '../../components/page-layout';
import { RoleBadge } from '../../components/role-badge';
import { WorkspaceSettings } from './workspace-settings';
import { WORKSPACES } from './crumbs';
import { WithWorkspace } from './with-workspace';

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
