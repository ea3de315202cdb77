import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import type { DevnetStateDto } from '../../../../../shared/devnets';

const base = (uuid: string) => `/api/projects/${encodeURIComponent(uuid)}/devnet`;

export const devnetQueries = {
  all: () => ['devnets'] as const,
  /** A devnet project's chain: its tip moves every block, so the card reads it again every 2 s. */
  state: (uuid: string) =>
    queryOptions({
      queryKey: [...devnetQueries.all(), 'state', uuid] as const,
      queryFn: ({ signal }) => apiFetch<DevnetStateDto>(base(uuid), { signal }),
      refetchInterval: 2_000,
    }),
};

/** One steering call (POST /api/projects/:uuid/devnet/<path>, or another method); the card's state is read again after it. */
export interface DevnetCall {
  method?: 'POST' | 'PUT' | 'DELETE';
  /** After /devnet: '' (create), '/blocks', '/pause', '/snapshots/<name>/restore' … */
  path: string;
  body?: unknown;
}

export function useDevnetCall(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (c: DevnetCall) => apiFetch<DevnetStateDto & { tx_hash?: string; state?: DevnetStateDto }>(`${base(uuid)}${c.path}`, { method: c.method ?? 'POST', body: c.body ?? (c.method === 'DELETE' ? undefined : {}) }),
    onSuccess: (answer) => {
      const state = answer.state ?? answer;
      if ('tip' in state) queryClient.setQueryData(devnetQueries.state(uuid).queryKey, state);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: devnetQueries.state(uuid).queryKey }),
  });
}
