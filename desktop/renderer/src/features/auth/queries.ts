import { queryOptions, useMutation } from '@tanstack/react-query';
import type { SignInOptions } from '../../../../../shared/auth';
import { apiFetch, resetCsrfToken } from '../../api/client';

export const authQueries = {
  all: () => ['auth'] as const,
  /** Which sign-in options this server offers (e-mail, captcha site key, OAuth providers). */
  providers: () =>
    queryOptions({
      queryKey: [...authQueries.all(), 'providers'],
      queryFn: ({ signal }) => apiFetch<SignInOptions>('/auth/providers', { signal }),
      staleTime: 5 * 60_000,
    }),
};

interface EmailSignInBody {
  email: string;
  captchaToken: string | null;
  callbackUrl: string;
}

/** Asks the server to e-mail a sign-in link. */
export function useEmailSignIn() {
  return useMutation({
    mutationFn: (body: EmailSignInBody) =>
      apiFetch<{ redirect: string }>('/auth/signin/email', { method: 'POST', body }),
  });
}

/** Ends the session on the server. The caller then forgets everything cached for the user. */
export async function signOut(): Promise<void> {
  await apiFetch<{ redirect: string }>('/auth/signout', { method: 'POST' });
  resetCsrfToken();
}
