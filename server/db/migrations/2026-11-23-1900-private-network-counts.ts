import type { Knex } from 'knex';
import { isPrivateIp } from '../../../shared/ip';

// The statistics' 'Private network' count summed every IP of a project's 30-day window (thousands of
// rows for a busy project) on each read. The metering flush now counts those requests per day under
// their own dimension, in usage_dimensions and in the window (server/features/stats/usage.ts reads it). This
// fills that dimension in from the IP counts already stored; on a new database there is nothing to fill.
const DIMENSION = 'private';
const VALUE = '*';
/** Addresses that can be private; isPrivateIp then decides exactly (SQLite's LIKE ignores case, PostgreSQL's does not: both cases listed). */
const CANDIDATES = ['10.%', '127.%', '172.%', '192.168.%', '169.254.%', '100.%', '0.%', ':%', 'f%', 'F%', '0:%'];

const candidates = (q: Knex.QueryBuilder) =>
  q.andWhere((w) => {
    for (const prefix of CANDIDATES) void w.orWhere('value', 'like', prefix);
  });

async function insertChunks(knex: Knex, table: string, rows: object[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await knex(table).insert(rows.slice(i, i + 200));
}

export async function up(knex: Knex): Promise<void> {
  const perDay = new Map<string, { project_id: number; dimension: string; day_ms: number; value: string; requests: number }>();
  const dayRows = (await candidates(knex('usage_dimensions').where({ dimension: 'ip' }).andWhere('requests', '>', 0)).select('project_id', 'day_ms', 'value', 'requests')) as Array<{
    project_id: number;
    day_ms: number | string;
    value: string;
    requests: number | string;
  }>;
  for (const r of dayRows) {
    if (!isPrivateIp(String(r.value))) continue;
    const k = `${r.project_id}|${r.day_ms}`;
    const e = perDay.get(k) ?? { project_id: Number(r.project_id), dimension: DIMENSION, day_ms: Number(r.day_ms), value: VALUE, requests: 0 };
    e.requests += Number(r.requests);
    perDay.set(k, e);
  }
  await insertChunks(knex, 'usage_dimensions', [...perDay.values()]);

  const perProject = new Map<number, { project_id: number; dimension: string; value: string; requests: number }>();
  const windowRows = (await candidates(knex('usage_window').where({ dimension: 'ip' }).andWhere('requests', '>', 0)).select('project_id', 'value', 'requests')) as Array<{
    project_id: number;
    value: string;
    requests: number | string;
  }>;
  for (const r of windowRows) {
    if (!isPrivateIp(String(r.value))) continue;
    const id = Number(r.project_id);
    const e = perProject.get(id) ?? { project_id: id, dimension: DIMENSION, value: VALUE, requests: 0 };
    e.requests += Number(r.requests);
    perProject.set(id, e);
  }
  await insertChunks(knex, 'usage_window', [...perProject.values()]);
}

export async function down(knex: Knex): Promise<void> {
  await knex('usage_dimensions').where({ dimension: DIMENSION }).delete();
  if (await knex.schema.hasTable('usage_window')) await knex('usage_window').where({ dimension: DIMENSION }).delete();
}
