import { queryOptions } from '@tanstack/react-query';
import type { IpfsProjectDto } from '../../../../../shared/ipfs';
import { apiFetch } from '../../api/client';

/** Storage figures follow the quota's refresh (spec section 9: 30 s). */
const IPFS_REFRESH_MS = 30_000;
export const PINS_PER_PAGE = 20;

export const ipfsQueries = {
  all: () => ['ipfs'] as const,
  /** An IPFS project's storage (pooled over the subscription) and one page of its pins, newest first. */
  project: (workspaceId: number, uuid: string, page: number) =>
    queryOptions({
      queryKey: [...ipfsQueries.all(), 'project', workspaceId, uuid, page] as const,
      queryFn: ({ signal }) =>
        apiFetch<IpfsProjectDto>(`/api/workspaces/${encodeURIComponent(String(workspaceId))}/projects/${encodeURIComponent(uuid)}/ipfs?page=${page}`, { signal }),
      refetchInterval: IPFS_REFRESH_MS,
      placeholderData: (previous) => previous,
    }),
};
