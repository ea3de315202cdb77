import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { OperatorUserDto } from '../../../../../shared/billing';
import type { BoostType, PlanName, SubscriptionStatus } from '../../../../../shared/plans';
import { apiFetch } from '../../api/client';

export const operatorQueries = {
  all: () => ['operator'] as const,
  users: (search: string) =>
    queryOptions({
      queryKey: [...operatorQueries.all(), 'users', search] as const,
      queryFn: ({ signal }) => apiFetch<OperatorUserDto[]>(`/api/operator/users${search ? `?search=${encodeURIComponent(search)}` : ''}`, { signal }),
    }),
};

export function useSetPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { userId: number; plan: PlanName; status: SubscriptionStatus }) =>
      apiFetch<OperatorUserDto>(`/api/operator/users/${v.userId}/plan`, { method: 'PUT', body: { plan: v.plan, status: v.status } }),
    onSettled: () => queryClient.invalidateQueries(),
  });
}

export function useGrantBoost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { userId: number; type: BoostType; workspaceId?: number }) =>
      apiFetch<OperatorUserDto>(`/api/operator/users/${v.userId}/boosts`, { method: 'POST', body: { type: v.type, ...(v.workspaceId ? { workspaceId: v.workspaceId } : {}) } }),
    onSettled: () => queryClient.invalidateQueries(),
  });
}
