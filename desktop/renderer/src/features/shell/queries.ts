import { queryOptions } from '@tanstack/react-query';
import { DEPLOY_POLL_MS, type DeployVersion } from '../../../../../shared/site';
import { apiFetch } from '../../api/client';

export const deployQueries = {
  all: () => ['deploy-version'] as const,
  /** The build id on the server, polled every 30 s. A failed check is not retried: the next poll is soon. */
  version: () =>
    queryOptions({
      queryKey: [...deployQueries.all()],
      queryFn: ({ signal }) => apiFetch<DeployVersion>('/api/has-new-deploy', { signal }),
      staleTime: 0,
      retry: false,
      refetchInterval: DEPLOY_POLL_MS,
    }),
};
