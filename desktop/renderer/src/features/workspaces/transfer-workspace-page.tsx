import { Alert } from '@mantine/core';
import { can } from '../../../../../shared/permissions';
import { PageLayout } from '../../components/page-layout';
import { deniedReason } from '../../components/permission';
import { TransferForm } from './transfer-form';
import { WORKSPACES } from './crumbs';
import { WithWorkspace } from './with-workspace';

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
              {deniedReason(workspace.role_name, 'workspace.transfer')}
            </Alert>
          )}
        </PageLayout>
      )}
    </WithWorkspace>
  );
}
