import { queryOptions } from '@tanstack/react-query';
import { STATUS_REFRESH_MS, type StatusReport } from '../../../../../shared/status';
import { apiFetch } from '../../api/client';

export const statusQueries = {
  report: () =>
    queryOptions({
      queryKey: ['status'] as const,
      queryFn: ({ signal }) => apiFetch<StatusReport>('/api/status', { signal }),
      refetchInterval: STATUS_REFRESH_MS,
      refetchIntervalInBackground: false,
    }),
};
