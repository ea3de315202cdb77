import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CommunityEndpoint, ReviewedEndpoint, SubmitEndpointInput } from '../../../../../shared/endpoints';
import { apiFetch } from '../../api/client';

export const endpointQueries = {
  all: () => ['endpoints'] as const,
  mine: () =>
    queryOptions({
      queryKey: [...endpointQueries.all(), 'mine'] as const,
      queryFn: ({ signal }) => apiFetch<CommunityEndpoint[]>('/api/endpoints', { signal }),
    }),
  /** Every submission, for operators; 403 for anyone else. */
  review: () =>
    queryOptions({
      queryKey: [...endpointQueries.all(), 'review'] as const,
      queryFn: ({ signal }) => apiFetch<ReviewedEndpoint[]>('/api/operator/endpoints', { signal }),
      retry: false,
    }),
};

export function useSubmitEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubmitEndpointInput) => apiFetch<CommunityEndpoint>('/api/endpoints', { method: 'POST', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: endpointQueries.all() }),
  });
}

export function useReviewEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'enable' | 'disable' | 'reject' }) =>
      apiFetch<CommunityEndpoint>(`/api/operator/endpoints/${encodeURIComponent(String(id))}`, { method: 'POST', body: { action } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: endpointQueries.all() }),
  });
}
