import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route';
import { findWebhook } from './webhooks';
import { webhookEventPayload } from './event-payload';
import type { WebhookEventPayloadDto } from '../../../shared/webhooks-sandbox';

// One event of a webhook's delivery history with the payload it carries, for the JSONPath sandbox.
export function registerWebhookEventPayloadRoute(router: Router, deps: RouteDeps): void {
  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/webhooks/:webhookId/events/:eventId',
    permission: { workspace: 'webhooks.view' },
    params: z.object({ id: z.string(), webhookId: z.string().uuid('Webhook not found.'), eventId: z.string().uuid('Event not found.') }),
    handler: async ({ membership, params }): Promise<WebhookEventPayloadDto> => {
      await findWebhook(deps.db, membership.workspaceId, params.webhookId);
      return webhookEventPayload(deps.db, params.webhookId, params.eventId);
    },
  });
}
