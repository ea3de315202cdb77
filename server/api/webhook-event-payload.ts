import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../http/route';
import { NotFound } from '../errors';
import { findWebhook } from '../services/webhooks';
import type { WebhookEventPayloadDto } from '../../shared/webhooks-sandbox';

// One event of a webhook's delivery history with the payload it carries, for the JSONPath sandbox.
export function registerWebhookEventPayloadRoute(router: Router, deps: RouteDeps): void {
  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/webhooks/:webhookId/events/:eventId',
    permission: { workspace: 'webhooks.view' },
    params: z.object({ id: z.string(), webhookId: z.string().uuid('Webhook not found.'), eventId: z.string().uuid('Event not found.') }),
    handler: async ({ membership, params }): Promise<WebhookEventPayloadDto> => {
      await findWebhook(deps.db, membership.workspaceId, params.webhookId);
      const row = await deps.db('webhook_events').where({ id: params.eventId, webhook_id: params.webhookId }).first('id', 'type', 'created', 'body');
      if (!row) throw new NotFound('Event not found.');
      const body = JSON.parse(String(row.body)) as { payload?: unknown };
      return { id: row.id, type: row.type, created: Number(row.created), payload: body.payload ?? null };
    },
  });
}
