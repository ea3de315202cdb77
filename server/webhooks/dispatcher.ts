import http from 'node:http';
import { SerialTicker } from '../ticker';
import https from 'node:https';
import type { Db } from '../db/index';
import { isPostgres } from '../db/index';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import { BlockedAddressError, checkLiteralHost, guardedLookup, type Allowlist } from './ssrf';
import { signatureHeader } from './signature';

/** Statuses worth retrying (the contract's list); anything else but 2xx fails the event at once. */
export const RETRY_STATUSES = new Set([400, 408, 413, 429, 500, 502, 503, 504, 521, 522, 524]);
export const AUTO_DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;
const EXCERPT = 500;

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

// Kept-alive sockets stay connected to the address the guarded lookup approved when they were opened;
// each dispatcher has its own, so sockets never outlive the allow-list they were checked against.
export const keepAliveAgents = (): Agents => ({ http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) });

export interface DispatcherOptions {
  allowlist: Allowlist;
  timeoutMs: number;
  /** Delay before each attempt, in milliseconds: [0] is the first attempt. */
  retrySchedule: number[];
  concurrency?: number;
  pollMs?: number;
  publicUrl: string;
  now?: () => number;
}

interface ClaimedEvent {
  id: string;
  webhook_id: string;
  body: string;
  attempts: number;
}

interface WebhookTarget {
  id: string;
  target_url: string;
  auth_token: string;
  status: string;
}

interface AttemptResult {
  statusCode: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
  /** The SSRF guard refused the address: no retry on the schedule. */
  final?: boolean;
}

const refused = (err: unknown): boolean => err instanceof BlockedAddressError;

/** POSTs one signed body; never follows redirects; refuses endpoints that resolve to blocked addresses. */
export function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number, allow: Allowlist, agents: Agents): Promise<AttemptResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
      checkLiteralHost(target.hostname, allow);
    } catch (err) {
      return resolve({ statusCode: null, excerpt: null, error: (err as Error).message.slice(0, 255), durationMs: 0, final: refused(err) });
    }
    const request = target.protocol === 'https:' ? https.request : http.request;
    let settled = false;
    const done = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...r, durationMs: Date.now() - started });
    };
    const req = request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Cairn-Webhooks/1', ...headers },
        lookup: guardedLookup(target.hostname.replace(/^\[|\]$/g, ''), allow),
        agent: target.protocol === 'https:' ? agents.https : agents.http,
        timeout: timeoutMs,
      },
      (res) => {
        let excerpt = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (excerpt.length < EXCERPT) excerpt += chunk.slice(0, EXCERPT - excerpt.length);
        });
        res.on('end', () => done({ statusCode: res.statusCode ?? null, excerpt, error: null }));
        res.on('error', () => done({ statusCode: res.statusCode ?? null, excerpt, error: 'The response was cut off.' }));
      },
    );
    req.on('timeout', () => {
      req.destroy();
      done({ statusCode: null, excerpt: null, error: `No answer within ${Math.round(timeoutMs / 1000)} s.` });
    });
    req.on('error', (err) => done({ statusCode: null, excerpt: null, error: err.message.slice(0, 255), final: refused(err) }));
    const hardStop = setTimeout(() => {
      req.destroy();
      done({ statusCode: null, excerpt: null, error: `No answer within ${Math.round(timeoutMs / 1000)} s.` });
    }, timeoutMs + 1000);
    hardStop.unref();
    req.on('close', () => clearTimeout(hardStop));
    req.end(body);
  });
}

/**
 * Delivers outbox events. Workers claim due rows with a lease (FOR UPDATE SKIP LOCKED on PostgreSQL,
 * so two workers never take the same attempt; SQLite has one connection and one worker), send them
 * signed, and record every attempt. A crashed worker's lease runs out and the event is sent again with
 * the same id: delivery is at least once.
 */
export class Dispatcher {
  private ticker: SerialTicker | undefined;
  private readonly now: () => number;
  private readonly agents = keepAliveAgents();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly mailer: Mailer,
    private readonly opts: DispatcherOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  start(): void {
    // Keep draining while there is a backlog; otherwise wait for the next poll.
    this.ticker = new SerialTicker(
      async () => (await this.runOnce()) > 0,
      this.opts.pollMs ?? 500,
      (err) => this.logger.warn({ err: { message: err.message } }, 'webhooks: dispatch failed'),
    );
    this.ticker.start();
  }

