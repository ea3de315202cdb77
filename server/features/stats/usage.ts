import { isPostgres, type Db } from '../../db/index';
import { plans, type PlanName } from '../../../shared/plans';
import { type ProjectHistory, type ProjectStats, type StatsRow, HISTORY_DAYS, PRIVATE_NETWORK_DIMENSION, PRIVATE_NETWORK_VALUE, TOP_N } from '../../../shared/usage';
import { getSubscription } from '../workspaces/index';
import { DAY_MS, dayStartOf as dayStart } from '../../../shared/time';

/** Requests today (UTC) per project, from the gateway's day rollups. */
export async function requestsToday(db: Db, projectIds: number[], now = Date.now()): Promise<Map<number, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db('usage_rollups').where({ granularity: 'd', bucket_ms: dayStart(now) }).whereIn('project_id', projectIds).select('project_id', 'requests');
  return new Map(rows.map((r) => [r.project_id as number, Number(r.requests)]));
}

/** Requests per UTC day over the last 30 days (today included), zeros where nothing was called. */
export async function projectHistory(db: Db, projectId: number, now = Date.now()): Promise<ProjectHistory> {
  const today = dayStart(now);
  const from = today - (HISTORY_DAYS - 1) * DAY_MS;
  const rows = await db('usage_rollups')
    .where({ project_id: projectId, granularity: 'd' })
    .andWhere('bucket_ms', '>=', from)
    .select('bucket_ms', 'requests');
  const byDay = new Map(rows.map((r) => [Number(r.bucket_ms), Number(r.requests)]));
  const data = Array.from({ length: HISTORY_DAYS }, (_, i) => {
    const time = from + i * DAY_MS;
    return { time, requestCount: byDay.get(time) ?? 0 };
  });
  return { data, max: data.reduce((m, d) => Math.max(m, d.requestCount), 0) };
}

/** The dimensions whose 30-day totals usage_window keeps (the metering flush adds to them). */
export const WINDOW_DIMENSIONS = ['country', 'ip', 'endpoint', 'browser', PRIVATE_NETWORK_DIMENSION] as const;
const DEADLOCK = '40P01';

/**
 * Moves a project's 30-day window so that it starts at `from`: the days that fell out are subtracted
 * (one grouped statement over those days' rows, once a day for a project that is read every day),
 * values left at 0 are dropped, and the new start is stored, all in one transaction. Several
 * readers at once: the start row is locked (PostgreSQL) or the transaction holds the file's write
 * lock from its start (SQLite), so a day is never subtracted twice. The metering flush only adds
 * days after `from`, so it never meets these statements on the same day's counts. The retention
 * job calls this before it prunes usage_dimensions, so no day still inside a window is pruned
 * before it is subtracted.
 */
export async function advanceWindow(db: Db, projectId: number, from: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction(async (trx) => {
        await trx('usage_window_starts').insert({ project_id: projectId, day_ms: 0 }).onConflict('project_id').ignore();
        const starts = trx('usage_window_starts').where({ project_id: projectId });
        const row = await (isPostgres(db) ? starts.forUpdate() : starts).first('day_ms');
        const start = Number(row?.day_ms ?? 0);
        if (start >= from) return;
        await trx.raw(
          `insert into usage_window (project_id, dimension, value, requests)
           select project_id, dimension, value, -sum(requests) from usage_dimensions
           where project_id = ? and dimension in (${WINDOW_DIMENSIONS.map(() => '?').join(', ')}) and day_ms >= ? and day_ms < ?
           group by project_id, dimension, value order by dimension, value
           on conflict (project_id, dimension, value) do update set requests = usage_window.requests + excluded.requests`,
          [projectId, ...WINDOW_DIMENSIONS, start, from],
        );
        await trx('usage_window').where({ project_id: projectId }).andWhere('requests', '<=', 0).delete();
        await trx('usage_window_starts').where({ project_id: projectId }).update({ day_ms: from });
      });
      return;
    } catch (err) {
      // PostgreSQL may pick this transaction to break a deadlock with a metering flush: take it again.
      if ((err as { code?: string }).code !== DEADLOCK || attempt >= 3) throw err;
    }
  }
}

/** Moves the window of every project that has one to `from` (for the retention job, before it prunes usage_dimensions). */
export async function advanceAllWindows(db: Db, now = Date.now()): Promise<number> {
  const from = windowStart(now);
  const stale = await db('usage_window_starts').where('day_ms', '<', from).pluck('project_id');
  const fresh = await db('usage_dimensions').whereNotIn('project_id', db('usage_window_starts').select('project_id')).distinct().pluck('project_id');
  const ids = [...new Set([...stale, ...fresh].map(Number))];
  for (const id of ids) await advanceWindow(db, id, from);
  return ids.length;
}

