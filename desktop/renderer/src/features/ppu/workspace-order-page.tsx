import { Alert } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { workspaceQueries } from '../workspaces/queries';
import { WORKSPACES } from '../workspaces/crumbs';
import { OrderForm } from './order-form';

function useWorkspaceFromPath(): { id: number; workspace: WorkspaceDto | undefined; isPending: boolean; error: unknown } {
  const { id = '' } = useParams();
  const list = useQuery(workspaceQueries.list());
  const n = Number(id);
  return { id: n, workspace: list.data?.find((w) => w.id === n), isPending: list.isPending, error: list.error };
}

export function WorkspaceOrderPage() {
  const { id, workspace, isPending, error } = useWorkspaceFromPath();
  return (
    <PageLayout title="Order" breadcrumbs={[WORKSPACES, { label: workspace?.name ?? 'Workspace', to: `/dashboard/workspaces/${id}` }, { label: 'Order' }]}>
      {isPending ? (
        <PageLoader label="Loading the workspace…" />
      ) : error ? (
        <ErrorView error={error} withRefresh />
      ) : workspace ? (
        <OrderForm workspace={workspace} orderPath={(orderId) => `/dashboard/workspaces/${id}/order/${orderId}`} />
      ) : (
        <Alert color="red">Workspace not found.</Alert>
      )}
    </PageLayout>
  );
}
