import { isPostgres, type Db } from '../../db/index';
import { HISTORY_DAYS } from '../../../shared/usage';
import { REFUSED_DIMENSION } from '../../../shared/allow-list';
import {
  LATENCY_BINS,
  LATENCY_BINS_PER_ROW,
  LATENCY_RESOLUTION,
  RECENT_FAILURES_KEPT,
  STATUS_CLASSES,
  percentileFromBins,
  statusClassOf,
  type InsightHour,
  type ProjectInsight,
  type StatusClass,
} from '../../../shared/insight';
import { DAY_MS, dayStartOf, HOUR_MS } from '../../../shared/time';

const BIN_COLUMNS = Array.from({ length: LATENCY_BINS_PER_ROW }, (_, i) => `b${i}`);

type BinRow = { first_bin: number | string } & Record<string, number | string | null>;

/** Adds rows of usage_latency (LATENCY_BINS_PER_ROW bins from first_bin each) into a full histogram. */
function addRows(into: Float64Array, rows: readonly BinRow[]): void {
  for (const row of rows) {
    const from = Number(row.first_bin);
    for (let i = 0; i < LATENCY_BINS_PER_ROW && from + i < LATENCY_BINS; i++) if (from + i >= 0) into[from + i]! += Number(row[`b${i}`] ?? 0);
  }
}

const total = (bins: Float64Array): number => bins.reduce((a, b) => a + b, 0);

/**
 * A project's request insight over the statistics' 30 days (today included): latency percentiles
 * from the merged day histograms, requests by status class from the status dimension, today's
 * 24 hours, and the recent failed requests. Every read is bounded by days or hours, never by the
 * traffic behind them: 11 histogram rows a day at most (a day's hours until the retention pass
 * moves them into day rows), 30 × (distinct statuses) status rows, 24 × 11 hour rows and
 * RECENT_FAILURES_KEPT log rows.
 */
