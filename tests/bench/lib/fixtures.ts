import crypto from 'node:crypto';
import type { Db } from '../../../server/db/index';
import { generateProjectKey } from '../../../server/features/projects/projects';
import { recordGatewayChange } from '../../../server/db/gateway-changes';

export interface BenchProject {
  id: number;
  uuid: string;
  key: string;
}

/**
 * Inserts `count` Cardano mainnet projects into a workspace in one transaction (the shape
 * createProject writes, without its per-plan project cap), and records one gateway change.
 */
export async function insertProjects(db: Db, workspaceId: number, count: number, chunk = 200, network: { id: number; prefix: string } = { id: 0, prefix: 'mainnet' }): Promise<BenchProject[]> {
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    uuid: crypto.randomUUID(),
    workspace_id: workspaceId,
    name: `Bench project ${i + 1}`,
    project_id: generateProjectKey(network.prefix),
    network_id: network.id,
    created_at: now,
    updated_at: now,
  }));
  await db.transaction(async (trx) => {
    for (let i = 0; i < rows.length; i += chunk) await trx('projects').insert(rows.slice(i, i + chunk));
    await recordGatewayChange(trx, 'project', 'bench');
  });
  const stored = await db('projects').where({ workspace_id: workspaceId }).select('id', 'uuid', 'project_id');
  const byUuid = new Map(stored.map((r) => [r.uuid as string, r as { id: number; project_id: string }]));
  return rows.map((r) => ({ id: byUuid.get(r.uuid)!.id, uuid: r.uuid, key: r.project_id }));
}
