import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomerSettings } from '../../../../../shared/workspaces';
import { apiFetch } from '../../api/client';

export const settingsQueries = {
  all: () => ['customer-settings'] as const,
  /** The user's preferences; marketing_consent is null until they have chosen. */
  settings: () =>
    queryOptions({
      queryKey: [...settingsQueries.all()],
      queryFn: ({ signal }) => apiFetch<CustomerSettings>('/api/customer/settings', { signal }),
    }),
};

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { marketing_consent: boolean }) =>
      apiFetch<CustomerSettings>('/api/customer/settings', { method: 'PUT', body }),
    onSuccess: (settings) => queryClient.setQueryData(settingsQueries.settings().queryKey, settings),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsQueries.all() }),
  });
}
