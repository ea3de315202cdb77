import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomerDto } from '../../../../../shared/billing';
import { apiFetch } from '../../api/client';

interface LocalCheckout {
  id: string;
  mode: 'subscription' | 'payment';
  plan: string | null;
  period: string | null;
  boost: string | null;
  workspace_id: number | null;
  amount: number;
  status: 'open' | 'paid' | 'failed' | 'canceled';
}
interface LocalPortal {
  owner_email: string;
  /** `invoices`: an administrator of the owner's workspace, who may pay the open invoice and nothing else. */
  scope: 'invoices' | 'full';
  customer: CustomerDto;
}
export type PortalAction = 'pay_invoice' | 'renew_paid' | 'renew_failed' | 'cancel';

/** The built-in test billing's own checkout and portal (only when the server runs the local provider). */
export const localBillingQueries = {
  all: () => ['local-billing'] as const,
  checkout: (id: string) =>
    queryOptions({
      queryKey: [...localBillingQueries.all(), 'checkout', id] as const,
      queryFn: ({ signal }) => apiFetch<LocalCheckout>(`/api/billing/local/checkout/${encodeURIComponent(id)}`, { signal }),
    }),
  portal: (workspace: number | null) =>
    queryOptions({
      queryKey: [...localBillingQueries.all(), 'portal', workspace] as const,
      queryFn: ({ signal }) => apiFetch<LocalPortal>(`/api/billing/local/portal${workspace ? `?workspace=${workspace}` : ''}`, { signal }),
    }),
};

export function useCompleteLocalCheckout(id: string) {
  return useMutation({
    mutationFn: (outcome: 'paid' | 'failed' | 'canceled') => apiFetch<{ redirect: string }>(`/api/billing/local/checkout/${encodeURIComponent(id)}`, { method: 'POST', body: { outcome } }),
  });
}

export function usePortalAction(workspace: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: PortalAction) => apiFetch<LocalPortal>('/api/billing/local/portal', { method: 'POST', body: { action, ...(workspace ? { workspace } : {}) } }),
    onSettled: () => queryClient.invalidateQueries(),
  });
}
