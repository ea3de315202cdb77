import { Button, Group, Text } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
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
          actions={
            can(workspace.role_name, 'audit.view') ? (
              <Button component={Link} to={`/dashboard/workspaces/${workspace.id}/audit`} variant="default" leftSection={<IconListDetails size={16} aria-hidden />}>
                Audit log
              </Button>
            ) : undefined
          }
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
