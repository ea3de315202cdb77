import crypto from 'node:crypto';
import type { Db } from '../../db/index';
import { Invalid, NotFound } from '../../errors';
import { devnetNetwork } from '../../../shared/networks';
import type { Condition, WebhookDto, WebhookInput, WebhookRow } from '../../../shared/webhooks';
import { failHistory } from './outbox';
import { afterKey, decodeCursor, pageLimit, pageOf, whereContains, type Paged } from '../../db/pagination';
import type { SearchPageQuery } from '../../../shared/page-query';
import { getSubscription, withOwnerLock, limitError, whosePlan, type Membership } from '../workspaces/index';
import { maySeeSecrets } from '../../../shared/permissions';
import { checkConditionValues } from './condition-values';

export type { WebhookRow };


export const parseConditions = (raw: string): Condition[] => {
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) ? (v as Condition[]) : [];
  } catch {
    return [];
  }
};

/** An auth token shown to members and used to sign deliveries: 32 random bytes, hex. */
const newAuthToken = () => crypto.randomBytes(32).toString('hex');

const toDto = (r: WebhookRow, m: Membership, history: WebhookDto['fail_history'], projects: Map<number, string>): WebhookDto => ({
  id: r.id,
  name: r.name,
  description: r.description,
  network: r.network,
  project: r.project_id === null || r.project_id === undefined ? null : (projects.get(Number(r.project_id)) ?? null),
  type: r.type,
  target_url: r.target_url,
  confirmations: r.confirmations,
  status: r.status,
  conditions: parseConditions(r.conditions),
  auth_token: maySeeSecrets(m.role) ? r.auth_token : null,
  workspace_id: r.workspace_id,
  workspace_name: m.name,
  role_name: m.role,
  api_version: 1,
  fail_history: history,
  disabled_reason: r.disabled_reason,
  previous_secret_expires_at: r.previous_auth_token && r.previous_auth_token_expires_at !== null && r.previous_auth_token_expires_at > Date.now() ? Number(r.previous_auth_token_expires_at) : null,
});

/** One page of a workspace's webhooks, oldest first; `q` keeps those whose name contains it. */
export async function listWebhooks(db: Db, m: Membership, page: SearchPageQuery = {}): Promise<Paged<WebhookDto>> {
  const limit = pageLimit(page.limit);
  const q = db('webhooks').where({ workspace_id: m.workspaceId });
  if (page.cursor) afterKey(q, ['created_at', 'id'], decodeCursor(page.cursor, ['int', 'string']));
  whereContains(q, 'name', page.q);
  const rows = pageOf((await q.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(limit + 1)) as WebhookRow[], limit, (r) => [Number(r.created_at), r.id]);
  const history = await failHistory(db, rows.items.map((r) => r.id));
  const projects = await projectUuids(db, rows.items);
  return rows.map((r) => toDto(r, m, history.get(r.id) ?? [], projects));
}

export async function findWebhook(db: Db, workspaceId: number, id: string): Promise<WebhookRow> {
  const row = (await db('webhooks').where({ id, workspace_id: workspaceId }).first()) as WebhookRow | undefined;
  if (!row) throw new NotFound('Webhook not found.');
  return row;
}

export async function getWebhook(db: Db, m: Membership, id: string): Promise<WebhookDto> {
  const row = await findWebhook(db, m.workspaceId, id);
  const history = await failHistory(db, [id]);
  return toDto(row, m, history.get(id) ?? [], await projectUuids(db, [row]));
}

/** The UUIDs of the projects devnet webhooks name. */
async function projectUuids(db: Db, rows: WebhookRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.map((r) => r.project_id).filter((id): id is number => id !== null && id !== undefined).map(Number))];
  if (ids.length === 0) return new Map();
  const found = (await db('projects').whereIn('id', ids).select('id', 'uuid')) as Array<{ id: number; uuid: string }>;
  return new Map(found.map((p) => [Number(p.id), p.uuid]));
}

export const NOT_A_DEVNET_PROJECT = `The project must be a ${devnetNetwork.label} project.`;

