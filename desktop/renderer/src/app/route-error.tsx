import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { ErrorView } from '../components/error-view';
import { PublicShell } from '../components/public-shell';
import { usePageTitle } from '../components/use-page-title';

const describeRouteError = (error: unknown): unknown => {
  if (isRouteErrorResponse(error)) {
    const data: unknown = error.data;
    if (typeof data === 'string' && data) return data;
    return `${error.status} ${error.statusText}`.trim();
  }
  return error;
};

/** The router's errorElement. `standalone` renders its own page frame (the root boundary). */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  usePageTitle('Error');
  const view = <ErrorView error={describeRouteError(error)} withRefresh />;
  return standalone ? <PublicShell size="sm">{view}</PublicShell> : view;
}
