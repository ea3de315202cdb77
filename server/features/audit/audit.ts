import type { Db } from '../../db/index';
import { Invalid } from '../../errors';
import {
  AUDIT_DEFAULT_PAGE_SIZE,
  type AuditAction,
  type AuditActor,
  type AuditEntryDto,
  type AuditFilter,
  type AuditPageDto,
  type AuditPageQuery,
  type AuditTarget,
} from '../../../shared/audit';
import { DAY_MS } from '../../../shared/time';

/** Where a request came from, as an entry records it. */
export interface AuditOrigin {
  ip: string | null;
  userAgent: string | null;
}

export interface AuditEntryInput extends AuditOrigin {
  workspaceId: number;
  actor: AuditActor;
  action: AuditAction;
  target: AuditTarget;
  /** Small facts about the change (old and new name, role, plan, overlap). Never a secret: keys that name one are refused. */
  details?: Record<string, string | number | boolean | null>;
  /** Epoch ms; now by default. */
  at?: number;
}

/** The structural part of an Express request the origin is read from (services do not import express). */
export interface RequestLike {
  ip?: string | undefined;
  get(name: string): string | undefined;
}

/** The client's address (req.ip honours TRUST_PROXY) and user agent, cut to the columns' sizes. */
export const originOf = (req: RequestLike): AuditOrigin => ({
  ip: req.ip ? req.ip.slice(0, 64) : null,
  userAgent: req.get('user-agent')?.slice(0, 512) ?? null,
});

/** No request behind it: a worker, the payment watcher, the CLI. */
export const NO_ORIGIN: AuditOrigin = { ip: null, userAgent: null };

/** Detail keys that could carry a secret: an entry names what changed, never the secret itself. */
const SECRET_KEY = /secret|token|password|key|signature|cookie|session|project_?id/i;

const actorColumns = (actor: AuditActor) => {
  if ('userId' in actor) return { actor: `user:${actor.userId}`, actor_user_id: actor.userId, actor_label: (actor.email ?? `user ${actor.userId}`).slice(0, 320) };
  if ('operator' in actor) return { actor: 'operator', actor_user_id: null, actor_label: actor.operator.slice(0, 320) || 'operator' };
  if ('projectKey' in actor) return { actor: 'key', actor_user_id: null, actor_label: `Key of ${actor.projectKey}`.slice(0, 320) };
  return { actor: 'system', actor_user_id: null, actor_label: 'Cairn' };
};

/** A detail's text is cut to this many characters (an allow-list can be kilobytes): an entry stays small whatever was changed. */
export const AUDIT_DETAIL_MAX_CHARS = 500;

const boundedDetails = (details: NonNullable<AuditEntryInput['details']>): string => {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(details)) {
    out[k] = typeof v === 'string' && v.length > AUDIT_DETAIL_MAX_CHARS ? `${v.slice(0, AUDIT_DETAIL_MAX_CHARS - 1)}…` : v;
  }
  return JSON.stringify(out);
};

const rowOf = (e: AuditEntryInput) => {
  if (e.details) {
    const bad = Object.keys(e.details).find((k) => SECRET_KEY.test(k));
    if (bad) throw new Error(`audit: the detail "${bad}" may hold a secret and is not recorded`);
  }
  return {
    workspace_id: e.workspaceId,
    at: e.at ?? Date.now(),
    ...actorColumns(e.actor),
    action: e.action,
    target_type: e.target.type,
    target_id: String(e.target.id).slice(0, 64),
    target_label: e.target.label.slice(0, 320),
    ip: e.ip?.slice(0, 64) ?? null,
    user_agent: e.userAgent?.slice(0, 512) ?? null,
    details: e.details ? boundedDetails(e.details) : null,
  };
};

/**
 * Appends one entry to a workspace's audit log. Pass the transaction that makes the change, so the
 * entry is written exactly when the change is.
 */
export async function recordAudit(db: Db, entry: AuditEntryInput): Promise<void> {
  await db('audit_entries').insert(rowOf(entry));
}

/**
 * What a signed-in member does through a request, in one workspace: `auditBy(db, req, user, workspaceId)`
 * answers a function that records one action of theirs.
 */
export const auditBy =
  (db: Db, req: RequestLike, user: { id: number; email: string }, workspaceId: number) =>
  (action: AuditAction, target: AuditTarget, details?: AuditEntryInput['details']): Promise<void> =>
    recordAudit(db, { workspaceId, actor: { userId: user.id, email: user.email }, action, target, ...originOf(req), ...(details ? { details } : {}) });

/** The same entry in every workspace the user belongs to (sign-in, sign-out). */
export async function recordAuditForMember(db: Db, userId: number, entry: Omit<AuditEntryInput, 'workspaceId'>): Promise<void> {
  const rows = (await db('workspace_members').where({ user_id: userId }).select('workspace_id')) as Array<{ workspace_id: number }>;
  if (rows.length === 0) return;
  await db('audit_entries').insert(rows.map((r) => rowOf({ ...entry, workspaceId: r.workspace_id })));
}