/** The id of the devnet project a devnet webhook names (null on the shared networks); refused when it is not one of the workspace's devnet projects. */
async function devnetProjectOf(db: Db, workspaceId: number, input: WebhookInput): Promise<number | null> {
  if (!input.project) return null;
  const p = (await db('projects').where({ uuid: input.project, workspace_id: workspaceId }).first('id', 'network_id')) as { id: number; network_id: number } | undefined;
  if (!p) throw new NotFound('Project not found.');
  if (Number(p.network_id) !== devnetNetwork.value) throw new Invalid(NOT_A_DEVNET_PROJECT);
  return Number(p.id);
}

/** Webhooks of every workspace the owner owns: the pool the plan's webhookCount caps. */
export const ownedWebhookCount = async (db: Db, ownerId: number): Promise<number> =>
  Number((await db('webhooks as h').join('workspaces as w', 'w.id', 'h.workspace_id').where('w.owner_id', ownerId).count({ n: '*' }))[0]?.n ?? 0);

const HEX_VALUED = new Set(['policyId', 'assetHex', 'poolId']);

const columns = (input: WebhookInput, projectId: number | null) => ({
  name: input.name,
  description: input.description ?? null,
  network: input.network,
  project_id: projectId,
  type: input.type,
  target_url: input.target_url,
  confirmations: input.confirmations,
  status: input.status,
  conditions: JSON.stringify(
    // Hex is compared as the chain writes it: lower case.
    input.conditions.map((c) => ({ type: c.type, operator: c.operator, value: HEX_VALUED.has(c.type) ? c.value.toLowerCase() : c.value, ...(c.type === 'jsonPath' ? { selector: c.selector } : {}) })),
  ),
});

export async function createWebhook(db: Db, m: Membership, input: WebhookInput): Promise<WebhookDto> {
  checkConditionValues(input);
  const projectId = await devnetProjectOf(db, m.workspaceId, input);
  const id = crypto.randomUUID();
  await withOwnerLock(db, m.ownerId, async (trx) => {
    const { plan } = await getSubscription(trx, m.ownerId);
    const used = await ownedWebhookCount(trx, m.ownerId);
    if (used >= plan.webhookCount) throw limitError(plan, 'webhookCount', used, whosePlan(m));
    const now = Date.now();
    await trx('webhooks').insert({ id, workspace_id: m.workspaceId, ...columns(input, projectId), auth_token: newAuthToken(), created_at: now, updated_at: now });
  });
  return getWebhook(db, m, id);
}

export async function updateWebhook(db: Db, m: Membership, id: string, input: WebhookInput): Promise<WebhookDto> {
  checkConditionValues(input);
  const current = await findWebhook(db, m.workspaceId, id);
  const projectId = await devnetProjectOf(db, m.workspaceId, input);
  const reEnabled = current.status === 'disabled' && input.status === 'enabled';
  await db('webhooks')
    .where({ id, workspace_id: m.workspaceId })
    .update({
      ...columns(input, projectId),
      updated_at: Date.now(),
      // Re-enabling starts the five-day failure clock afresh.
      ...(reEnabled ? { disabled_reason: null, failing_since: null } : {}),
    });
  return getWebhook(db, m, id);
}

export async function deleteWebhook(db: Db, workspaceId: number, id: string): Promise<void> {
  const deleted = await db('webhooks').where({ id, workspace_id: workspaceId }).delete();
  if (deleted === 0) throw new NotFound('Webhook not found.');
}

/**
 * Issues a new signing secret. With an overlap, the secret it replaces keeps signing every delivery
 * too until the overlap runs out (a receiver checking either one accepts them); without one it stops
 * at once. Rotating again during an overlap replaces the older secret: only the two newest sign.
 */
export async function rotateWebhookSecret(db: Db, m: Membership, id: string, overlapSeconds: number, now = Date.now()): Promise<WebhookDto> {
  const current = await findWebhook(db, m.workspaceId, id);
  await db('webhooks')
    .where({ id, workspace_id: m.workspaceId })
    .update({
      auth_token: newAuthToken(),
      previous_auth_token: overlapSeconds > 0 ? current.auth_token : null,
      previous_auth_token_expires_at: overlapSeconds > 0 ? now + overlapSeconds * 1000 : null,
      updated_at: now,
    });
  return getWebhook(db, m, id);
}

