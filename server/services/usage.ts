import type { Knex } from 'knex';
import { isPostgres, type Db } from '../db/index';
import type { PlanName } from '../../shared/plans';
import type { ProjectHistory, ProjectStats, StatsRow } from '../../shared/usage';
import { DETAILED_STATS_PLANS, HISTORY_DAYS, TOP_N } from '../../shared/usage';
import { getSubscription } from './subscriptions';

const DAY_MS = 86_400_000;
const dayStart = (ms: number) => ms - (ms % DAY_MS);

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

/**
 * The dimension rows to group. On SQLite the covering index (project, dimension, value, day, requests;
 * migration 0500) is named: without table statistics the planner takes the primary key instead and
 * sorts every row of the month into a temporary tree, three times slower for a busy project's IPs.
 */
const dimensionRows = (db: Db): Knex.QueryBuilder => (isPostgres(db) ? db('usage_dimensions') : db.from(db.raw('?? indexed by ??', ['usage_dimensions', 'usage_dimensions_by_value'])));

async function top(db: Db, projectId: number, dimension: string, from: number): Promise<Array<{ value: string; requests: number }>> {
  const rows = await dimensionRows(db)
    .where({ project_id: projectId, dimension })
    .andWhere('day_ms', '>=', from)
    .groupBy('value')
    .select('value')
    .sum({ requests: 'requests' })
    .orderBy('requests', 'desc')
    .orderBy('value', 'asc')
    .limit(TOP_N);
  return (rows as Array<{ value: string; requests: number | string }>).map((r) => ({ value: String(r.value), requests: Number(r.requests) }));
}

/**
 * TOP 10 countries, IP addresses, endpoints and browsers over the last 30 days, with the total.
 * On plans without detailed statistics only the countries (the locations map) are answered.
 */
export async function projectStats(db: Db, projectId: number, plan: PlanName, now = Date.now()): Promise<ProjectStats> {
  const from = dayStart(now) - (HISTORY_DAYS - 1) * DAY_MS;
  const detailed = DETAILED_STATS_PLANS.includes(plan);
  // Together: PostgreSQL runs them side by side on its pool (SQLite's one connection takes them in turn).
  const [totalRow, countries, ips, endpoints, browsers] = await Promise.all([
    db('usage_rollups').where({ project_id: projectId, granularity: 'd' }).andWhere('bucket_ms', '>=', from).sum({ n: 'requests' }).first(),
    top(db, projectId, 'country', from),
    detailed ? top(db, projectId, 'ip', from) : Promise.resolve([]),
    detailed ? top(db, projectId, 'endpoint', from) : Promise.resolve([]),
    detailed ? top(db, projectId, 'browser', from) : Promise.resolve([]),
  ]);
  const total = Number(totalRow?.n ?? 0);
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
  };
}

/** The 30-day statistics of a project of this workspace, detailed as the owner's plan allows. */
export async function statsOfProject(db: Db, project: { id: number }, ownerId: number, now = Date.now()): Promise<ProjectStats> {
  const { plan } = await getSubscription(db, ownerId);
  return projectStats(db, project.id, plan.name, now);
}
