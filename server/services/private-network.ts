import type { Db } from '../db/index';
import { isPrivateIp } from '../../shared/ip';
import { HISTORY_DAYS } from '../../shared/usage';

const DAY_MS = 86_400_000;

// Only addresses that can be private are read back: IPv4 ones starting like a private range, and IPv6
// ones (loopback, unique local, link-local, IPv4-mapped); isPrivateIp then decides exactly.
const CANDIDATE_PREFIXES = ['10.%', '127.%', '172.%', '192.168.%', '169.254.%', '100.%', '0.%', ':%', 'f%', 'F%', '0:%'];

/**
 * Requests of a project over the statistics' 30 days that came from private, loopback, link-local or
 * CGNAT addresses. Geolocation records those as country 'unknown'; the dashboard shows this part of
 * 'unknown' as 'Private network' (on every plan, also where the IP card is locked).
 */
export async function privateNetworkRequests(db: Db, projectId: number, now = Date.now()): Promise<number> {
  const from = now - (now % DAY_MS) - (HISTORY_DAYS - 1) * DAY_MS;
  const rows = (await db('usage_dimensions')
    .where({ project_id: projectId, dimension: 'ip' })
    .andWhere('day_ms', '>=', from)
    .andWhere((q) => {
      for (const prefix of CANDIDATE_PREFIXES) void q.orWhere('value', 'like', prefix);
    })
    .groupBy('value')
    .select('value')
    .sum({ requests: 'requests' })) as Array<{ value: string; requests: number | string }>;
  return rows.reduce((sum, r) => (isPrivateIp(String(r.value)) ? sum + Number(r.requests) : sum), 0);
}
