import crypto from 'node:crypto';
import type { Db } from '../../db/index';
import type { Logger } from '../../logger';
import { SerialTicker } from '../../ticker';

export type ServiceRole = 'gateway' | 'worker';

/** How often a running part says it is alive, and how long after its last word it counts as down. */
export const HEARTBEAT_MS = 5_000;
export const HEARTBEAT_STALE_MS = 20_000;

/** Writes this process's heartbeat for `role` every HEARTBEAT_MS until stopped (then removes it). */
export function startHeartbeat(db: Db, role: ServiceRole, logger: Logger, now: () => number = Date.now) {
  const instance = `${role}-${crypto.randomUUID()}`;
  const startedAt = now();
  const ticker = new SerialTicker(
    async () => {
      await db('service_heartbeats')
        .insert({ instance, role, started_at: startedAt, beat_at: now() })
        .onConflict('instance')
        .merge(['beat_at']);
      // Heartbeats of processes that ended without saying so are of no further use.
      await db('service_heartbeats').where('beat_at', '<', now() - 24 * 3_600_000).delete();
    },
    HEARTBEAT_MS,
    (err) => logger.warn({ err: { message: err.message } }, `${role}: heartbeat failed`),
  );
  ticker.start();
  return {
    async stop() {
      await ticker.stop();
      await db('service_heartbeats').where({ instance }).delete().catch(() => undefined);
    },
  };
}

/** The newest heartbeat of each role (epoch ms), or null for a role never seen. */
export async function latestHeartbeats(db: Db): Promise<Record<ServiceRole, number | null>> {
  const rows = (await db('service_heartbeats').select('role').max({ beat: 'beat_at' }).groupBy('role')) as Array<{ role: string; beat: number | string | null }>;
  const out: Record<ServiceRole, number | null> = { gateway: null, worker: null };
  for (const r of rows) if (r.role === 'gateway' || r.role === 'worker') out[r.role] = r.beat === null ? null : Number(r.beat);
  return out;
}
