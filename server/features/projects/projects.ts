import crypto from 'node:crypto';
import { isPostgres, type Db } from '../../db/index';
import { Invalid, NotFound, PlanLimit } from '../../errors';
import { findNetwork } from '../../../shared/networks';
import { blocksNewProjects, subscriptionBlockedMessage } from '../../../shared/plans';
import type { ProjectDto, ProjectRef } from '../../../shared/workspaces';
import { KEY_GRACE_PERIODS, readStoredList, type AllowLists, type KeyGrace, type PreviousKeyDto } from '../../../shared/allow-list';
import { getSubscription, withOwnerLock, limitError, whosePlan, type Membership } from '../workspaces/index';
import { recordGatewayChange } from '../../db/gateway-changes';
import { afterKey, decodeCursor, pageLimit, pageOf, Paged, whereContains } from '../../db/pagination';
import type { SearchPageQuery } from '../../../shared/page-query';
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

const columns = [
  'id',
  'uuid',
  'name as project_name',
  'project_id',
  'network_id',
  'workspace_id',
  'created_at',
  'previous_project_id',
  'previous_key_expires_at',
  'allowed_origins',
  'allowed_ips',
  'allowed_methods',
];

interface ProjectRow {
  id: number;
  uuid: string;
  project_name: string;
  project_id: string;
  network_id: number;
  workspace_id: number;
  created_at: number | string;
  previous_project_id: string | null;
  previous_key_expires_at: number | string | null;
  allowed_origins: string | null;
  allowed_ips: string | null;
  allowed_methods: string | null;
}

const allowListsOf = (r: Pick<ProjectRow, 'allowed_origins' | 'allowed_ips' | 'allowed_methods'>): AllowLists => ({
  origins: readStoredList(r.allowed_origins),
  ips: readStoredList(r.allowed_ips),
  methods: readStoredList(r.allowed_methods),
});

/** The previous key while its grace lasts; an ended one is not shown (the gateway refuses it too). */
const previousKeyOf = (r: Pick<ProjectRow, 'previous_project_id' | 'previous_key_expires_at'>, now: number): PreviousKeyDto | null => {
  const expires = r.previous_key_expires_at === null ? null : Number(r.previous_key_expires_at);
  return r.previous_project_id && expires !== null && expires > now ? { project_id: r.previous_project_id, expires_at: expires } : null;
};

const withRequests = async (db: Db, rows: ProjectRow[]): Promise<ProjectDto[]> => {
  const counts = await requestsToday(db, rows.map((r) => r.id));
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    project_name: r.project_name,
    project_id: r.project_id,
    network_id: r.network_id,
    workspace_id: r.workspace_id,
    created_at: Number(r.created_at),
    requests_today: counts.get(r.id) ?? 0,
    previous_key: previousKeyOf(r, now),
    allow_lists: allowListsOf(r),
  }));
};

/** One page of a workspace's projects, oldest first, optionally those whose name contains `q`. */
export async function listProjects(db: Db, workspaceId: number, page: SearchPageQuery = {}): Promise<Paged<ProjectDto>> {
  const limit = pageLimit(page.limit);
  const q = db('projects').where({ workspace_id: workspaceId });
  if (page.cursor) afterKey(q, ['id'], decodeCursor(page.cursor, ['int']));
  whereContains(q, 'name', page.q);
  const rows = pageOf((await q.orderBy('id', 'asc').limit(limit + 1).select(columns)) as ProjectRow[], limit, (r) => [r.id]);
  return new Paged(await withRequests(db, rows.items), rows.next);
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
    const key = await drawUniqueKey(trx, network.prefix!);
    await trx('projects').insert({ uuid: id, workspace_id: m.workspaceId, name, project_id: key, network_id: network.value, created_at: now, updated_at: now });
    await recordGatewayChange(trx, 'project', id);
    return id;
  });
  return getProject(db, m.workspaceId, uuid);
}

/** A key no project uses, now or as its previous key. */
async function drawUniqueKey(trx: Db, prefix: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const key = generateProjectKey(prefix);
    // A clash in 62^32 is not expected; the unique indexes make it impossible to go unnoticed.
    if (await trx('projects').where({ project_id: key }).orWhere({ previous_project_id: key }).first('id')) {
      if (attempt < 3) continue;
      throw new Error('could not draw a unique project key');
    }
    return key;
  }
}

/**
 * 'Roll key': a new key at once; the old one keeps working for `grace` (none: it stops at once). A
 * previous key still in its grace period is dropped, so a project never has more than two live keys.
 * The project's uuid, id (statistics, metering, pins) and webhooks stay. The gateways pick the change
 * up from gateway_changes at their next poll.
 */
export async function rollProjectKey(db: Db, workspaceId: number, uuid: string, grace: KeyGrace, now = Date.now()): Promise<PreviousKeyDto | null> {
  const graceMs = KEY_GRACE_PERIODS[grace].ms;
  return db.transaction(async (trx) => {
    const q = trx('projects').where({ workspace_id: workspaceId, uuid });
    // Two rolls at once: the second waits and rolls the first one's key (SQLite has one writer anyway).
    const row = await (isPostgres(db) ? q.forUpdate() : q).first('id', 'project_id', 'network_id');
    if (!row) throw new NotFound('Project not found.');
    const prefix = findNetwork(row.network_id)?.prefix;
    if (!prefix) throw new Invalid('This project has no key to roll.');
    const key = await drawUniqueKey(trx, prefix);
    const previous = graceMs > 0 ? { project_id: row.project_id as string, expires_at: now + graceMs } : null;
    await trx('projects')
      .where({ id: row.id })
      .update({ project_id: key, previous_project_id: previous?.project_id ?? null, previous_key_expires_at: previous?.expires_at ?? null, updated_at: now });
    await recordGatewayChange(trx, 'project', uuid);
    return previous;
  });
}

/** Replaces a project's allow-lists (already validated and canonical: shared/allow-list.ts). A method list is for Milkomeda projects only. */
export async function setAllowLists(db: Db, workspaceId: number, uuid: string, lists: AllowLists): Promise<AllowLists> {
  return db.transaction(async (trx) => {
    const row = await trx('projects').where({ workspace_id: workspaceId, uuid }).first('id', 'network_id');
    if (!row) throw new NotFound('Project not found.');
    if (lists.methods.length > 0 && findNetwork(row.network_id)?.family !== 'evm') throw new Invalid('A JSON-RPC method allow-list applies to Milkomeda projects only.');
    const stored = (l: string[]) => (l.length ? JSON.stringify(l) : null);
    await trx('projects')
      .where({ id: row.id })
      .update({ allowed_origins: stored(lists.origins), allowed_ips: stored(lists.ips), allowed_methods: stored(lists.methods), updated_at: Date.now() });
    await recordGatewayChange(trx, 'project', uuid);
    return lists;
  });
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
