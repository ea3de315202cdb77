import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomerSettings } from '../../../../../shared/workspaces';
import type { AccountDeletionPlan, AccountSessionDto } from '../../../../../shared/account';
import { apiFetch, resetCsrfToken } from '../../api/client';
import { pagedListQuery } from '../../api/pages';

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

/** The security section of Settings: the user's sessions and what deleting the account would do. */
export const accountSecurityQueries = {
  all: () => ['account-security'] as const,
  /** The user's sessions a page at a time: the one in use first, then the most recently seen. */
  sessions: () => pagedListQuery<AccountSessionDto, readonly unknown[]>([...accountSecurityQueries.all(), 'sessions'], '/api/account/sessions'),
  deletion: () =>
    queryOptions({
      queryKey: [...accountSecurityQueries.all(), 'deletion'],
      queryFn: ({ signal }) => apiFetch<AccountDeletionPlan>('/api/account/deletion', { signal }),
    }),
};

/** Signs out one of the user's other sessions. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ ended: true }>(`/api/account/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountSecurityQueries.sessions().queryKey }),
  });
}

/** Signs out every session of the user but this one. */
export function useSignOutOthers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ ended: number; message: string }>('/api/account/sessions/sign-out-others', { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountSecurityQueries.sessions().queryKey }),
  });
}

/** Deletes the account; the caller then forgets everything cached and goes to sign-in. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: async (confirmation: string) => {
      const result = await apiFetch<{ deleted: true; redirect: string }>('/api/account', { method: 'DELETE', body: { confirmation } });
      resetCsrfToken();
      return result;
    },
  });
}
