// Derives the event stream's webhook notices from the tables the dispatcher writes (webhook_attempts,
// webhook_events, webhooks), reading them with cursors instead of hooking into the dispatcher, so the stream
// does not depend on how delivery is done. Each notice is written once (unique source), whatever the number
// of workers; on PostgreSQL one worker derives at a time, so notice ids are committed in order and a reader
// resuming after an id never skips one.
import type { Knex } from 'knex';
import { type Db, isPostgres } from '../../db/index';
import type { Logger } from '../../logger';
import { SerialTicker } from '../../ticker';
import { AUTO_DISABLE_AFTER_MS, FAILURE_WARNING_WINDOW_MS } from '../../../shared/webhooks';
import type { WebhookNotice, WebhookNoticeKind } from '../../../shared/webhook-notices';
import { DAY_MS } from '../../../shared/time';

/** Attempts are read again this many ids back: on PostgreSQL ids can commit out of order. */
const ID_LOOKBACK = 500;
const BATCH = 500;
/** Notices older than this are dropped: a stream resumed after a week starts from what is left. */
export const NOTICE_RETENTION_MS = 7 * DAY_MS;
const LOCK_KEY = 0x6361726e; // 'carn'

type NoticeRow = { workspace_id: number; webhook_id: string; kind: WebhookNoticeKind; source: string; data: string; created_at: number };

async function cursor(trx: Knex.Transaction, name: string): Promise<number> {
  const row = await trx('webhook_notice_cursors').where({ name }).first('position');
  return row ? Number(row.position) : -1;
}

async function setCursor(trx: Knex.Transaction, name: string, position: number): Promise<void> {
  await trx('webhook_notice_cursors').insert({ name, position }).onConflict('name').merge();
}

const noticeData = (n: Omit<WebhookNotice, 'id' | 'kind' | 'workspaceId' | 'webhookId'>): string => JSON.stringify(n);

/** One pass over what the dispatcher wrote since the last; answers true when there may be more. */
export async function deriveWebhookNotices(db: Db, now = Date.now()): Promise<boolean> {
  return db.transaction(async (trx) => {
    if (isPostgres(db)) {
      const { rows } = (await trx.raw('select pg_try_advisory_xact_lock(?) as ok', [LOCK_KEY])) as { rows: Array<{ ok: boolean }> };
      if (!rows[0]?.ok) return false;
    }
    const rows: NoticeRow[] = [];

    // Failed attempts of real (not test) events; the first in 48 hours also puts the webhook in the warning state.
    const first = await cursor(trx, 'attempts');
    if (first < 0) {
      // A new deployment starts from now: old failures are history, not news.
      const max = await trx('webhook_attempts').max({ id: 'id' }).first();
      await setCursor(trx, 'attempts', Number(max?.id ?? 0));
    }
    const from = Math.max(0, first - ID_LOOKBACK);
    const candidates =
      first < 0
        ? []
        : await trx('webhook_attempts as a')
            .join('webhook_events as e', 'e.id', 'a.event_id')
            .join('webhooks as h', 'h.id', 'e.webhook_id')
            .where('a.id', '>', from)
            .andWhere('a.success', false)
            .andWhere('e.test', false)
            .orderBy('a.id', 'asc')
            .limit(BATCH + ID_LOOKBACK)
            .select('a.id', 'a.attempted_at', 'a.status_code', 'a.error', 'e.id as event_id', 'h.id as webhook_id', 'h.name', 'h.workspace_id');
    // Those read again (ids up to the cursor) count only when no notice was written for them yet.
    const reread = (candidates as Array<Record<string, unknown>>).filter((a) => Number(a.id) <= first).map((a) => `attempt:${Number(a.id)}`);
    const known = new Set(reread.length ? ((await trx('webhook_notices').whereIn('source', reread).pluck('source')) as string[]) : []);
    const failed = (candidates as Array<Record<string, unknown>>).filter((a) => !known.has(`attempt:${Number(a.id)}`));
    let last = first;
    for (const a of failed) {
      const id = Number(a.id);
      last = Math.max(last, id);
      const at = Number(a.attempted_at);
      const base = { workspace_id: Number(a.workspace_id), webhook_id: String(a.webhook_id), created_at: now };
      const data = noticeData({ webhookName: String(a.name), at, eventId: String(a.event_id), statusCode: a.status_code === null ? null : Number(a.status_code), error: (a.error as string | null) ?? null });
      rows.push({ ...base, kind: 'delivery_failed', source: `attempt:${id}`, data });
      const earlier = await trx('webhook_attempts as a2')
        .join('webhook_events as e2', 'e2.id', 'a2.event_id')
        .where('e2.webhook_id', String(a.webhook_id))
        .andWhere('e2.test', false)
        .andWhere('a2.success', false)
        .andWhere('a2.id', '<', id)
        .andWhere('a2.attempted_at', '>=', at - FAILURE_WARNING_WINDOW_MS)
        .first('a2.id');
      if (!earlier) rows.push({ ...base, kind: 'warning', source: `warning:${id}`, data });
    }
    if (last > first) await setCursor(trx, 'attempts', last);

    // Webhooks disabled after 5 days of failures (disabled while failing_since is 5 days before the change).
    const since = await cursor(trx, 'disabled');
    const disabled = await trx('webhooks')
      .where({ status: 'disabled' })
      .whereNotNull('failing_since')
      .andWhere('updated_at', '>=', since < 0 ? now : since)
      .andWhereRaw('failing_since <= updated_at - ?', [AUTO_DISABLE_AFTER_MS])
      .orderBy('updated_at', 'asc')
      .limit(BATCH)
      .select('id', 'name', 'workspace_id', 'updated_at');
    let newest = since < 0 ? now : since;
    for (const w of disabled as Array<Record<string, unknown>>) {
      const at = Number(w.updated_at);
      newest = Math.max(newest, at);
      rows.push({
        workspace_id: Number(w.workspace_id),
        webhook_id: String(w.id),
        kind: 'disabled',
        source: `disabled:${String(w.id)}:${at}`,
        data: noticeData({ webhookName: String(w.name), at }),
        created_at: now,
      });
    }
    if (newest !== since) await setCursor(trx, 'disabled', newest);

    for (const row of rows) await trx('webhook_notices').insert(row).onConflict('source').ignore();
    await trx('webhook_notices').where('created_at', '<', now - NOTICE_RETENTION_MS).delete();
    return candidates.length === BATCH + ID_LOOKBACK || disabled.length === BATCH;
  });
}

export function startNoticeDeriver(db: Db, logger: Logger, intervalMs = 1000): SerialTicker {
  const ticker = new SerialTicker(() => deriveWebhookNotices(db), intervalMs, (err) => logger.error({ err }, 'webhook notices: could not derive'));
  ticker.start();
  return ticker;
}
