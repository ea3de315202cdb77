import { queryOptions } from '@tanstack/react-query';
import { landingSample, type LatestBlock } from '../../../../../shared/landing-sample';
import { apiFetch } from '../../api/client';

export const landingQueries = {
  all: () => ['landing'] as const,
  /**
   * The latest block for the hero's terminal. The built-in sample is the starting data, dated long ago so
   * the live block is fetched at once; when that call fails the sample stays, so the terminal never sits empty.
   */
  latestBlock: () =>
    queryOptions({
      queryKey: [...landingQueries.all(), 'latest-block'],
      queryFn: ({ signal }) => apiFetch<LatestBlock>('/api/landing', { signal }),
      initialData: landingSample,
      initialDataUpdatedAt: 0,
      staleTime: 20_000,
      refetchInterval: 20_000,
      retry: false,
    }),
};
