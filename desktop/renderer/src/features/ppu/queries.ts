import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { PpuOrderDto, PpuQuoteDto, PpuSettingsDto } from '../../../../../shared/ppu';
import { isOpenOrder } from '../../../../../shared/ppu';
import { apiFetch } from '../../api/client';
import { pagedListQuery } from '../../api/pages';
import { invalidateQuotas } from '../workspaces/index';

const items = (requests: number) => ({ items: [{ item_type: 'requests' as const, item_quantity: requests }] });

export const ppuQueries = {
  all: () => ['ppu'] as const,
  settings: () =>
    queryOptions({
      queryKey: [...ppuQueries.all(), 'settings'] as const,
      queryFn: ({ signal }) => apiFetch<PpuSettingsDto>('/api/ppu/settings', { signal }),
      staleTime: 5 * 60_000,
    }),
  quote: (requests: number) =>
    queryOptions({
      queryKey: [...ppuQueries.all(), 'quote', requests] as const,
      queryFn: ({ signal }) => apiFetch<PpuQuoteDto>('/api/ppu/orders/quotes', { method: 'POST', body: items(requests), signal }),
      staleTime: 60_000,
      retry: false,
    }),
  /** The orders of the user's workspaces a page at a time, newest first. */
  history: () => pagedListQuery<PpuOrderDto, readonly unknown[]>([...ppuQueries.all(), 'orders'], '/api/ppu/orders'),
  /** One order; polled while it waits for its payment, so the page shows the live state. */
  order: (id: number) =>
    queryOptions({
      queryKey: [...ppuQueries.all(), 'orders', id] as const,
      queryFn: ({ signal }) => apiFetch<PpuOrderDto>(`/api/ppu/orders/${id}`, { signal }),
      refetchInterval: (q) => (q.state.data && !isOpenOrder(q.state.data.status) ? false : 2000),
    }),
};

export function useCreateOrder(workspaceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (requests: number) => apiFetch<PpuOrderDto>(`/api/workspaces/${workspaceId}/ppu/orders`, { method: 'POST', body: items(requests) }),
    onSuccess: (order) => {
      queryClient.setQueryData(ppuQueries.order(order.id).queryKey, order);
      return queryClient.invalidateQueries({ queryKey: ppuQueries.history().queryKey, exact: true });
    },
  });
}

/** Development only: pays the order from the sandbox faucet ('Simulate payment'). */
export function useSimulatePayment(orderId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ txHash: string; height: number }>(`/dev/ppu/orders/${orderId}/simulate-payment`, { method: 'POST' }),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: ppuQueries.all() }), invalidateQuotas(queryClient)]),
  });
}
