import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../http/route';
import { AppError, Invalid } from '../errors';
import { messages } from '../../shared/messages';
import { triggers, webhookInputSchema, webhookMessages } from '../../shared/webhooks';
import { createWebhook, deleteWebhook, findWebhook, getWebhook, listWebhooks, updateWebhook } from '../services/webhooks';
import type { ChainSource } from '../webhooks/chain-source';
import { samplePayload } from '../webhooks/sample';
import * as outbox from '../services/webhook-outbox';

const params = z.object({ id: z.string(), webhookId: z.string().uuid('Webhook not found.') });

export function registerWebhookRoutes(router: Router, deps: RouteDeps, sources: Map<number, ChainSource>): void {
  const { db } = deps;

  const sample = async (network: number, type: (typeof triggers)[number]) => {
    const source = sources.get(network);
    if (!source) throw new Invalid(webhookMessages.unsupportedNetwork);
    try {
      return await samplePayload(source, type);
    } catch (err) {
      throw new AppError(503, 'sample_unavailable', `No sample ${type} could be read from this network right now (${(err as Error).message}).`);
    }
  };

  route(router, deps, {
    method: 'get',
    path: '/webhooks/sample',
    permission: 'signedIn',
    query: z.object({
      type: z.enum(triggers, { error: 'type must be transaction, block, delegation or epoch' }),
      network: z.coerce.number({ error: webhookMessages.unsupportedNetwork }).int(webhookMessages.unsupportedNetwork),
    }),
    handler: ({ query }) => sample(query.network, query.type),
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/webhooks',
    permission: { workspace: 'webhooks.view' },
    handler: ({ membership }) => listWebhooks(db, membership),
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/webhooks',
    permission: { workspace: 'webhooks.add', denied: messages.permission.createResource('webhook') },
    status: 201,
    body: webhookInputSchema,
    handler: async ({ membership, body }) => {
      if (body.workspace_id !== undefined && body.workspace_id !== membership.workspaceId) throw new Invalid('workspace_id does not match the workspace in the path.');
      const webhook = await createWebhook(db, membership, body);
      return { id: webhook.id, webhook };
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/webhooks/:webhookId',
    permission: { workspace: 'webhooks.view' },
    params,
    handler: ({ membership, params: p }) => getWebhook(db, membership, p.webhookId),
  });

  route(router, deps, {
    method: 'put',
    path: '/workspaces/:id/webhooks/:webhookId',
    permission: { workspace: 'webhooks.update', denied: 'Only the owner, administrators and maintainers can change webhooks.' },
    params,
    body: webhookInputSchema,
    handler: ({ membership, params: p, body }) => updateWebhook(db, membership, p.webhookId, body),
  });

  route(router, deps, {
    method: 'delete',
    path: '/workspaces/:id/webhooks/:webhookId',
    permission: { workspace: 'webhooks.delete', denied: 'Only the owner, administrators and maintainers can delete webhooks.' },
    params,
    handler: async ({ membership, params: p }) => {
      await deleteWebhook(db, membership.workspaceId, p.webhookId);
      return { deleted: true };
    },
  });

  // ---- delivery history ----
  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/webhooks/:webhookId/events',
    permission: { workspace: 'webhooks.view' },
    params,
    query: z.object({ page: z.coerce.number({ error: 'page must be a whole number' }).int('page must be a whole number').min(1, 'page must be at least 1').default(1) }),
    handler: async ({ membership, params: p, query }) => {
      await findWebhook(db, membership.workspaceId, p.webhookId);
      return outbox.eventHistory(db, p.webhookId, query.page);
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/webhooks/:webhookId/events/:eventId/resend',
    permission: { workspace: 'webhooks.update', denied: 'Only the owner, administrators and maintainers can resend events.' },
    params: params.extend({ eventId: z.string().uuid('Event not found.') }),
    handler: async ({ membership, params: p }) => {
      await findWebhook(db, membership.workspaceId, p.webhookId);
      await outbox.resend(db, p.webhookId, p.eventId);
      return { resent: true };
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/webhooks/:webhookId/test',
    permission: { workspace: 'webhooks.update', denied: 'Only the owner, administrators and maintainers can send test events.' },
    params,
    status: 201,
    handler: async ({ membership, params: p }) => {
      const webhook = await findWebhook(db, membership.workspaceId, p.webhookId);
      if (webhook.status !== 'enabled') throw new AppError(409, 'conflict', 'Enable the webhook to send it a test event.');
      const payload = await sample(webhook.network, webhook.type);
      const [id] = await outbox.enqueue(db, [{ webhookId: webhook.id, type: webhook.type, network: webhook.network, blockHeight: null, blockHash: null, payload, test: true }]);
      return { id };
    },
  });

}
