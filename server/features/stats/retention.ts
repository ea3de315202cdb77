import type { Db } from '../../db/index';
import type { Logger } from '../../logger';
import { SerialTicker } from '../../ticker';
import { pruneDesktopSignIns, pruneSignInThrottle } from '../accounts/index';
import { pruneAuditEntries } from '../audit/index';
import { advanceAllWindows } from './usage';
import { compactLatency } from './insight';
import { DAY_MS, HOUR_MS } from '../../../shared/time';

/**
 * How long each table that only grows keeps its rows (docs/operations.md's retention table says the same).
 * The dashboard reads day rollups and dimensions of the last 30 days; hour rollups serve
 * today's charts and billing checks; day rollups and quota rows stay for a year of invoices.
 */
export const RETENTION = {
  gatewayChangesMs: DAY_MS,
  hourRollupsMs: 35 * DAY_MS,
  dayRollupsMs: 400 * DAY_MS,
  dimensionsMs: 35 * DAY_MS,
  quotaUsageMs: 400 * DAY_MS,
  /**
   * Request insight: today's hourly chart reads hour error counts (and hour histograms, which every
   * pass moves into day rows once their day is over); the 30-day percentiles read the day rows.
   */
  hourInsightMs: 2 * DAY_MS,
  dayLatencyMs: 35 * DAY_MS,
  /** The failed-request log also keeps at most 100 rows per project (trimmed by every metering flush that adds to it). */
  failedRequestsMs: 30 * DAY_MS,
} as const;

export const RETENTION_INTERVAL_MS = HOUR_MS;

export type PruneReport = Record<string, number>;

export interface RetentionOptions {
  /**
   * The webhook outbox's own prune of delivered, failed and cancelled webhook events and their
   * attempts, called on every run. Owned by the outbox; the worker passes it in when it starts retention.
   */
  pruneWebhookOutbox?: (db: Db, now: number) => Promise<number>;
  /** Transaction tracking's prune of settled submitted transactions (server/features/txs), called on every run. */
  pruneTrackedTxs?: (db: Db, now: number) => Promise<number>;
  /** Devnets' prune of the accepted transactions of devnets whose project was deleted (server/features/devnets), called on every run. */
  pruneDevnetLedgers?: (db: Db) => Promise<number>;
  /** Webhooks' prune of the chain cursors of devnets that no longer exist (server/features/webhooks), called on every run. */
  pruneDevnetCursors?: (db: Db) => Promise<number>;
  /** How long the workspace audit log keeps an entry (AUDIT_RETENTION_DAYS); 400 days when not given. */
  auditRetentionDays?: number;
}

export const DEFAULT_AUDIT_RETENTION_DAYS = 400;

const deleted = (n: unknown): number => (typeof n === 'number' ? n : 0);

/** One pass over every table that only grows; answers how many rows each step removed. */
export async function pruneOnce(db: Db, now = Date.now(), opts: RetentionOptions = {}): Promise<PruneReport> {
  const report: PruneReport = {};

  // gateway_changes: the key caches only read rows after the last one they applied (every 250 ms);
  // the newest row always stays, so a cache never sees the log move backwards.
  const newest = Number((await db('gateway_changes').max({ id: 'id' }).first())?.id ?? 0);
  report.gateway_changes = deleted(await db('gateway_changes').where('created_at', '<', now - RETENTION.gatewayChangesMs).andWhere('id', '<', newest).delete());

  // Usage of projects that no longer exist (no foreign key: the gateway may still flush their last counts).
  report.usage_of_deleted_projects = 0;
  for (const table of ['usage_rollups', 'usage_dimensions', 'usage_window', 'usage_window_starts', 'usage_latency', 'usage_error_hours', 'failed_requests'] as const) {
    report.usage_of_deleted_projects += deleted(
      await db(table)
        .whereNotExists((q) => q.select(db.raw('1')).from('projects').whereRaw(`projects.id = ${table}.project_id`))
        .delete(),
    );
  }
  report.quota_of_deleted_users = deleted(
    await db('quota_usage')
      .whereNotExists((q) => q.select(db.raw('1')).from('users').whereRaw('users.id = quota_usage.user_id'))
      .delete(),
  );

  // Old days.
  report.usage_rollups = 0;
  for (const [granularity, keep] of [
    ['h', RETENTION.hourRollupsMs],
    ['d', RETENTION.dayRollupsMs],
  ] as const) {
    report.usage_rollups += deleted(await db('usage_rollups').where({ granularity }).andWhere('bucket_ms', '<', now - keep).delete());
  }
  // Every project's 30-day statistics window first subtracts the days that fell out of it, so no day
  // still counted in a window is pruned before it is subtracted (services/usage.ts).
  report.usage_windows_moved = await advanceAllWindows(db, now);
  report.usage_dimensions = deleted(await db('usage_dimensions').where('day_ms', '<', now - RETENTION.dimensionsMs).delete());
  report.quota_usage = deleted(await db('quota_usage').where('day_ms', '<', now - RETENTION.quotaUsageMs).delete());

  // Request insight (shared/insight.ts): past days' hour histograms become day rows (today's chart
  // keeps its hours), day rows serve the 30 days.
  report.usage_latency_hours_moved = await compactLatency(db, now);
  report.usage_latency = deleted(await db('usage_latency').where('bucket_ms', '<', now - RETENTION.dayLatencyMs).delete());
  report.usage_error_hours = deleted(await db('usage_error_hours').where('hour_ms', '<', now - RETENTION.hourInsightMs).delete());
  report.failed_requests = deleted(await db('failed_requests').where('at_ms', '<', now - RETENTION.failedRequestsMs).delete());

  // Sessions past their expiry (anonymous ones expire an hour after their last request).
  report.sessions = deleted(await db('sessions').where('expires_at', '<=', now).delete());
  report.magic_link_tokens = deleted(await db('magic_link_tokens').where('expires_at', '<', now - DAY_MS).delete());
  report.sign_in_throttle = await pruneSignInThrottle(db, now);
  report.desktop_sign_ins = await pruneDesktopSignIns(db, now);

  // The workspace audit log: append-only, so this is the one place its entries are deleted.
  report.audit_entries = await pruneAuditEntries(db, now, opts.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS);

  // Webhook events and attempts are pruned by the outbox module (see RetentionOptions).
  if (opts.pruneWebhookOutbox) report.webhook_outbox = await opts.pruneWebhookOutbox(db, now);
  if (opts.pruneTrackedTxs) report.tracked_txs = await opts.pruneTrackedTxs(db, now);
  if (opts.pruneDevnetLedgers) report.devnet_ledgers = await opts.pruneDevnetLedgers(db);
  if (opts.pruneDevnetCursors) report.devnet_cursors = await opts.pruneDevnetCursors(db);

  return report;
}

/** The worker role's retention job: a pass at start, then every hour. */
export function startRetention(db: Db, logger: Logger, opts: RetentionOptions & { intervalMs?: number } = {}): { stop(): Promise<void> } {
  const ticker = new SerialTicker(
    async () => {
      const report = await pruneOnce(db, Date.now(), opts);
      const total = Object.values(report).reduce((a, b) => a + b, 0);
      if (total > 0) logger.info({ pruned: report }, `retention: removed ${total} expired row(s)`);
    },
    opts.intervalMs ?? RETENTION_INTERVAL_MS,
    (err) => logger.warn({ err: { message: err.message } }, 'retention: pass failed, retrying at the next interval'),
  );
  ticker.start();
  return { stop: () => ticker.stop() };
}
