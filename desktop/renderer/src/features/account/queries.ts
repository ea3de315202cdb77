import { queryOptions } from '@tanstack/react-query';
import type { Me } from '../../../../../shared/api';
import { apiFetch } from '../../api/client';

export const meQueries = {
  all: () => ['me'] as const,
  /** The signed-in user; fails with ApiError 401 when signed out. */
  me: () =>
    queryOptions({
      queryKey: [...meQueries.all()],
      queryFn: ({ signal }) => apiFetch<Me>('/api/me', { signal }),
      staleTime: 60_000,
    }),
  /** For public pages: the signed-in user, or null for a visitor (never a 401). */
  session: () =>
    queryOptions({
      queryKey: [...meQueries.all(), 'session'],
      queryFn: ({ signal }) => apiFetch<Me | null>('/api/session', { signal }),
      staleTime: 60_000,
    }),
};
