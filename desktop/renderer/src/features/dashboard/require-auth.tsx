import { useEffect, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, useLocation } from 'react-router-dom';
import { signInPathFor } from '../../../../../shared/routes';
import { isApiError } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { PageLoader } from '../../components/page-loader';
import { PublicShell } from '../../components/public-shell';
import { meQueries } from '../account/index';

/**
 * Renders its children only for a signed-in user. When /api/me answers 401 (never signed in, or the
 * session expired) it sends the user to sign-in with a way back to the current page.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const me = useQuery(meQueries.me());
  const queryClient = useQueryClient();

  // Client-side navigation keeps this guard mounted, so re-check the session on each page change
  // (an in-flight check is shared, not repeated).
  useEffect(() => {
    void queryClient.prefetchQuery({ ...meQueries.me(), staleTime: 0 });
  }, [location.pathname, queryClient]);

  if (isApiError(me.error, 401)) {
    return <Navigate to={signInPathFor(location.pathname + location.search)} replace />;
  }
  // A failed background re-check (network blip) keeps the page; only a 401 signs the user out.
  if (me.data) return <>{children}</>;
  if (me.isPending) {
    return (
      <PublicShell>
        <PageLoader label="Checking your session…" />
      </PublicShell>
    );
  }
  return (
    <PublicShell size="sm">
      <ErrorView error={me.error} withRefresh />
    </PublicShell>
  );
}
