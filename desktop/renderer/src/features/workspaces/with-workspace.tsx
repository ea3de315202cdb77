import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { isApiError } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { PageLayout, type Crumb } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { workspaceQueries } from './queries';
import { WORKSPACES } from './crumbs';

/** The workspace id of the route, or null when it is not a positive integer (answered like a 404). */
function useWorkspaceId(): number | null {
  const { id = '' } = useParams();
  const n = Number(id);
  return /^\d+$/.test(id) && Number.isSafeInteger(n) && n > 0 ? n : null;
}

const NOT_FOUND = 'Workspace not found.';

/** Loads the workspace of the route; renders the loader or the error (404 included) until it is there. */
export function WithWorkspace({ title, crumbs, children }: { title: string; crumbs?: (w: WorkspaceDto | null) => Crumb[]; children: (w: WorkspaceDto) => ReactNode }) {
  const id = useWorkspaceId();
  const detail = useQuery({ ...workspaceQueries.detail(id ?? 0), enabled: id !== null });
  if (!detail.data) {
    return (
      <PageLayout title={title} breadcrumbs={crumbs?.(null) ?? [WORKSPACES, { label: title }]}>
        {id !== null && detail.isPending ? (
          <PageLoader label="Loading workspace…" />
        ) : (
          <ErrorView error={id === null ? NOT_FOUND : detail.error} withRefresh={id !== null && !isApiError(detail.error, 404)} />
        )}
      </PageLayout>
    );
  }
  return <>{children(detail.data)}</>;
}
