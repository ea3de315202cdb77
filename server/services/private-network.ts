import type { Db } from '../db/index';
import { isPrivateIp } from '../../shared/ip';

// Only addresses that can be private are read back: IPv4 ones starting like a private range, and IPv6
// ones (loopback, unique local, link-local, IPv4-mapped); isPrivateIp then decides exactly.
const CANDIDATE_PREFIXES = ['10.%', '127.%', '172.%', '192.168.%', '169.254.%', '100.%', '0.%', ':%', 'f%', 'F%', '0:%'];

/**
 * Requests of a project in its 30-day statistics window (usage_window, which the stats read moves
 * forward first) that came from private, loopback, link-local or CGNAT addresses. Geolocation records
 * those as country 'unknown'; the dashboard shows this part of 'unknown' as 'Private network' (on
 * every plan, also where the IP card is locked).
 */
export async function privateNetworkRequests(db: Db, projectId: number): Promise<number> {
  const rows = (await db('usage_window')
    .where({ project_id: projectId, dimension: 'ip' })
    .andWhere('requests', '>', 0)
    .andWhere((q) => {
      for (const prefix of CANDIDATE_PREFIXES) void q.orWhere('value', 'like', prefix);
    })
    .select('value', 'requests')) as Array<{ value: string; requests: number | string }>;
  return rows.reduce((sum, r) => (isPrivateIp(String(r.value)) ? sum + Number(r.requests) : sum), 0);
}
