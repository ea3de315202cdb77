import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { privateEndpointWarning, type Trigger, type WebhookDto, type WebhookEventDto, type WebhookInput } from '../../../../../shared/webhooks';
import { apiFetch, isApiError, ApiError } from '../../api/client';
import { pagedListQuery } from '../../api/pages';
import { PAGE_MAX_LIMIT } from '../../../../../shared/pagination';
import { invalidateQuotas } from '../workspaces/index';
import type { ProjectDto } from '../../../../../shared/workspaces';

/**
 * The workspace's projects a page at a time (a devnet webhook names one of its devnet projects);
 * the key is the projects screen's list's, so both share one cache.
 */
export const workspaceProjectsQuery = (workspaceId: number) =>
  pagedListQuery<ProjectDto, readonly unknown[]>(['projects', 'list', workspaceId], `/api/workspaces/${encodeURIComponent(String(workspaceId))}/projects`);

/** GET …/webhooks/:id/events: one page of the delivery history, newest first. */
interface WebhookEventsPage {
  events: WebhookEventDto[];
  page: number;
  pages: number;
  total: number;
}

/** The body POST and PUT take: the validated form plus the fields the API wants stated. */
export type WebhookBody = WebhookInput & { api_version: 1; workspace_id: number };

const hooksOf = (workspaceId: number) => `/api/workspaces/${encodeURIComponent(String(workspaceId))}/webhooks`;
const hookPath = (workspaceId: number, webhookId: string) => `${hooksOf(workspaceId)}/${encodeURIComponent(webhookId)}`;

/** Poll the history this often while an event still waits to be sent. */
const PENDING_POLL_MS = 3_000;

export const webhookQueries = {
  all: () => ['webhooks'] as const,
  /** The server's word on a private or loopback endpoint: the warning, or null when WEBHOOK_ALLOWLIST lets deliveries reach it. */
  endpointWarning: (url: string) =>
    queryOptions({
      queryKey: [...webhookQueries.all(), 'endpoint-warning', url] as const,
      queryFn: ({ signal }) => apiFetch<{ warning: string | null }>(`/api/webhooks/endpoint-warning?url=${encodeURIComponent(url)}`, { signal }),
      staleTime: 5 * 60_000,
    }),
  /** Everything cached about one workspace's webhooks (list, details, histories). */
  workspace: (workspaceId: number) => [...webhookQueries.all(), workspaceId] as const,
  /** The workspace's first PAGE_MAX_LIMIT webhooks, for a chooser; re-fetched whenever the window regains focus (spec section 4). */
  list: (workspaceId: number) =>
    queryOptions({
      queryKey: [...webhookQueries.workspace(workspaceId), 'list'] as const,
      queryFn: ({ signal }) => apiFetch<WebhookDto[]>(`${hooksOf(workspaceId)}?limit=${PAGE_MAX_LIMIT}`, { signal }),
      staleTime: 0,
      refetchOnWindowFocus: true,
    }),
  /** The workspace's webhooks a page at a time, oldest first; `q` searches names. Under the list's key, so what refreshes one refreshes both. */
  pages: (workspaceId: number, q = '') => ({
    ...pagedListQuery<WebhookDto, readonly unknown[]>([...webhookQueries.workspace(workspaceId), 'list', 'pages', ...(q ? [q] : [])], hooksOf(workspaceId), { q }),
    staleTime: 0,
    refetchOnWindowFocus: true,
  }),
  detail: (workspaceId: number, webhookId: string) =>
    queryOptions({
      queryKey: [...webhookQueries.workspace(workspaceId), 'detail', webhookId] as const,
      queryFn: ({ signal }) => apiFetch<WebhookDto>(hookPath(workspaceId, webhookId), { signal }),
    }),
  /**
   * Which of the user's workspaces holds a webhook: the page URL carries only the webhook id. Asks
   * each workspace in the given order (the selected one first) and seeds the detail cache with the
   * answer; a webhook no workspace has is a 404.
   */
  locate: (webhookId: string, workspaceIds: readonly number[]) =>
    queryOptions({
      queryKey: [...webhookQueries.all(), 'locate', webhookId, workspaceIds] as const,
      queryFn: async ({ signal, client }) => {
        // Just created or opened before: the detail cache already knows the workspace.
        const cached = client
          .getQueriesData<WebhookDto>({ queryKey: webhookQueries.all() })
          .find(([key, data]) => key[2] === 'detail' && key[3] === webhookId && data && workspaceIds.includes(data.workspace_id));
        if (cached?.[1]) return cached[1].workspace_id;
        for (const workspaceId of workspaceIds) {
          try {
            const webhook = await apiFetch<WebhookDto>(hookPath(workspaceId, webhookId), { signal });
            client.setQueryData(webhookQueries.detail(workspaceId, webhookId).queryKey, webhook);
            return workspaceId;
          } catch (error) {
            // 404: not in this workspace; 400: not a webhook id at all. Anything else is a real failure.
            if (isApiError(error, 404)) continue;
            if (isApiError(error, 400)) break;
            throw error;
          }
        }
        throw new ApiError(404, 'not_found', 'Webhook not found.');
      },
      staleTime: Infinity,
    }),
  eventsOf: (workspaceId: number, webhookId: string) => [...webhookQueries.workspace(workspaceId), 'events', webhookId] as const,
  events: (workspaceId: number, webhookId: string, page: number) =>
    queryOptions({
      queryKey: [...webhookQueries.eventsOf(workspaceId, webhookId), page] as const,
      queryFn: ({ signal }) => apiFetch<WebhookEventsPage>(`${hookPath(workspaceId, webhookId)}/events?page=${page}`, { signal }),
      staleTime: 0,
      refetchInterval: (query) => (query.state.data?.events.some((e) => e.status === 'pending') ? PENDING_POLL_MS : false),
    }),
  /** A real payload of a trigger from the chain of a network (its webhook id), for the JSONPath editor. */
  sample: (type: Trigger, network: number) =>
    queryOptions({
      queryKey: [...webhookQueries.all(), 'sample', type, network] as const,
      queryFn: ({ signal }) =>
        apiFetch<unknown>(`/api/webhooks/sample?type=${encodeURIComponent(type)}&network=${encodeURIComponent(String(network))}`, { signal }),
      staleTime: 5 * 60_000,
      retry: false,
    }),
};

