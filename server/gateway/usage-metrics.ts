// Blockfrost's /metrics and /metrics/endpoints: the calling project's own usage of the last 30 days,
// read from the gateway's metering rollups (usage_rollups by day, usage_dimensions by endpoint). The
// gateway answers them on every network, whatever serves the network's other paths, since only the
// gateway knows the project behind a key.
import type http from 'node:http';
import type { Db } from '../db/index';
import type { AdmittedCall, GatewayBackend } from './backend';
import { sendBlockfrostError, sendJson } from './respond';
import { INTERNAL_ERROR_MESSAGE } from '../blockfrost/http';
import { DAY_MS } from '../../shared/time';

/** Blockfrost: 'History of your Blockfrost usage metrics in the past 30 days' (today and the 29 before). */
const DAYS = 30;

export const METRICS_TEMPLATES = new Set(['/metrics', '/metrics/endpoints']);

export interface DailyCalls {
  /** The UTC day's start, UNIX seconds. */
  time: number;
  calls: number;
}

export interface DailyEndpointCalls extends DailyCalls {
  /** The endpoint as Blockfrost's document names it (`/blocks/{hash_or_number}`). */
  endpoint: string;
}

export interface UsageMetrics {
  calls(projectId: number, now: number): Promise<DailyCalls[]>;
  endpoints(projectId: number, now: number): Promise<DailyEndpointCalls[]>;
}

const firstDay = (now: number): number => Math.floor(now / DAY_MS) * DAY_MS - (DAYS - 1) * DAY_MS;

export function usageMetrics(db: Db): UsageMetrics {
  return {
    async calls(projectId, now) {
      const rows = (await db('usage_rollups')
        .where({ project_id: projectId, granularity: 'd' })
        .andWhere('bucket_ms', '>=', firstDay(now))
        .orderBy('bucket_ms', 'asc')
        .select('bucket_ms', 'requests')) as Array<{ bucket_ms: number | string; requests: number | string }>;
      return rows.map((r) => ({ time: Number(r.bucket_ms) / 1000, calls: Number(r.requests) }));
    },
    async endpoints(projectId, now) {
      const rows = (await db('usage_dimensions')
        .where({ project_id: projectId, dimension: 'endpoint' })
        .andWhere('day_ms', '>=', firstDay(now))
        .select('day_ms', 'value', 'requests')) as Array<{ day_ms: number | string; value: string; requests: number | string }>;
      // Sorted here, not by the database: the same order on SQLite and under any PostgreSQL collation.
      return rows
        .map((r) => ({ time: Number(r.day_ms) / 1000, calls: Number(r.requests), endpoint: r.value }))
        .sort((x, y) => x.time - y.time || (x.endpoint < y.endpoint ? -1 : x.endpoint > y.endpoint ? 1 : 0));
    },
  };
}

/** The gateway's backend for the two templates: answers the admitted project's own figures. */
export function metricsBackend(usage: UsageMetrics, now: () => number, onError: (err: unknown) => void) {
  return (template: string): GatewayBackend => ({
    kind: 'metrics',
    admits: 'request',
    handle(_req: http.IncomingMessage, res: http.ServerResponse, _path: string, call: AdmittedCall): void {
      const read = template === '/metrics' ? usage.calls(call.project.projectId, now()) : usage.endpoints(call.project.projectId, now());
      read.then(
        (rows) => sendJson(res, 200, rows),
        (err: unknown) => {
          onError(err);
          if (!res.headersSent) sendBlockfrostError(res, 500, INTERNAL_ERROR_MESSAGE);
        },
      );
    },
  });
}
