// What the event stream (server/features/webhooks/event-stream-routes.ts) reads: notices of the workspaces a user may view webhooks in.
import type { Db } from '../../db/index';
import { can, isRole } from '../../../shared/permissions';
import type { WebhookNotice, WebhookNoticeKind } from '../../../shared/webhook-notices';

/** Workspaces where the user's role may view webhooks (the permission matrix), read fresh every call. */
export async function workspacesHearingWebhooks(db: Db, userId: number): Promise<number[]> {
  const rows = (await db('workspace_members').where({ user_id: userId }).select('workspace_id', 'role')) as Array<{ workspace_id: number; role: string }>;
  return rows.filter((r) => isRole(r.role) && can(r.role, 'webhooks.view')).map((r) => Number(r.workspace_id));
}

/** The newest notice id: a stream opened without Last-Event-ID starts after it. */
export async function latestNoticeId(db: Db): Promise<number> {
  const row = (await db('webhook_notices').max({ id: 'id' }).first()) as { id: number | string | null } | undefined;
  return Number(row?.id ?? 0);
}

export async function noticesAfter(db: Db, afterId: number, workspaceIds: number[], limit: number): Promise<WebhookNotice[]> {
  if (workspaceIds.length === 0) return [];
  const rows = (await db('webhook_notices').where('id', '>', afterId).whereIn('workspace_id', workspaceIds).orderBy('id', 'asc').limit(limit)) as Array<Record<string, unknown>>;
  return rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind as WebhookNoticeKind,
    webhookId: String(row.webhook_id),
    workspaceId: Number(row.workspace_id),
    ...(JSON.parse(String(row.data)) as Omit<WebhookNotice, 'id' | 'kind' | 'webhookId' | 'workspaceId'>),
  }));
}

/** Whether the session still exists (signing out, here or elsewhere, ends the stream). */
export async function sessionAlive(db: Db, sid: string, now = Date.now()): Promise<boolean> {
  return (await db('sessions').where({ sid }).andWhere('expires_at', '>', now).first('sid')) !== undefined;
}