interface AuditRow {
  id: number | string;
  at: number | string;
  actor: string;
  actor_user_id: number | null;
  actor_label: string;
  action: AuditAction;
  target_type: string;
  target_id: string;
  target_label: string;
  ip: string | null;
  user_agent: string | null;
  details: string | null;
}

const toDto = (r: AuditRow): AuditEntryDto => ({
  id: Number(r.id),
  at: new Date(Number(r.at)).toISOString(),
  actor: { kind: r.actor === 'system' ? 'system' : r.actor === 'operator' ? 'operator' : r.actor === 'key' ? 'key' : 'user', userId: r.actor_user_id, label: r.actor_label },
  action: r.action,
  target: { type: r.target_type, id: r.target_id, label: r.target_label },
  ip: r.ip,
  userAgent: r.user_agent,
  details: r.details ? (JSON.parse(r.details) as AuditEntryDto['details']) : null,
});

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters as epoch-ms bounds: `from` inclusive; `to` exclusive, and a bare date `to` includes that whole day (UTC). */
export function filterBounds(f: AuditFilter): { fromMs: number | null; toMs: number | null } {
  const fromMs = f.from ? Date.parse(BARE_DATE.test(f.from) ? `${f.from}T00:00:00Z` : f.from) : null;
  const toMs = f.to ? (BARE_DATE.test(f.to) ? Date.parse(`${f.to}T00:00:00Z`) + DAY_MS : Date.parse(f.to)) : null;
  if (fromMs !== null && toMs !== null && fromMs >= toMs) throw new Invalid('from must be before to.');
  return { fromMs, toMs };
}

function filtered(db: Db, workspaceId: number, f: AuditFilter) {
  const { fromMs, toMs } = filterBounds(f);
  const q = db<AuditRow>('audit_entries').where('workspace_id', workspaceId);
  if (f.action) q.andWhere('action', f.action);
  if (f.actor) q.andWhere('actor', f.actor);
  if (fromMs !== null) q.andWhere('at', '>=', fromMs);
  if (toMs !== null) q.andWhere('at', '<', toMs);
  return q;
}

const COLUMNS = ['id', 'at', 'actor', 'actor_user_id', 'actor_label', 'action', 'target_type', 'target_id', 'target_label', 'ip', 'user_agent', 'details'] as const;

/** One page of a workspace's entries, newest first, after the `before` cursor. */
export async function listAuditEntries(db: Db, workspaceId: number, query: AuditPageQuery): Promise<AuditPageDto> {
  const limit = query.limit ?? AUDIT_DEFAULT_PAGE_SIZE;
  const q = filtered(db, workspaceId, query);
  if (query.before) {
    const [at, id] = query.before.split('.').map(Number) as [number, number];
    // A row-value comparison (SQLite ≥ 3.15, PostgreSQL): both engines seek the (…, at, id) index to it,
    // where `at < ? OR (at = ? AND id < ?)` made PostgreSQL walk every newer entry first.
    q.andWhereRaw('(at, id) < (?, ?)', [at, id]);
  }
  const rows = (await q
    .select(...COLUMNS)
    .orderBy([
      { column: 'at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit + 1)) as AuditRow[];
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { entries: page.map(toDto), next: rows.length > limit && last ? `${Number(last.at)}.${Number(last.id)}` : null };
}

/** The newest `max` entries matching the filters, newest first, read in pages so a big export does not hold one huge result. */
export async function* auditEntriesForExport(db: Db, workspaceId: number, filter: AuditFilter, max: number): AsyncGenerator<AuditEntryDto> {
  let before: string | undefined;
  let sent = 0;
  for (;;) {
    const page = await listAuditEntries(db, workspaceId, { ...filter, before, limit: 100 });
    for (const e of page.entries) {
      if (sent >= max) return;
      yield e;
      sent += 1;
    }
    if (!page.next) return;
    before = page.next;
  }
}

/** The retention pass's step: entries older than the retention period. */
export async function pruneAuditEntries(db: Db, now: number, retentionDays: number): Promise<number> {
  const n = await db('audit_entries')
    .where('at', '<', now - retentionDays * DAY_MS)
    .delete();
  return typeof n === 'number' ? n : 0;
}

/** The label entries keep for a person who deleted their account. */
export const DELETED_USER_LABEL = 'Deleted user';

/**
 * Forgets a person who deleted their account: entries keep what happened, but no longer their
 * e-mail address, IP or user agent (as actor, as target, or named in the details).
 */
export async function forgetAuditPerson(db: Db, userId: number, email: string): Promise<void> {
  await db('audit_entries').where({ actor_user_id: userId }).update({ actor_user_id: null, actor_label: DELETED_USER_LABEL, ip: null, user_agent: null });
  await db('audit_entries').where({ target_label: email }).update({ target_label: DELETED_USER_LABEL });
  const pattern = `%${email.replace(/[!%_]/g, (c) => `!${c}`)}%`;
  const named = (await db('audit_entries').whereRaw("details LIKE ? ESCAPE '!'", [pattern]).select('id', 'details')) as Array<{ id: number; details: string }>;
  for (const row of named) await db('audit_entries').where({ id: row.id }).update({ details: row.details.split(email).join(DELETED_USER_LABEL) });
}
