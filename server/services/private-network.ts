import type { Db } from '../db/index';
import { PRIVATE_NETWORK_DIMENSION, PRIVATE_NETWORK_VALUE } from '../../shared/usage';

/**
 * Requests of a project in its 30-day statistics window (usage_window, which the stats read moves
 * forward first) that came from private, loopback, link-local or CGNAT addresses. Geolocation records
 * those as country 'unknown'; the dashboard shows this part of 'unknown' as 'Private network' (on
 * every plan, also where the IP card is locked). The metering flush counts them per day (isPrivateIp
 * on each client address) into their own window row, so this reads one row whatever the traffic.
 */
export async function privateNetworkRequests(db: Db, projectId: number): Promise<number> {
  const row = (await db('usage_window').where({ project_id: projectId, dimension: PRIVATE_NETWORK_DIMENSION, value: PRIVATE_NETWORK_VALUE }).first('requests')) as
    | { requests: number | string }
    | undefined;
  return Math.max(0, Number(row?.requests ?? 0));
}
