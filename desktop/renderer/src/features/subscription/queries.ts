import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  BillingInfoDto,
  CheckoutInput,
  CheckoutResultDto,
  CustomerSubscriptionDto,
  PlanChangePreviewDto,
  SubscriptionLogDto,
  WorkspaceBillingDto,
} from '../../../../../shared/billing';
import type { AddonDto } from '../../../../../shared/workspaces';
import { apiFetch } from '../../api/client';
import { pagedListQuery } from '../../api/pages';
import { customerQuery } from '../pricing/index';
import { invalidateQuotas, workspaceQueries } from '../workspaces/index';

export const billingQueries = {
  all: () => ['billing'] as const,
  /** Plans with this server's price ids, the boosts, and which billing runs. */
  info: () =>
    queryOptions({
      queryKey: [...billingQueries.all(), 'info'] as const,
      queryFn: ({ signal }) => apiFetch<BillingInfoDto>('/api/billing/plans', { signal }),
      staleTime: 5 * 60_000,
    }),
  customer: customerQuery,
  /** The workspace owner's billing state, as any member may see it. */
  workspace: (id: number) =>
    queryOptions({
      queryKey: [...workspaceQueries.scope(id), 'billing'] as const,
      queryFn: ({ signal }) => apiFetch<WorkspaceBillingDto>(`/api/workspaces/${id}/billing`, { signal }),
      refetchInterval: 30_000,
    }),
  addons: (id: number) =>
    queryOptions({
      queryKey: [...workspaceQueries.scope(id), 'addons'] as const,
      queryFn: ({ signal }) => apiFetch<AddonDto[]>(`/api/workspaces/${id}/addons`, { signal }),
    }),
  /** The subscription log a page at a time, newest first. */
  logs: () => pagedListQuery<SubscriptionLogDto, readonly unknown[]>([...billingQueries.all(), 'logs'], '/api/logs'),
};

/** Everything a plan change moves: the customer, logs, every workspace's billing and quota. */
function useInvalidateBilling() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: billingQueries.all() }),
      queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === workspaceQueries.all()[0] && (q.queryKey[2] === 'billing' || q.queryKey[2] === 'addons') }),
      invalidateQuotas(queryClient),
    ]);
}

/** Starts a checkout; the caller sends the browser to the answered address. */
export function useCheckout() {
  return useMutation({
    mutationFn: (input: CheckoutInput) => apiFetch<CheckoutResultDto>('/api/checkout', { method: 'POST', body: input }),
  });
}

/** What a plan change would charge (null: back to STARTER); refused with the rule's words when the change may not happen. Changes nothing. */
export function usePreviewPlanChange() {
  return useMutation({
    mutationFn: (newPriceId: string | null) => apiFetch<PlanChangePreviewDto>('/api/stripe/preview_subscription_change', { method: 'POST', body: { newPriceId } }),
  });
}

export function useUpdateSubscription() {
  const invalidate = useInvalidateBilling();
  return useMutation({
    mutationFn: (newPriceId: string) => apiFetch<CustomerSubscriptionDto[]>('/api/stripe/update_subscription', { method: 'POST', body: { newPriceId } }),
    onSettled: invalidate,
  });
}

export function useCancelSubscription() {
  const invalidate = useInvalidateBilling();
  return useMutation({
    mutationFn: () => apiFetch<CustomerSubscriptionDto[]>('/api/stripe/cancel_subscription', { csrf: true }),
    onSettled: invalidate,
  });
}

export { useInvalidateBilling };
