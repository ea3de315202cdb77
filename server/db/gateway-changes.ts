import type { Db } from './index';

export type GatewayChangeKind = 'project' | 'workspace' | 'subscription' | 'addon';

/**
 * What `ref` names per kind, which the gateways' key cache reloads: project → the project's uuid,
 * workspace and addon → the workspace id, subscription → the owner's user id.
 *
 * Tells every gateway that what it caches about keys may be stale. Written in the same transaction
 * as the change itself, so a gateway never sees the change log ahead of the data.
 */
export async function recordGatewayChange(db: Db, kind: GatewayChangeKind, ref: string | number): Promise<void> {
  await db('gateway_changes').insert({ kind, ref: String(ref), created_at: Date.now() });
}