const refreshWorkspace = (queryClient: QueryClient, workspaceId: number) =>
  queryClient.invalidateQueries({ queryKey: webhookQueries.workspace(workspaceId) });

export function useCreateWebhook(workspaceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookBody) => apiFetch<{ id: string; webhook: WebhookDto }>(hooksOf(workspaceId), { method: 'POST', body }),
    onSuccess: ({ id, webhook }) => {
      queryClient.setQueryData(webhookQueries.detail(workspaceId, id).queryKey, webhook);
    },
    // Webhooks are pooled over the owner's workspaces, like projects: every quota may have moved.
    onSettled: () => Promise.all([refreshWorkspace(queryClient, workspaceId), invalidateQuotas(queryClient)]),
  });
}

export function useUpdateWebhook(workspaceId: number, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookBody) => apiFetch<WebhookDto>(hookPath(workspaceId, webhookId), { method: 'PUT', body }),
    onSuccess: (webhook) => queryClient.setQueryData(webhookQueries.detail(workspaceId, webhookId).queryKey, webhook),
    onSettled: () => refreshWorkspace(queryClient, workspaceId),
  });
}

/** A new signing secret; the old one keeps signing for `overlapSeconds` (0: it stops at once). */
export function useRotateWebhookSecret(workspaceId: number, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (overlapSeconds: number) => apiFetch<WebhookDto>(`${hookPath(workspaceId, webhookId)}/rotate-secret`, { method: 'POST', body: { overlap_seconds: overlapSeconds } }),
    onSuccess: (webhook) => queryClient.setQueryData(webhookQueries.detail(workspaceId, webhookId).queryKey, webhook),
    onSettled: () => refreshWorkspace(queryClient, workspaceId),
  });
}

export function useDeleteWebhook(workspaceId: number, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ deleted: true }>(hookPath(workspaceId, webhookId), { method: 'DELETE' }),
    onSuccess: () => {
      // The page showing it is about to leave; its queries would only answer 404 now.
      queryClient.removeQueries({ queryKey: webhookQueries.detail(workspaceId, webhookId).queryKey });
      queryClient.removeQueries({ queryKey: webhookQueries.eventsOf(workspaceId, webhookId) });
      queryClient.removeQueries({ queryKey: [...webhookQueries.all(), 'locate', webhookId] });
      void queryClient.invalidateQueries({ queryKey: webhookQueries.list(workspaceId).queryKey });
      void invalidateQuotas(queryClient);
    },
  });
}

/** Sending a test event or resending one changes the history and, later, the list's failure warning. */
const refreshDeliveries = (queryClient: QueryClient, workspaceId: number, webhookId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: webhookQueries.eventsOf(workspaceId, webhookId) }),
    queryClient.invalidateQueries({ queryKey: webhookQueries.list(workspaceId).queryKey }),
  ]);

export function useSendTestEvent(workspaceId: number, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ id: string }>(`${hookPath(workspaceId, webhookId)}/test`, { method: 'POST' }),
    onSettled: () => refreshDeliveries(queryClient, workspaceId, webhookId),
  });
}

export function useResendEvent(workspaceId: number, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (eventId: string) =>
      apiFetch<{ resent: true }>(`${hookPath(workspaceId, webhookId)}/events/${encodeURIComponent(eventId)}/resend`, { method: 'POST' }),
    onSettled: () => refreshDeliveries(queryClient, workspaceId, webhookId),
  });
}

/**
 * The private-endpoint warning for a URL: only for a local name or non-public address (known here), and
 * only once the server says WEBHOOK_ALLOWLIST does not allow it; nothing while it is asked.
 */
export function useEndpointWarning(url: string): string | null {
  const local = privateEndpointWarning(url);
  const server = useQuery({ ...webhookQueries.endpointWarning(url.trim()), enabled: local !== null });
  return local === null ? null : (server.data?.warning ?? null);
}