export async function projectInsight(db: Db, projectId: number, now = Date.now()): Promise<ProjectInsight> {
  const today = dayStartOf(now);
  const from = today - (HISTORY_DAYS - 1) * DAY_MS;
  const tomorrow = today + DAY_MS;
  const sums = db.raw(BIN_COLUMNS.map((c) => `sum(${c}) as ${c}`).join(', '));
  const [dayRows, hourRows, statusRows, hourRequests, errorRows, failures, refusedRows] = await Promise.all([
    // Past days' hours are moved into day rows by compactLatency (each row is in one or the other,
    // never both), so the 30 days are the day rows and the hours not moved yet, summed together.
    db('usage_latency').where({ project_id: projectId }).andWhere('bucket_ms', '>=', from).groupBy('first_bin').select('first_bin', sums),
    db('usage_latency')
      .where({ project_id: projectId, granularity: 'h' })
      .andWhere('bucket_ms', '>=', today)
      .andWhere('bucket_ms', '<', tomorrow)
      .select('bucket_ms', 'first_bin', ...BIN_COLUMNS),
    db('usage_dimensions').where({ project_id: projectId, dimension: 'status' }).andWhere('day_ms', '>=', from).groupBy('value').select('value').sum({ n: 'requests' }),
    db('usage_rollups').where({ project_id: projectId, granularity: 'h' }).andWhere('bucket_ms', '>=', today).andWhere('bucket_ms', '<', tomorrow).select('bucket_ms', 'requests'),
    db('usage_error_hours').where({ project_id: projectId }).andWhere('hour_ms', '>=', today).andWhere('hour_ms', '<', tomorrow).select('hour_ms', 'status_class', 'requests'),
    db('failed_requests')
      .where({ project_id: projectId })
      .andWhere('at_ms', '>=', from)
      .orderBy([
        { column: 'at_ms', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(RECENT_FAILURES_KEPT)
      .select('at_ms', 'endpoint', 'status', 'ip', 'message'),
    db('usage_dimensions').where({ project_id: projectId, dimension: REFUSED_DIMENSION }).andWhere('day_ms', '>=', from).groupBy('value').select('value').sum({ n: 'requests' }),
  ]);
  const refused = { origin: 0, ip: 0, method: 0 };
  for (const r of refusedRows as Array<{ value: string; n: number | string }>) if (r.value in refused) refused[r.value as keyof typeof refused] += Number(r.n);

  const days = new Float64Array(LATENCY_BINS);
  addRows(days, dayRows as BinRow[]);

  const classes: Record<StatusClass, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  for (const r of statusRows as Array<{ value: string; n: number | string }>) {
    const c = statusClassOf(Number(r.value));
    if (c) classes[c] += Number(r.n);
  }
  const requests = STATUS_CLASSES.reduce((n, c) => n + classes[c], 0);

  const hourBins = new Map<number, Float64Array>();
  for (const r of hourRows as Array<BinRow & { bucket_ms: number | string }>) {
    const hour = Number(r.bucket_ms);
    let bins = hourBins.get(hour);
    if (!bins) hourBins.set(hour, (bins = new Float64Array(LATENCY_BINS)));
    addRows(bins, [r]);
  }
  const requestsByHour = new Map((hourRequests as Array<{ bucket_ms: number | string; requests: number | string }>).map((r) => [Number(r.bucket_ms), Number(r.requests)]));
  const errorsByHour = new Map<string, number>();
  for (const r of errorRows as Array<{ hour_ms: number | string; status_class: number | string; requests: number | string }>) {
    errorsByHour.set(`${Number(r.hour_ms)}|${Number(r.status_class)}`, Number(r.requests));
  }
  const hours: InsightHour[] = Array.from({ length: 24 }, (_, i) => {
    const time = today + i * HOUR_MS;
    const bins = hourBins.get(time);
    return {
      time,
      requests: requestsByHour.get(time) ?? 0,
      errors4xx: errorsByHour.get(`${time}|4`) ?? 0,
      errors5xx: errorsByHour.get(`${time}|5`) ?? 0,
      p95Ms: bins ? percentileFromBins(bins, 0.95) : null,
    };
  });

  return {
    from,
    latency: {
      requests: total(days),
      p50Ms: percentileFromBins(days, 0.5),
      p95Ms: percentileFromBins(days, 0.95),
      p99Ms: percentileFromBins(days, 0.99),
      resolution: LATENCY_RESOLUTION,
    },
    statusClasses: classes,
    requests,
    refused,
    errorRate: requests > 0 ? (classes['4xx'] + classes['5xx']) / requests : null,
    today: { day: today, hours },
    recentFailures: (failures as Array<{ at_ms: number | string; endpoint: string; status: number | string; ip: string; message: string | null }>).map((f) => ({
      time: Number(f.at_ms),
      endpoint: f.endpoint,
      status: Number(f.status),
      ip: f.ip,
      message: f.message || null,
    })),
  };
}

/**
 * Moves the hour histograms of the days before today into one row per project, day and row of bins
 * (the flush writes hours only: today's chart needs them and a day row would double its work).
 * The move is one statement on PostgreSQL (the deleted rows are exactly those added up, whatever a
 * flush does meanwhile) and one transaction on SQLite (it holds the file's write lock from its
 * start, so no flush writes between its two statements); a late flush's hour of a past day is
 * moved by the next pass. Answers how many hour rows were moved.
 */
export async function compactLatency(db: Db, now = Date.now()): Promise<number> {
  const today = dayStartOf(now);
  const cols = BIN_COLUMNS.join(', ');
  const insert = `insert into usage_latency (project_id, granularity, bucket_ms, first_bin, ${cols})`;
  const select = (from: string, where: string) =>
    `select project_id, 'd', bucket_ms - (bucket_ms % ${DAY_MS}), first_bin, ${BIN_COLUMNS.map((c) => `sum(${c})`).join(', ')} from ${from} ${where}
     group by project_id, bucket_ms - (bucket_ms % ${DAY_MS}), first_bin`;
  const upsert = `on conflict (project_id, granularity, bucket_ms, first_bin) do update set ${BIN_COLUMNS.map((c) => `${c} = usage_latency.${c} + excluded.${c}`).join(', ')}`;
  if (isPostgres(db)) {
    const moved = await db.raw(
      `with moved as (delete from usage_latency where granularity = 'h' and bucket_ms < ${Math.trunc(today)} returning project_id, bucket_ms, first_bin, ${cols}),
       added as (${insert} ${select('moved', 'where true')} ${upsert})
       select count(*) as n from moved`,
    );
    return Number((moved.rows as Array<{ n: number | string }>)[0]?.n ?? 0);
  }
  return db.transaction(async (trx) => {
    await trx.raw(`${insert} ${select('usage_latency', `where granularity = 'h' and bucket_ms < ${Math.trunc(today)}`)} ${upsert}`);
    return Number(await trx('usage_latency').where({ granularity: 'h' }).andWhere('bucket_ms', '<', today).delete());
  });
}
