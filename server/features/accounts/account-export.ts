import type { Db } from '../../db/index';
import { networks } from '../../../shared/networks';
import { getCustomerSettings } from './settings';
import { everySession } from './account-sessions';
import type { User } from './users';

const toNumber = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const networkLabel = (id: number) => networks.find((n) => n.value === id)?.label ?? `network ${id}`;

/**
 * Everything Cairn keeps about the user, as one JSON document for them to download: profile, linked
 * sign-in providers, settings, memberships, the workspaces they own with their projects, sessions and
 * invitations. Nothing in it signs anyone in or calls the API: no tokens, no API keys, no session ids.
 */
export async function exportAccount(db: Db, user: User, currentSid: string, now = Date.now()) {
  const profile = await db('users').where({ id: user.id }).first('id', 'email', 'created_at');
  const providers = await db('oauth_accounts').where({ user_id: user.id }).orderBy('created_at', 'asc').select('provider', 'email', 'created_at');
  const memberships = await db('workspace_members as m')
    .join('workspaces as w', 'w.id', 'm.workspace_id')
    .join('users as o', 'o.id', 'w.owner_id')
    .where('m.user_id', user.id)
    .orderBy('w.id', 'asc')
    .select('w.id', 'w.name', 'm.role', 'm.created_at', 'o.email as owner_email');
  const owned = await db('workspaces').where({ owner_id: user.id }).orderBy('id', 'asc').select('id', 'name', 'created_at');
  const projects = owned.length
    ? await db('projects')
        .whereIn(
          'workspace_id',
          owned.map((w) => w.id as number),
        )
        .orderBy('id', 'asc')
        .select('workspace_id', 'uuid', 'name', 'network_id', 'created_at')
    : [];
  const sent = await db('workspace_invitations as i')
    .join('workspaces as w', 'w.id', 'i.workspace_id')
    .where('i.invited_by', user.id)
    .orderBy('i.created_at', 'asc')
    .select('w.name as workspace', 'i.email', 'i.role', 'i.created_at', 'i.expires_at', 'i.accepted_at');
  const received = await db('workspace_invitations as i')
    .join('workspaces as w', 'w.id', 'i.workspace_id')
    .where('i.email', user.email.toLowerCase())
    .orderBy('i.created_at', 'asc')
    .select('w.name as workspace', 'i.role', 'i.created_at', 'i.expires_at', 'i.accepted_at');
  const invitation = (r: { workspace: string; email?: string; role: string; created_at: unknown; expires_at: unknown; accepted_at: unknown }) => ({
    workspace: r.workspace,
    ...(r.email !== undefined ? { email: r.email } : {}),
    role: r.role,
    sent_at: toNumber(r.created_at),
    expires_at: toNumber(r.expires_at),
    accepted_at: toNumber(r.accepted_at),
  });
  return {
    exported_at: new Date(now).toISOString(),
    profile: { id: user.id, email: user.email, created_at: toNumber(profile?.created_at) },
    sign_in_providers: providers.map((p) => ({ provider: p.provider as string, email: (p.email as string | null) ?? null, linked_at: toNumber(p.created_at) })),
    settings: await getCustomerSettings(db, user.id),
    memberships: memberships.map((m) => ({ workspace_id: m.id as number, workspace: m.name as string, role: m.role as string, owner_email: m.owner_email as string, joined_at: toNumber(m.created_at) })),
    owned_workspaces: owned.map((w) => ({
      id: w.id as number,
      name: w.name as string,
      created_at: toNumber(w.created_at),
      projects: projects
        .filter((p) => p.workspace_id === w.id)
        .map((p) => ({ uuid: p.uuid as string, name: p.name as string, network: networkLabel(Number(p.network_id)), created_at: toNumber(p.created_at) })),
    })),
    sessions: (await everySession(db, user.id, currentSid, now)).map(({ id: _id, ...s }) => s),
    invitations: { sent: sent.map(invitation), received: received.map(invitation) },
  };
}

export type AccountExport = Awaited<ReturnType<typeof exportAccount>>;