const windowStart = (now: number) => dayStart(now) - (HISTORY_DAYS - 1) * DAY_MS;

/** The TOP 10 cards, countries first (the one every plan shows). */
const WINDOW_TOPS = ['country', 'ip', 'endpoint', 'browser'] as const;
type Top = Array<{ value: string; requests: number }>;

/**
 * Everything the statistics page reads, in one statement (one round trip, one connection): the
 * window's start, the 30-day total from the day rollups, and each dimension's TOP 10 read off the
 * usage_window_top index (at most ten index entries each).
 */
async function readStats(db: Db, projectId: number, from: number, dimensions: readonly string[]) {
  const tops = dimensions.map(
    (_, i) =>
      `select * from (select ? as part, value, requests from usage_window where project_id = ? and dimension = ? and requests > 0 order by requests desc, value asc limit ${TOP_N}) as top${i}`,
  );
  const parts = [
    `select 'start' as part, null as value, day_ms as requests from usage_window_starts where project_id = ?`,
    `select 'total' as part, null as value, sum(requests) as requests from usage_rollups where project_id = ? and granularity = 'd' and bucket_ms >= ?`,
    // Requests from private, loopback, link-local and CGNAT clients: one row the metering flush keeps (isPrivateIp at flush time).
    `select 'private' as part, null as value, requests from usage_window where project_id = ? and dimension = '${PRIVATE_NETWORK_DIMENSION}' and value = '${PRIVATE_NETWORK_VALUE}'`,
    ...tops,
  ];
  // The TOP 10 order said once more over the union, which on its own promises no order.
  const sql = `select part, value, requests from (${parts.join(' union all ')}) as stats order by part, requests desc, value asc`;
  const bindings: Array<string | number> = [projectId, projectId, from, projectId];
  for (const d of dimensions) bindings.push(d, projectId, d);
  const result = await db.raw(sql, bindings);
  const rows = (isPostgres(db) ? result.rows : result) as Array<{ part: string; value: string | null; requests: number | string | null }>;
  let start = 0;
  let total = 0;
  let privateNetwork = 0;
  const top = new Map<string, Array<{ value: string; requests: number }>>(dimensions.map((d) => [d, []]));
  for (const r of rows) {
    if (r.part === 'start') start = Number(r.requests ?? 0);
    else if (r.part === 'total') total = Number(r.requests ?? 0);
    else if (r.part === 'private') privateNetwork = Math.max(0, Number(r.requests ?? 0));
    else top.get(r.part)?.push({ value: String(r.value), requests: Number(r.requests) });
  }
  return { start, total, privateNetwork, top };
}

/**
 * TOP 10 countries, IP addresses, endpoints and browsers over the last 30 days, with the total,
 * read from the project's 30-day window (moved forward first when a day has fallen out of it).
 * On plans without detailed statistics only the countries (the locations map) are answered.
 */
export async function projectStats(db: Db, projectId: number, plan: PlanName, now = Date.now()): Promise<ProjectStats> {
  const from = windowStart(now);
  const detailed = plans[plan].detailedStats;
  const { start, total, privateNetwork, top } = await readStats(db, projectId, from, detailed ? WINDOW_TOPS : WINDOW_TOPS.slice(0, 1));
  // A day fell out of the window since it last moved (the first read of the day): move it and read again.
  if (start < from) {
    await advanceWindow(db, projectId, from);
    return projectStats(db, projectId, plan, now);
  }
  const [countries, ips, endpoints, browsers] = WINDOW_TOPS.map((d) => top.get(d) ?? []) as [Top, Top, Top, Top];
  const rows = <K extends keyof StatsRow>(list: Array<{ value: string; requests: number }>, key: K) =>
    list.map((r) => ({ [key]: r.value, requests: r.requests }) as Pick<StatsRow, K> & { requests: number });
  return {
    projectRequests: total,
    total,
    locked: !detailed,
    countries: rows(countries, 'user_country'),
    ips: rows(ips, 'ip'),
    endpoints: rows(endpoints, 'endpoint'),
    browsers: rows(browsers, 'user_agent_browser'),
    privateNetworkRequests: privateNetwork,
  };
}

/** The 30-day statistics of a project of this workspace, detailed as the owner's plan allows. */
export async function statsOfProject(db: Db, project: { id: number }, ownerId: number, now = Date.now()): Promise<ProjectStats> {
  const { plan } = await getSubscription(db, ownerId);
  return projectStats(db, project.id, plan.name, now);
}
