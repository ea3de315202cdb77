import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomerSettings } from '../../../../../shared/workspaces';
import { apiFetch } from '../../api/client';

/** The user's preferences, one cache for the settings page and the consent modal of the shell. */
export const settingsQueries = {
  all: () => ['customer-settings'] as const,
  /** marketing_consent is null until they have chosen. */
  settings: () =>
    queryOptions({
      queryKey: [...settingsQueries.all()],
      queryFn: ({ signal }) => apiFetch<CustomerSettings>('/api/customer/settings', { signal }),
    }),
};

/** Stores the preferences; the query then holds what the server answered. */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { marketing_consent: boolean }) =>
      apiFetch<CustomerSettings>('/api/customer/settings', { method: 'PUT', body }),
    onSuccess: (settings) => queryClient.setQueryData(settingsQueries.settings().queryKey, settings),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsQueries.all() }),
  });
}
