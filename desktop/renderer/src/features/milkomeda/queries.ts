import { queryOptions } from '@tanstack/react-query';
import type { DevChainInfo } from '../../../../../shared/milkomeda';
import { apiFetch } from '../../api/client';

export const milkomedaQueries = {
  all: () => ['milkomeda'] as const,
  /** The embedded development chain's funded accounts; asked only for a project marked 'Sandbox data'. */
  devChain: () =>
    queryOptions({
      queryKey: [...milkomedaQueries.all(), 'dev-chain'] as const,
      queryFn: ({ signal }) => apiFetch<DevChainInfo>('/api/milkomeda/dev-chain', { signal }),
      staleTime: Infinity,
      retry: false,
    }),
};