  async stop(): Promise<void> {
    await this.ticker?.stop();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async claim(limit: number): Promise<ClaimedEvent[]> {
    const now = this.now();
    // Long enough for one attempt to finish; a crashed worker's events are taken again once it runs out.
    const lease = 2 * this.opts.timeoutMs + 5000;
    const due = `SELECT id FROM webhook_events WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY next_attempt_at LIMIT ?`;
    const sql = `UPDATE webhook_events SET claimed_until = ? WHERE id IN (${due}${isPostgres(this.db) ? ' FOR UPDATE SKIP LOCKED' : ''}) RETURNING id, webhook_id, body, attempts`;
    const result = await this.db.raw(sql, [now + lease, now, now, limit]);
    return (isPostgres(this.db) ? result.rows : result) as ClaimedEvent[];
  }

  /** Claims and sends one batch; answers how many events it handled. */
  async runOnce(): Promise<number> {
    const events = await this.claim(this.opts.concurrency ?? 32);
    if (events.length === 0) return 0;
    const ids = [...new Set(events.map((e) => e.webhook_id))];
    const rows = await this.db('webhooks').whereIn('id', ids).select('id', 'target_url', 'auth_token', 'status');
    const webhooks = new Map(rows.map((r) => [r.id as string, r as WebhookTarget]));
    await Promise.all(events.map((e) => this.deliver(e, webhooks.get(e.webhook_id))));
    return events.length;
  }

  private async deliver(event: ClaimedEvent, webhook: WebhookTarget | undefined): Promise<void> {
    if (!webhook || webhook.status !== 'enabled') {
      await this.db('webhook_events').where({ id: event.id }).update({ status: 'cancelled', claimed_until: null });
      return;
    }
    const t = Math.floor(this.now() / 1000);
    const result = await post(webhook.target_url, event.body, { 'Blockfrost-Signature': signatureHeader(event.body, webhook.auth_token, t) }, this.opts.timeoutMs, this.opts.allowlist, this.agents);
    const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const attempts = event.attempts + 1;
    const retryable = !success && !result.final && (result.statusCode === null || RETRY_STATUSES.has(result.statusCode));
    const schedule = this.opts.retrySchedule;
    const now = this.now();
    const status = success ? 'delivered' : retryable && attempts < schedule.length ? 'pending' : 'failed';
    await this.db.transaction(async (trx) => {
      await trx('webhook_attempts').insert({
        event_id: event.id,
        attempted_at: now,
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        response_excerpt: result.excerpt,
        error: result.error,
        success,
      });
      await trx('webhook_events')
        .where({ id: event.id })
        .update({ status, attempts, claimed_until: null, next_attempt_at: status === 'pending' ? now + schedule[attempts]! : now });
      if (success) await trx('webhooks').where({ id: webhook.id }).update({ failing_since: null });
      else await trx('webhooks').where({ id: webhook.id }).whereNull('failing_since').update({ failing_since: now });
    });
    if (!success) await this.disableIfFailingTooLong(webhook.id, now);
  }

  /** Five days of nothing but failed attempts disables the webhook and tells the workspace owner. */
  private async disableIfFailingTooLong(webhookId: string, now: number): Promise<void> {
    const reason = 'Disabled automatically: every delivery attempt failed for 5 days.';
    const disabled = await this.db('webhooks')
      .where({ id: webhookId, status: 'enabled' })
      .andWhere('failing_since', '<=', now - AUTO_DISABLE_AFTER_MS)
      .update({ status: 'disabled', disabled_reason: reason, updated_at: now });
    if (disabled !== 1) return;
    const row = await this.db('webhooks as h')
      .join('workspaces as w', 'w.id', 'h.workspace_id')
      .join('users as u', 'u.id', 'w.owner_id')
      .where('h.id', webhookId)
      .first('h.name', 'h.target_url', 'w.name as workspace_name', 'u.email');
    if (!row) return;
    this.logger.warn({ webhookId }, 'webhook disabled after 5 days of failed deliveries');
    await this.mailer
      .send({
        to: row.email,
        subject: `Webhook "${row.name}" was disabled`,
        text: `Every attempt to deliver events of the webhook "${row.name}" (workspace "${row.workspace_name}") to ${row.target_url} has failed for 5 days, so Cairn disabled it.\n\nFix the endpoint, then enable the webhook again:\n${this.opts.publicUrl}/dashboard/webhooks/${webhookId}`,
      })
      .catch((err: unknown) => this.logger.error({ err: { message: (err as Error).message } }, 'could not mail the webhook owner'));
  }
}
