import { useParams } from 'react-router-dom';
import { FeatureUnavailable } from '../../components/feature-unavailable';
import { PageLayout, type Crumb } from '../../components/page-layout';

const WORKSPACES: Crumb = { label: 'Workspaces', to: '/dashboard/workspaces' };

function useWorkspaceCrumb(): Crumb {
  const { id = '' } = useParams();
  return { label: 'Workspace', to: `/dashboard/workspaces/${encodeURIComponent(id)}` };
}

export function WorkspacesPage() {
  return (
    <PageLayout title="Workspaces">
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function WorkspacePage() {
  return (
    <PageLayout title="Workspace" breadcrumbs={[WORKSPACES, { label: 'Workspace' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function TransferWorkspacePage() {
  const workspace = useWorkspaceCrumb();
  return (
    <PageLayout title="Transfer workspace" breadcrumbs={[WORKSPACES, workspace, { label: 'Transfer workspace' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function WorkspaceOrderPage() {
  const workspace = useWorkspaceCrumb();
  return (
    <PageLayout title="Order" breadcrumbs={[WORKSPACES, workspace, { label: 'Order' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function WorkspaceOrderDetailPage() {
  const workspace = useWorkspaceCrumb();
  return (
    <PageLayout title="Order" breadcrumbs={[WORKSPACES, workspace, { label: 'Order' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}
