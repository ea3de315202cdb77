import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route';
import { AppError, Invalid } from '../../errors';
import { rotateSecretSchema, triggers, webhookInputSchema, webhookMessages, type WebhookInput, type WebhookRow } from '../../../shared/webhooks';
import { searchPageQuerySchema } from '../../../shared/page-query';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, parseConditions, rotateWebhookSecret, updateWebhook } from './webhooks';
import { auditBy } from '../audit/index';
import type { ChainSource } from './chain-source';
import { SampleCache } from './sample';
import { endpointWarning, parseAllowlist } from './ssrf';
import { SlidingWindowLimit } from '../../http/sliding-window-limit';
import * as outbox from './outbox';

const SAMPLE_REQUESTS_PER_MINUTE = 30;

/** The settings an update changed, by name (the audit entry lists them, never the secret). */
const changedFields = (before: WebhookRow, after: WebhookInput): string[] => {
  const now: Record<string, unknown> = { ...after, description: after.description ?? null };
  const changed: string[] = (['name', 'description', 'network', 'type', 'target_url', 'confirmations'] as const).filter((k) => before[k] !== now[k]);
  if (JSON.stringify(parseConditions(before.conditions)) !== JSON.stringify(after.conditions)) changed.push('conditions');
  return changed;
};

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
    query: searchPageQuerySchema,
    paged: true,
    summary: "One page of the workspace's webhooks, oldest first; `q` keeps those whose name contains it.",
    handler: ({ membership, query }) => listWebhooks(db, membership, query),
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/webhooks',
    permission: { workspace: 'webhooks.add' },
    status: 201,
    body: webhookInputSchema,
    handler: async ({ req, user, membership, body }) => {
      if (body.workspace_id !== undefined && body.workspace_id !== membership.workspaceId) throw new Invalid('workspace_id does not match the workspace in the path.');
      const webhook = await createWebhook(db, membership, body);
      await auditBy(db, req, user, membership.workspaceId)('webhook.created', { type: 'webhook', id: webhook.id, label: webhook.name }, { target_url: webhook.target_url, status: webhook.status });
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
    handler: async ({ req, user, membership, webhook, body }) => {
      const updated = await updateWebhook(db, membership, webhook.id, body);
      const audit = auditBy(db, req, user, membership.workspaceId);
      const target = { type: 'webhook', id: webhook.id, label: updated.name } as const;
      const fields = changedFields(webhook, body);
      if (webhook.status === 'disabled' && body.status === 'enabled') fields.push('status');
      if (fields.length > 0) await audit('webhook.updated', target, { changed: fields.join(', '), ...(fields.includes('status') ? { status: 'enabled' } : {}) });
      if (webhook.status === 'enabled' && body.status === 'disabled') await audit('webhook.disabled', target);
      return updated;
    },
  });

  route(router, deps, {
    method: 'delete',
    path: '/workspaces/:id/webhooks/:webhookId',
    permission: { webhook: 'webhooks.delete' },
    handler: async ({ req, user, membership, webhook }) => {
      await deleteWebhook(db, membership.workspaceId, webhook.id);
      await auditBy(db, req, user, membership.workspaceId)('webhook.deleted', { type: 'webhook', id: webhook.id, label: webhook.name });
      return { deleted: true };
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/webhooks/:webhookId/rotate-secret',
    permission: { webhook: 'webhooks.update' },
    body: rotateSecretSchema,
    summary: 'Issues a new signing secret; the old one keeps signing every delivery too for overlap_seconds (0, 3600, 86400 or 604800).',
    handler: async ({ req, user, membership, webhook, body }) => {
      const rotated = await rotateWebhookSecret(db, membership, webhook.id, body.overlap_seconds);
      await auditBy(db, req, user, membership.workspaceId)('webhook.secret_rotated', { type: 'webhook', id: webhook.id, label: webhook.name }, { overlap_seconds: body.overlap_seconds });
      return rotated;
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
    handler: async ({ req, user, membership, webhook, params: p }) => {
      await outbox.resend(db, webhook.id, p.eventId);
      await auditBy(db, req, user, membership.workspaceId)('webhook.event_resent', { type: 'webhook', id: webhook.id, label: webhook.name }, { event_id: p.eventId });
      return { resent: true };
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/webhooks/:webhookId/test',
    permission: { webhook: 'webhooks.update' },
    status: 201,
    handler: async ({ req, user, membership, webhook }) => {
      if (webhook.status !== 'enabled') throw new AppError(409, 'conflict', 'Enable the webhook to send it a test event.');
      const payload = await sample(webhook.network, webhook.type);
      const {
        ids: [id],
      } = await outbox.enqueue(db, [{ webhookId: webhook.id, type: webhook.type, network: webhook.network, blockHeight: null, blockHash: null, payload, test: true }]);
      await auditBy(db, req, user, membership.workspaceId)('webhook.test_sent', { type: 'webhook', id: webhook.id, label: webhook.name }, { event_id: id ?? null });
      return { id };
    },
  });

}
