import { queryOptions } from '@tanstack/react-query';
import type { WebhookEventPayloadDto } from '../../../../../shared/webhooks-sandbox';
import { apiFetch } from '../../api/client';
import { webhookQueries } from '../webhooks/index';

export const sandboxQueries = {
  /** One delivered (or attempted) event of a webhook with its payload, to try conditions on. */
  eventPayload: (workspaceId: number, webhookId: string, eventId: string) =>
    queryOptions({
      queryKey: [...webhookQueries.eventsOf(workspaceId, webhookId), 'payload', eventId] as const,
      queryFn: ({ signal }) =>
        apiFetch<WebhookEventPayloadDto>(
          `/api/workspaces/${encodeURIComponent(String(workspaceId))}/webhooks/${encodeURIComponent(webhookId)}/events/${encodeURIComponent(eventId)}`,
          { signal },
        ),
      // An event's payload never changes.
      staleTime: Infinity,
    }),
};
