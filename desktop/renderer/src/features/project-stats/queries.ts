import { queryOptions } from '@tanstack/react-query';
import type { ApiErrorBody } from '../../../../../shared/api';
import type { SiteInfo } from '../../../../../shared/site';
import type { ProjectHistory, ProjectStats } from '../../../../../shared/usage';
import type { ProjectInsight } from '../../../../../shared/insight';
import { ApiError, apiFetch } from '../../api/client';
import { siteQueries } from '../site/index';
import { withPrivateNetwork } from './country';

/** Spec section 9: project stats refresh every 15.6 s, the history every 15 s. */
const STATS_REFRESH_MS = 15_600;
const HISTORY_REFRESH_MS = 15_000;

/**
 * GET /api/projects/:uuid/history answers {data: [...], max} with no second envelope, so apiFetch (which
 * returns only `data`) would drop `max`. Errors are read the way apiFetch reads them.
 */
async function fetchHistory(uuid: string, signal: AbortSignal): Promise<ProjectHistory> {
  let res: Response;
  try {
    res = await fetch(`/api/projects/${encodeURIComponent(uuid)}/history`, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.');
  }
  const body = (await res.json().catch(() => null)) as (Partial<ProjectHistory> & Partial<ApiErrorBody>) | null;
  if (!res.ok) {
    const err = body?.error;
    if (err && typeof err.message === 'string') throw new ApiError(res.status, err.code ?? 'error', err.message);
    throw new ApiError(res.status, 'http_error', `The server answered with status ${res.status}.`);
  }
  if (!body || !Array.isArray(body.data)) {
    throw new ApiError(res.status, 'malformed_response', 'The server sent a response that could not be read.');
  }
  const data = body.data;
  const max = typeof body.max === 'number' ? body.max : data.reduce((m, d) => Math.max(m, d.requestCount), 0);
  return { data, max };
}

/** GET /api/site may carry the gateway's public URL; without it the gateway is assumed on port 3001 of this host. */
export const gatewayUrlOf = (site: SiteInfo | undefined): string => {
  const configured = site?.gatewayUrl;
  if (typeof configured === 'string' && configured) return configured.replace(/\/+$/, '');
  return `${window.location.protocol}//${window.location.hostname}:3001`;
};

export const statsQueries = {
  all: () => ['project-stats'] as const,
  /** TOP 10 countries, IP addresses, endpoints and browsers over the last 30 days, with the total. */
  stats: (workspaceId: number, uuid: string) =>
    queryOptions({
      queryKey: [...statsQueries.all(), 'stats', workspaceId, uuid] as const,
      queryFn: ({ signal }) =>
        apiFetch<ProjectStats>(
          `/api/workspaces/${encodeURIComponent(String(workspaceId))}/projects/${encodeURIComponent(uuid)}/stats`,
          { signal },
        ).then(withPrivateNetwork),
      refetchInterval: STATS_REFRESH_MS,
    }),
  /** Latency percentiles, status classes, today by the hour and the recent failed requests (refreshed with the stats). */
  insight: (workspaceId: number, uuid: string) =>
    queryOptions({
      queryKey: [...statsQueries.all(), 'insight', workspaceId, uuid] as const,
      queryFn: ({ signal }) =>
        apiFetch<ProjectInsight>(`/api/workspaces/${encodeURIComponent(String(workspaceId))}/projects/${encodeURIComponent(uuid)}/insight`, { signal }),
      refetchInterval: STATS_REFRESH_MS,
    }),
  /** Requests per UTC day over the last 30 days. */
  history: (uuid: string) =>
    queryOptions({
      queryKey: [...statsQueries.all(), 'history', uuid] as const,
      queryFn: ({ signal }) => fetchHistory(uuid, signal),
      refetchInterval: HISTORY_REFRESH_MS,
    }),
  /** The gateway's base URL for the API examples, from GET /api/site. */
  gatewayUrl: () =>
    queryOptions({
      ...siteQueries.site(),
      select: gatewayUrlOf,
    }),
  /** The world map's shapes (Natural Earth 1:110m), loaded only when a map is shown and kept for the session. */
  worldAtlas: () =>
    queryOptions({
      queryKey: [...statsQueries.all(), 'world-atlas', '110m'] as const,
      queryFn: () => import('./world-shapes').then((m) => m.loadWorldShapes()),
      staleTime: Infinity,
      gcTime: Infinity,
      retry: 1,
    }),
};
