import { queryOptions } from '@tanstack/react-query';
import { landingSample, type LatestBlock } from '../../../../../shared/landing-sample';
import { apiFetch } from '../../api/client';

export const landingQueries = {
  all: () => ['landing'] as const,
  /**
   * The latest block for the hero's terminal. The built-in sample stands in while the call is in flight
   * (placeholderData) and when it fails (the component falls back to it), so the terminal never sits empty.
   */
  latestBlock: () =>
    queryOptions({
      queryKey: [...landingQueries.all(), 'latest-block'],
      queryFn: ({ signal }) => apiFetch<LatestBlock>('/api/landing', { signal }),
      placeholderData: landingSample,
      staleTime: 20_000,
      refetchInterval: 20_000,
      retry: false,
    }),
};
