import { queryOptions } from '@tanstack/react-query';
import type { SiteInfo } from '../../../../../shared/site';
import { apiFetch } from '../../api/client';

export const siteQueries = {
  all: () => ['site'] as const,
  /** Links, contacts and the maintenance flag from configuration (public). */
  site: () =>
    queryOptions({
      queryKey: [...siteQueries.all()],
      queryFn: ({ signal }) => apiFetch<SiteInfo>('/api/site', { signal }),
      staleTime: 5 * 60_000,
    }),
};
