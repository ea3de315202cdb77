import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/client';
import { meQueries } from '../features/account/index';

// A 401 anywhere means the session ended: re-check /api/me so RequireAuth can send the user to sign-in.
function onSessionMaybeExpired(error: unknown, queryKey?: readonly unknown[]) {
  if (!isApiError(error, 401)) return;
  if (queryKey && queryKey[0] === meQueries.all()[0]) return;
  void queryClient.invalidateQueries({ queryKey: meQueries.all() });
}

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => onSessionMaybeExpired(error, query.queryKey) }),
  mutationCache: new MutationCache({ onError: (error) => onSessionMaybeExpired(error) }),
  defaultOptions: {
    queries: {
      // Client errors (signed out, not found, forbidden) will not change on retry; network and 5xx may.
      retry: (failureCount, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && failureCount < 2,
      staleTime: 10_000,
    },
  },
});
