import { Alert } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { isApiError } from '../../api/client';
import { workspaceQueries, WORKSPACES } from '../workspaces/index';
import { OrderForm } from './order-form';

function useWorkspaceFromPath(): { id: number; workspace: WorkspaceDto | undefined; isPending: boolean; error: unknown } {
  const { id = '' } = useParams();
  const n = Number(id);
  const valid = Number.isSafeInteger(n) && n > 0;
  const one = useQuery({ ...workspaceQueries.detail(valid ? n : 0), enabled: valid, retry: (count, err) => !isApiError(err, 404) && count < 3 });
  // Not the user's (404) reads as not found, like an id that is no number.
  return { id: n, workspace: one.data, isPending: valid && one.isPending && !one.isError, error: isApiError(one.error, 404) ? null : one.error };
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
