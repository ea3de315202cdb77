import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route';
import { AppError, Invalid } from '../../errors';
import { triggers, webhookInputSchema, webhookMessages } from '../../../shared/webhooks';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook } from './webhooks';
import type { ChainSource } from './chain-source';
import { SampleCache } from './sample';
import { endpointWarning, parseAllowlist } from './ssrf';
import { SlidingWindowLimit } from '../../http/sliding-window-limit';
import * as outbox from './outbox';

const SAMPLE_REQUESTS_PER_MINUTE = 30;

export function registerWebhookRoutes(router: Router, deps: RouteDeps, sources: Map<number, ChainSource>): void {
  const { db } = deps;

  const samples = new SampleCache();
  // Per signed-in user and process: the editor asks once per trigger, a script asking in a loop is refused.
  const sampleLimit = new SlidingWindowLimit(SAMPLE_REQUESTS_PER_MINUTE, 60_000);
  const sample = async (network: number, type: (typeof triggers)[number]) => {
    const source = sources.get(network);
    if (!source) throw new Invalid(webhookMessages.unsupportedNetwork);
    try {
      return await samples.get(network, type, source);
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
    handler: ({ query, user }) => {
      if (!sampleLimit.take(String(user!.id))) throw new AppError(429, 'too_many_requests', 'Too many sample requests. Please wait a minute and try again.');
      return sample(query.network, query.type);
    },
  });

  const allowlist = parseAllowlist(deps.config.webhooks.allowlist);
  route(router, deps, {
    method: 'get',
    path: '/webhooks/endpoint-warning',
    permission: 'signedIn',
    query: z.object({ url: z.string({ error: 'url is required' }).max(2048, 'url is too long') }),
    handler: ({ query }): { warning: string | null } => ({ warning: endpointWarning(query.url, allowlist) }),
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
    permission: { workspace: 'webhooks.add' },
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
    permission: { webhook: 'webhooks.view' },
    handler: ({ membership, webhook }) => getWebhook(db, membership, webhook.id),
  });

  route(router, deps, {
    method: 'put',
    path: '/workspaces/:id/webhooks/:webhookId',
    permission: { webhook: 'webhooks.update' },
    body: webhookInputSchema,
    handler: ({ membership, webhook, body }) => updateWebhook(db, membership, webhook.id, body),
  });

  route(router, deps, {
    method: 'delete',
    path: '/workspaces/:id/webhooks/:webhookId',
    permission: { webhook: 'webhooks.delete' },
    handler: async ({ membership, webhook }) => {
      await deleteWebhook(db, membership.workspaceId, webhook.id);
      return { deleted: true };
    },
  });

  // ---- delivery history ----
  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/webhooks/:webhookId/events',
    permission: { webhook: 'webhooks.view' },
    query: z.object({ page: z.coerce.number({ error: 'page must be a whole number' }).int('page must be a whole number').min(1, 'page must be at least 1').default(1) }),
    handler: ({ webhook, query }) => outbox.eventHistory(db, webhook.id, query.page),
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/webhooks/:webhookId/events/:eventId/resend',
    permission: { webhook: 'webhooks.update' },
    params: z.object({ eventId: z.string().uuid('Event not found.') }).loose(),
    handler: async ({ webhook, params: p }) => {
      await outbox.resend(db, webhook.id, p.eventId);
      return { resent: true };
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/webhooks/:webhookId/test',
    permission: { webhook: 'webhooks.update' },
    status: 201,
    handler: async ({ webhook }) => {
      if (webhook.status !== 'enabled') throw new AppError(409, 'conflict', 'Enable the webhook to send it a test event.');
      const payload = await sample(webhook.network, webhook.type);
      const [id] = await outbox.enqueue(db, [{ webhookId: webhook.id, type: webhook.type, network: webhook.network, blockHeight: null, blockHash: null, payload, test: true }]);
      return { id };
    },
  });

}
