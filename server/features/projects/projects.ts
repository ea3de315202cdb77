import crypto from 'node:crypto';
import type { Db } from '../../db/index';
import { Invalid, NotFound, PlanLimit } from '../../errors';
import { findNetwork } from '../../../shared/networks';
import { blocksNewProjects, subscriptionBlockedMessage } from '../../../shared/plans';
import type { ProjectDto, ProjectRef } from '../../../shared/workspaces';
import { getSubscription, withOwnerLock, limitError, whosePlan, type Membership } from '../workspaces/index';
import { recordGatewayChange } from '../../db/gateway-changes';
import { requestsToday } from '../stats/index';

export type { ProjectRef };

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_LENGTH = 32;

/** Network prefix + 32 characters of [A-Za-z0-9], drawn without modulo bias from a CSPRNG. */
export function generateProjectKey(prefix: string): string {
  let out = '';
  while (out.length < KEY_LENGTH) {
    for (const byte of crypto.randomBytes(48)) {
      // 62 * 4 = 248: reject 248..255 so every character is equally likely.
      if (byte < 248) out += KEY_ALPHABET[byte % 62];
      if (out.length === KEY_LENGTH) break;
    }
  }
  return prefix + out;
}

/** Networks a new project may use: enabled, with a key prefix. */
export function projectNetwork(networkId: number) {
  const network = findNetwork(networkId);
  if (!network || network.disabled || !network.prefix) throw new Invalid('This network is not available. Choose one of the networks offered.');
  return network;
}

const columns = ['id', 'uuid', 'name as project_name', 'project_id', 'network_id', 'workspace_id', 'created_at'];

const withRequests = async (db: Db, rows: Omit<ProjectDto, 'requests_today'>[]): Promise<ProjectDto[]> => {
  const counts = await requestsToday(db, rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, requests_today: counts.get(r.id) ?? 0 }));
};

export async function listProjects(db: Db, workspaceId: number): Promise<ProjectDto[]> {
  return withRequests(db, await db('projects').where({ workspace_id: workspaceId }).orderBy('id', 'asc').select(columns));
}

export async function getProject(db: Db, workspaceId: number, uuid: string): Promise<ProjectDto> {
  const row = await db('projects').where({ workspace_id: workspaceId, uuid }).first(columns);
  if (!row) throw new NotFound('Project not found.');
  return (await withRequests(db, [row]))[0]!;
}


/** A project by uuid, optionally only within one workspace; 404 when there is none. */
export async function findProjectRef(db: Db, uuid: string, workspaceId?: number): Promise<ProjectRef> {
  const row = await db('projects')
    .where({ uuid, ...(workspaceId === undefined ? {} : { workspace_id: workspaceId }) })
    .first('id', 'uuid', 'workspace_id');
  if (!row) throw new NotFound('Project not found.');
  return { id: row.id, uuid: row.uuid, workspaceId: row.workspace_id };
}

/** Projects of every workspace the owner owns: the pool the plan's projectCount caps. */
export const ownedProjectCount = async (db: Db, ownerId: number): Promise<number> =>
  Number((await db('projects as p').join('workspaces as w', 'w.id', 'p.workspace_id').where('w.owner_id', ownerId).count({ n: '*' }))[0]?.n ?? 0);

export async function createProject(db: Db, m: Membership, name: string, networkId: number): Promise<ProjectDto> {
  const network = projectNetwork(networkId);
  const uuid = await withOwnerLock(db, m.ownerId, async (trx) => {
    const { plan, status } = await getSubscription(trx, m.ownerId);
    if (blocksNewProjects(status)) {
      throw new PlanLimit(subscriptionBlockedMessage(status)!, { limit: 'subscriptionStatus', status });
    }
    const used = await ownedProjectCount(trx, m.ownerId);
    if (used >= plan.projectCount) throw limitError(plan, 'projectCount', used, whosePlan(m));
    const now = Date.now();
    const id = crypto.randomUUID();
    for (let attempt = 0; ; attempt++) {
      const key = generateProjectKey(network.prefix!);
      // A clash in 62^32 is not expected; the unique index makes it impossible to go unnoticed.
      if (await trx('projects').where({ project_id: key }).first('id')) {
        if (attempt < 3) continue;
        throw new Error('could not draw a unique project key');
      }
      await trx('projects').insert({ uuid: id, workspace_id: m.workspaceId, name, project_id: key, network_id: network.value, created_at: now, updated_at: now });
      await recordGatewayChange(trx, 'project', id);
      return id;
    }
  });
  return getProject(db, m.workspaceId, uuid);
}

export async function renameProject(db: Db, workspaceId: number, uuid: string, name: string): Promise<ProjectDto> {
  const updated = await db('projects').where({ workspace_id: workspaceId, uuid }).update({ name, updated_at: Date.now() });
  if (updated === 0) throw new NotFound('Project not found.');
  return getProject(db, workspaceId, uuid);
}

export async function deleteProject(db: Db, workspaceId: number, uuid: string): Promise<void> {
  await db.transaction(async (trx) => {
    const deleted = await trx('projects').where({ workspace_id: workspaceId, uuid }).delete();
    if (deleted === 0) throw new NotFound('Project not found.');
    await recordGatewayChange(trx, 'project', uuid);
  });
}
