import http from 'node:http';
import { SerialTicker } from '../ticker';
import https from 'node:https';
import type { Db } from '../db/index';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import { BlockedAddressError, checkLiteralHost, guardedLookup, type Allowlist } from './ssrf';
import { signatureHeader } from './signature';
import * as outbox from '../services/webhook-outbox';

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
  /** Events claimed and sent at once by one lane (default 128; at most 64 sockets per endpoint). */
  concurrency?: number;
  /** Lanes started by start(), each claiming and sending its own batches, so one slow endpoint holds up one lane only (default 4). */
  lanes?: number;
  pollMs?: number;
  publicUrl: string;
  now?: () => number;
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

/** Per allow-list, each endpoint URL parsed and its literal host checked once (a batch sends to the same few endpoints). */
interface CheckedUrl {
  target: URL;
  /** The guarded lookup for the host (used when a new socket is opened). */
  lookup: ReturnType<typeof guardedLookup>;
}
const checkedUrls = new WeakMap<Allowlist, Map<string, CheckedUrl | Error>>();
function checkedUrl(url: string, allow: Allowlist): CheckedUrl | Error {
  let cache = checkedUrls.get(allow);
  if (!cache) checkedUrls.set(allow, (cache = new Map()));
  let v = cache.get(url);
  if (v === undefined) {
    try {
      const target = new URL(url);
      checkLiteralHost(target.hostname, allow);
      v = { target, lookup: guardedLookup(target.hostname.replace(/^\[|\]$/g, ''), allow) };
    } catch (err) {
      v = err instanceof Error ? err : new Error(String(err));
    }
    if (cache.size >= 1000) cache.clear();
    cache.set(url, v);
  }
  return v;
}

/** POSTs one signed body; never follows redirects; refuses endpoints that resolve to blocked addresses. */
export function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number, allow: Allowlist, agents: Agents): Promise<AttemptResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const checked = checkedUrl(url, allow);
    if (checked instanceof Error) {
      return resolve({ statusCode: null, excerpt: null, error: checked.message.slice(0, 255), durationMs: 0, final: refused(checked) });
    }
    const { target, lookup } = checked;
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
        lookup,
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
 * Delivers outbox events. Each lane claims a batch of due events with a lease (services/webhook-outbox:
 * FOR UPDATE SKIP LOCKED on PostgreSQL, so workers claim disjoint batches), sends them signed at
 * once over kept-alive connections (one pool per endpoint, each socket opened to an address the SSRF
 * guard approved), and records the batch's attempts in one transaction. A crashed worker's lease
 * runs out and its events are sent again with the same ids: delivery is at least once.
 */
export class Dispatcher {
  private tickers: SerialTicker[] = [];
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
    const lanes = Math.max(1, this.opts.lanes ?? 4);
    for (let i = 0; i < lanes; i++) {
      const ticker = new SerialTicker(
        async () => (await this.runOnce()) > 0,
        this.opts.pollMs ?? 500,
        (err) => this.logger.warn({ err: { message: err.message } }, 'webhooks: dispatch failed'),
      );
      this.tickers.push(ticker);
      ticker.start();
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.tickers.map((t) => t.stop()));
    this.tickers = [];
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Claims, sends and records one batch; answers how many events it handled. */
  async runOnce(): Promise<number> {
    // Long enough for every attempt of the batch to finish; a crashed worker's events are taken again once it runs out.
    const lease = 2 * this.opts.timeoutMs + 5000;
    // One round trip on PostgreSQL: the batch and the webhooks it goes to.
    const events = await outbox.claimWithTargets(this.db, this.opts.concurrency ?? 128, lease, this.now());
    if (events.length === 0) return 0;
    const live = events.filter((e) => e.webhook_status === 'enabled');
    if (live.length < events.length) {
      await outbox.cancelForDisabled(
        this.db,
        events.filter((e) => e.webhook_status !== 'enabled').map((e) => e.id),
      );
    }
    const records = await Promise.all(live.map((e) => this.attempt(e, { id: e.webhook_id, target_url: e.target_url!, auth_token: e.auth_token!, status: e.webhook_status! })));
    const failing = await outbox.recordAttempts(this.db, records);
    for (const id of failing) await this.disableIfFailingTooLong(id, this.now());
    return events.length;
  }

  private async attempt(event: outbox.ClaimedEvent, webhook: WebhookTarget): Promise<outbox.AttemptRecord> {
    const t = Math.floor(this.now() / 1000);
    const result = await post(webhook.target_url, event.body, { 'Blockfrost-Signature': signatureHeader(event.body, webhook.auth_token, t) }, this.opts.timeoutMs, this.opts.allowlist, this.agents);
    const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const attempts = event.attempts + 1;
    const retryable = !success && !result.final && (result.statusCode === null || RETRY_STATUSES.has(result.statusCode));
    const schedule = this.opts.retrySchedule;
    const now = this.now();
    const status = success ? 'delivered' : retryable && attempts < schedule.length ? 'pending' : 'failed';
    return {
      eventId: event.id,
      webhookId: webhook.id,
      attemptsBefore: event.attempts,
      attemptedAt: now,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      excerpt: result.excerpt,
      error: result.error,
      success,
      status,
      nextAttemptAt: status === 'pending' ? now + schedule[attempts]! : now,
    };
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
