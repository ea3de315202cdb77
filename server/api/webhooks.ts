import crypto from 'node:crypto';
import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../http/route';
import { AppError, Invalid, NotFound } from '../errors';
import { triggers, webhookInputSchema, webhookMessages, type WebhookEventDto } from '../../shared/webhooks';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook } from '../services/webhooks';
import type { ChainSource } from '../webhooks/chain-source';
import { SampleCache } from '../webhooks/sample';
import { SlidingWindowLimit } from '../http/sliding-window-limit';
import { eventBody } from '../webhooks/follower';

const EVENTS_PER_PAGE = 20;
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
    handler: async ({ webhook, query }) => {
      const total = Number((await db('webhook_events').where({ webhook_id: webhook.id }).count({ n: '*' }))[0]?.n ?? 0);
      const events = await db('webhook_events')
        .where({ webhook_id: webhook.id })
        .orderBy('created_at', 'desc')
        .orderBy('id', 'asc')
        .limit(EVENTS_PER_PAGE)
        .offset((query.page - 1) * EVENTS_PER_PAGE)
        .select('id', 'type', 'created', 'status', 'block_height', 'block_hash', 'test');
      const attempts = events.length
        ? await db('webhook_attempts')
            .whereIn(
              'event_id',
              events.map((e) => e.id),
            )
            .orderBy('attempted_at', 'asc')
            .select('event_id', 'attempted_at', 'status_code', 'duration_ms', 'response_excerpt', 'error', 'success')
        : [];
      const data: WebhookEventDto[] = events.map((e) => ({
        id: e.id,
        type: e.type,
        created: Number(e.created),
        status: e.status,
        block_height: e.block_height === null ? null : Number(e.block_height),
        block_hash: e.block_hash,
        test: Boolean(e.test),
        attempts: attempts
          .filter((a) => a.event_id === e.id)
          .map((a) => ({
            attempted_at: Number(a.attempted_at),
            status_code: a.status_code,
            duration_ms: a.duration_ms,
            response_excerpt: a.response_excerpt,
            error: a.error,
            success: Boolean(a.success),
          })),
      }));
      return { events: data, page: query.page, pages: Math.max(1, Math.ceil(total / EVENTS_PER_PAGE)), total };
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/webhooks/:webhookId/events/:eventId/resend',
    permission: { webhook: 'webhooks.update' },
    params: z.object({ eventId: z.string().uuid('Event not found.') }).loose(),
    handler: async ({ webhook, params: p }) => {
      // The same event id again, so the receiver can recognise a redelivery.
      const updated = await db('webhook_events')
        .where({ id: p.eventId, webhook_id: webhook.id })
        .whereIn('status', ['delivered', 'failed', 'cancelled'])
        .update({ status: 'pending', attempts: 0, next_attempt_at: Date.now(), claimed_until: null });
      if (updated === 0) {
        const exists = await db('webhook_events').where({ id: p.eventId, webhook_id: webhook.id }).first('status');
        if (!exists) throw new NotFound('Event not found.');
        throw new AppError(409, 'conflict', 'This event is already waiting to be sent.');
      }
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
      const id = crypto.randomUUID();
      const now = Date.now();
      const created = Math.floor(now / 1000);
      await db('webhook_events').insert({
        id,
        webhook_id: webhook.id,
        type: webhook.type,
        network: webhook.network,
        block_height: null,
        block_hash: null,
        body: eventBody(id, webhook.id, created, webhook.type, payload),
        created,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        test: true,
        created_at: now,
      });
      return { id };
    },
  });

}
