import pg from 'pg';
import { Agent, buildConnector, type Dispatcher as UndiciDispatcher } from 'undici';
import { SerialTicker } from '../../ticker';
import { isPostgres, type Db } from '../../db/index';
import type { Logger } from '../../logger';
import type { Mailer } from '../../mail/mailer';
import { BlockedAddressError, checkLiteralHost, guardedLookup, type Allowlist } from './ssrf';
import { liveSecrets, signatureHeader } from './signature';
import * as outbox from './outbox';
import { NO_ORIGIN, recordAudit } from '../audit/index';
import { AUTO_DISABLE_AFTER_MS } from '../../../shared/webhooks';
import type { Metrics } from '../../metrics';

/** Statuses worth retrying (the contract's list); anything else but 2xx fails the event at once. */
export const RETRY_STATUSES = new Set([400, 408, 413, 429, 500, 502, 503, 504, 521, 522, 524]);
const EXCERPT = 500;
/** Hand-offs from this worker's followers being sent at once, at most. */
const HAND_OFFS = 2;

export interface DispatcherOptions {
  allowlist: Allowlist;
  timeoutMs: number;
  /** Delay before each attempt, in milliseconds: [0] is the first attempt. */
  retrySchedule: number[];
  /** Events claimed and sent at once by one lane (default 256; at most 64 connections per endpoint). */
  concurrency?: number;
  /**
   * Lanes started by start(), each claiming and sending its own batches, so one slow batch holds up one
   * lane only (default 4). Batches of 256 take half the statements per event of batches of 128; with
   * four lanes a worker waits on the database less (bench:webhooks on PostgreSQL with two workers:
   * 13.3–13.8k events/s against 12.0–13.4k with two lanes, in alternating runs).
   */
  lanes?: number;
  pollMs?: number;
  publicUrl: string;
  now?: () => number;
  /** Prometheus metrics (METRICS_PORT): attempts by result and their latency. */
  metrics?: Metrics;
}

interface WebhookTarget {
  id: string;
  target_url: string;
  auth_token: string;
  previous_auth_token: string | null;
  previous_auth_token_expires_at: number | null;
  status: string;
}

interface AttemptResult {
  statusCode: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
  /** The SSRF guard refused the address: no retry on the schedule. */
  final?: boolean;
  /** Never sent: the worker stopped before a connection took it (the event goes back to the outbox). */
  released?: boolean;
}

const refused = (err: unknown): boolean => err instanceof BlockedAddressError;

/** Per allow-list, each endpoint URL parsed and its literal host checked once (a batch sends to the same few endpoints). */
interface CheckedUrl {
  origin: string;
  /** Path and query, as sent in the request line. */
  path: string;
  /** Basic credentials written in the URL (user:pass@host), sent as node:http did. */
  authorization: string | null;
}
const checkedUrls = new WeakMap<Allowlist, Map<string, CheckedUrl | Error>>();
function checkedUrl(url: string, allow: Allowlist): CheckedUrl | Error {
  let cache = checkedUrls.get(allow);
  if (!cache) checkedUrls.set(allow, (cache = new Map()));
  let v = cache.get(url);
  if (v === undefined) {
    try {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`Unsupported protocol ${target.protocol}`);
      checkLiteralHost(target.hostname, allow);
      const credentials = target.username || target.password ? `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}` : null;
      v = { origin: target.origin, path: `${target.pathname}${target.search}`, authorization: credentials === null ? null : `Basic ${Buffer.from(credentials).toString('base64')}` };
    } catch (err) {
      v = err instanceof Error ? err : new Error(String(err));
    }
    if (cache.size >= 1000) cache.clear();
    cache.set(url, v);
  }
  return v;
}

/**
 * The connection pools of one dispatcher: an undici Agent with a keep-alive pool per endpoint origin
 * (at most 64 connections each). Every new connection goes through the SSRF guard: a literal IP host
 * is checked, and a name is resolved by guardedLookup, so the socket connects only to an address it
 * approved. Kept-alive sockets stay connected to that address; each dispatcher has its own Agent, so
 * sockets never outlive the allow-list they were checked against. undici rather than node:http's
 * client for the same reason as the gateway's proxy: less CPU per request. `tls.ca` replaces the trust
 * roots (only the tests pass one, for their self-signed endpoint).
 */
export function deliveryAgent(allow: Allowlist, timeoutMs: number, tls: { ca?: string | Buffer } = {}): Agent {
  const connect = buildConnector({ ...tls, timeout: timeoutMs, lookup: (hostname, options, callback) => guardedLookup(hostname, allow)(hostname, options, callback) });
  return new Agent({
    connections: 64,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect(opts, callback) {
      try {
        // net.connect skips the lookup for an IP literal: check it here, on the very address connected to.
        checkLiteralHost(opts.hostname, allow);
      } catch (err) {
        callback(err as Error, null);
        return;
      }
      connect(opts, callback);
    },
  });
}

const TIMEOUT_ERRORS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
/** Up to 4 bytes a character: enough bytes for the excerpt's EXCERPT characters. */
const EXCERPT_BYTES = EXCERPT * 4;

/**
 * The attempts sent together (a lane's batch), stopped together: undici's timeouts cover connecting,
 * waiting for the head and each pause in the body, and this one timer caps every attempt of the batch
 * (a queued or trickling one too) at timeoutMs + 1 s, rather than a timer per attempt.
 */
export class AttemptBatch {
  private readonly running: Delivery[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(timeoutMs: number) {
    this.timer = setTimeout(stopAll, timeoutMs + 1000, this.running);
    this.timer.unref();
  }

  add(d: Delivery): void {
    this.running.push(d);
  }

  /** Every attempt has settled. */
  end(): void {
    clearTimeout(this.timer);
  }

  /** The worker stops: attempts still waiting for a connection are not sent; those under way go on. */
  releaseUnsent(): void {
    for (const d of this.running) d.release();
  }
}

function stopAll(running: Delivery[]): void {
  for (const d of running) d.stop();
}

/** One POST as undici's dispatch handler: keeps the status and the first bytes of the answer, reads the rest away (so the connection is reused). */
class Delivery implements UndiciDispatcher.DispatchHandler {
  private controller: UndiciDispatcher.DispatchController | null = null;
  private statusCode: number | null = null;
  private chunks: Buffer[] = [];
  private bytes = 0;
  private settled = false;

  constructor(
    private readonly started: number,
    private readonly timeoutMs: number,
    private readonly resolve: (r: AttemptResult) => void,
  ) {}

  onRequestStart(controller: UndiciDispatcher.DispatchController): void {
    this.controller = controller;
    // Stopped while it waited for a connection: never sent.
    if (this.settled) controller.abort(new Error('stopped'));
  }

  onResponseStart(_controller: UndiciDispatcher.DispatchController, statusCode: number): void {
    if (statusCode >= 200) this.statusCode = statusCode;
  }

  onResponseData(_controller: UndiciDispatcher.DispatchController, chunk: Buffer): void {
    if (this.bytes < EXCERPT_BYTES) {
      this.chunks.push(chunk);
      this.bytes += chunk.length;
    }
  }

  onResponseEnd(): void {
    this.done(this.statusCode, this.excerpt(), null);
  }

  onResponseError(_controller: UndiciDispatcher.DispatchController, err: Error): void {
    const code = (err as { code?: string }).code;
    if (code !== undefined && TIMEOUT_ERRORS.has(code)) this.done(null, null, this.timeoutText());
    else if (this.statusCode !== null) this.done(this.statusCode, this.excerpt(), 'The response was cut off.');
    else this.done(null, null, err.message.slice(0, 255), err instanceof BlockedAddressError);
  }

  /** Settles as never sent, unless a connection has taken the request already. */
  release(): void {
    if (this.settled || this.controller) return;
    this.settled = true;
    this.resolve({ statusCode: null, excerpt: null, error: null, durationMs: 0, released: true });
  }

  stop(): void {
    if (this.settled) return;
    this.done(null, null, this.timeoutText());
    this.controller?.abort(new Error(this.timeoutText()));
  }

  private timeoutText(): string {
    return `No answer within ${Math.round(this.timeoutMs / 1000)} s.`;
  }

  private excerpt(): string {
    const { chunks, bytes } = this;
    if (chunks.length === 0) return '';
    const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    return buf.toString('utf8', 0, Math.min(bytes, EXCERPT_BYTES)).slice(0, EXCERPT);
  }

  private done(statusCode: number | null, excerpt: string | null, error: string | null, final = false): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve({ statusCode, excerpt, error, durationMs: Date.now() - this.started, final });
  }
}

/**
 * POSTs one signed body; never follows redirects; refuses endpoints that resolve to blocked addresses.
 * Within a batch it is stopped with the batch; alone it gets a hard stop of its own.
 */
export function post(url: string, body: string | Buffer, headers: Record<string, string>, timeoutMs: number, allow: Allowlist, agent: Agent, batch?: AttemptBatch): Promise<AttemptResult> {
  const checked = checkedUrl(url, allow);
  if (checked instanceof Error) {
    return Promise.resolve({ statusCode: null, excerpt: null, error: checked.message.slice(0, 255), durationMs: 0, final: refused(checked) });
  }
  const started = Date.now();
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  const list = ['content-type', 'application/json', 'content-length', String(payload.length), 'user-agent', 'Cairn-Webhooks/1'];
  if (checked.authorization) list.push('authorization', checked.authorization);
  for (const name in headers) list.push(name, headers[name]!);
  const stops = batch ?? new AttemptBatch(timeoutMs);
  const result = new Promise<AttemptResult>((resolve) => {
    const delivery = new Delivery(started, timeoutMs, resolve);
    stops.add(delivery);
    agent.dispatch({ origin: checked.origin, path: checked.path, method: 'POST', headers: list, body: payload }, delivery);
  });
  if (!batch) void result.then(() => stops.end());
  return result;
}

/**
 * Delivers outbox events. Each lane claims a batch of due events with a lease (services/webhook-outbox:
 * FOR UPDATE SKIP LOCKED on PostgreSQL, so workers claim disjoint batches), sends them signed at
 * once over kept-alive connections (one pool per endpoint, each socket opened to an address the SSRF
 * guard approved), and records the batch's attempts in one transaction. A crashed worker's lease
 * runs out and its events are sent again with the same ids: delivery is at least once. A worker that
 * is stopped sends nothing more: it finishes the deliveries under way, records them, and gives the
 * events it claimed but did not send back to the outbox at once (no lease to wait out), so another
 * worker sends each of them once.
 */
export class Dispatcher {
  private tickers: SerialTicker[] = [];
  private stopping = false;
  /** The batches being sent, so stop() can hold back what has not gone out yet. */
  private readonly sending = new Set<AttemptBatch>();
  private readonly now: () => number;
  private readonly agent: Agent;
  private readonly observed: ReturnType<Metrics['delivery']> | undefined;
  /** PostgreSQL: the connection that listens on OUTBOX_CHANNEL, and the timer that reconnects it. */
  private listener: pg.Client | null = null;
  private relisten: NodeJS.Timeout | undefined;
  private listening: Promise<void> | undefined;
  /** The hand-offs being sent (at most HAND_OFFS at a time), so stop() waits for them. */
  private readonly handingOff = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly mailer: Mailer,
    private readonly opts: DispatcherOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.agent = deliveryAgent(opts.allowlist, opts.timeoutMs);
    this.observed = opts.metrics?.delivery();
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
    if (isPostgres(this.db)) this.listening = this.listen();
  }

  /**
   * PostgreSQL: a connection of its own LISTENs on the outbox's channel and wakes every lane when any
   * process (this worker's follower, another worker's, the API's test event) commits new events. Lost,
   * it reconnects after a few seconds; meanwhile the lanes' polls still find every event.
   */
  private async listen(): Promise<void> {
    if (this.stopping) return;
    const { connection } = this.db.client.config as { connection: string | pg.ClientConfig };
    const client = new pg.Client(typeof connection === 'string' ? { connectionString: connection } : connection);
    const lost = (err?: Error) => {
      if (this.listener === client) this.listener = null;
      client.removeAllListeners('end');
      void client.end().catch(() => undefined);
      if (this.stopping || this.relisten) return;
      if (err) this.logger.warn({ err: { message: err.message } }, 'webhooks: the outbox listener lost its connection; new events wait for the next poll until it is back');
      this.relisten = setTimeout(() => {
        this.relisten = undefined;
        this.listening = this.listen();
      }, 5000);
      this.relisten.unref();
    };
    client.on('notification', () => this.wake());
    client.on('error', lost);
    client.on('end', () => lost(new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${outbox.OUTBOX_CHANNEL}`);
    } catch (err) {
      lost(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (this.stopping) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
  }

  /** Events were just written to the outbox: every lane claims now rather than at its next poll. */
  wake(): void {
    for (const t of this.tickers) t.wake();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.relisten);
    this.relisten = undefined;
    await this.listening;
    const listener = this.listener;
    this.listener = null;
    if (listener) {
      listener.removeAllListeners('end');
      await listener.end().catch(() => undefined);
    }
    for (const batch of this.sending) batch.releaseUnsent();
    await Promise.all([...this.tickers.map((t) => t.stop()), ...this.handingOff]);
    this.tickers = [];
    await this.agent.destroy();
  }

  /** Long enough for every attempt of a batch to finish; a crashed worker's events are taken again once it runs out. */
  private get leaseMs(): number {
    return 2 * this.opts.timeoutMs + 5000;
  }

  /** Claims, sends and records one batch; answers how many events it handled. */
  async runOnce(): Promise<number> {
    // One round trip on PostgreSQL: the batch and the webhooks it goes to.
    const events = await outbox.claimWithTargets(this.db, this.opts.concurrency ?? 256, this.leaseMs, this.now());
    if (events.length === 0) return 0;
    await this.deliver(events);
    return events.length;
  }

  /**
   * What this worker's follower may write already claimed for this dispatcher (outbox.enqueue's
   * hand-off): one lane's batch, while fewer than HAND_OFFS earlier hand-offs are still being sent
   * (a follower's poll often finds two blocks: both go out at once) and the worker is not stopping;
   * otherwise none, and the lanes claim the events as usual.
   */
  handOffCapacity(): outbox.HandOff {
    return { count: this.stopping || this.handingOff.size >= HAND_OFFS ? 0 : (this.opts.concurrency ?? 256), leaseMs: this.leaseMs };
  }

  /**
   * Sends events a follower of this worker writes already claimed for this dispatcher, as a lane sends
   * a batch it claimed: a block's events go out without waiting for a claim's round trip (and, on
   * SQLite, its turn on the one connection). The follower may hand them over while its write is still
   * open, with their webhooks' targets read beside it: they are sent at once, and their attempts are
   * recorded once `committed` says the write committed. A write that did not commit leaves nothing to
   * record: its block is matched again, and its events, sent again with the same ids.
   */
  handOff(events: outbox.ClaimedEvent[], targets?: Promise<Map<string, outbox.Target>>, committed: Promise<boolean> = Promise.resolve(true)): void {
    if (events.length === 0) return;
    const sent = (async () => {
      const claimed = targets ? outbox.attachTargets(events, await targets) : await outbox.withTargets(this.db, events);
      if (this.stopping) {
        if (await committed) await outbox.release(this.db, claimed.map((e) => e.id));
        return;
      }
      await this.deliver(claimed, committed);
    })()
      .catch((err: unknown) => this.logger.warn({ err: { message: (err as Error).message } }, 'webhooks: dispatch failed'))
      .finally(() => this.handingOff.delete(sent));
    this.handingOff.add(sent);
  }

  /**
   * Sends and records a claimed batch (events of a disabled or deleted webhook are cancelled). A batch
   * handed off before its write committed is sent at once and recorded only once `committed` says so.
   */
  private async deliver(events: outbox.ClaimedDelivery[], committed: Promise<boolean> = Promise.resolve(true)): Promise<void> {
    const live = events.filter((e) => e.webhook_status === 'enabled');
    if (live.length < events.length && (await committed)) {
      await outbox.cancelForDisabled(
        this.db,
        events.filter((e) => e.webhook_status !== 'enabled').map((e) => e.id),
      );
    }
    // Stopped while claiming: the batch goes back unsent.
    if (this.stopping) {
      if (await committed) await outbox.release(this.db, live.map((e) => e.id));
      return;
    }
    const batch = new AttemptBatch(this.opts.timeoutMs);
    this.sending.add(batch);
    const attempts = await Promise.all(live.map((e) => this.attempt(
          e,
          {
            id: e.webhook_id,
            target_url: e.target_url!,
            auth_token: e.auth_token!,
            previous_auth_token: e.previous_auth_token,
            previous_auth_token_expires_at: e.previous_auth_token_expires_at,
            status: e.webhook_status!,
          },
          batch,
        )));
    batch.end();
    this.sending.delete(batch);
    // Not written after all: the events are not in the outbox, and their block will be matched again.
    if (!(await committed)) return;
    const records = attempts.filter((a): a is outbox.AttemptRecord => typeof a !== 'string');
    const unsent = attempts.filter((a): a is string => typeof a === 'string');
    if (unsent.length > 0) await outbox.release(this.db, unsent);
    const failing = await outbox.recordAttempts(this.db, records);
    if (this.observed) this.count(records, live);
    for (const id of failing) await this.disableIfFailingTooLong(id, this.now());
  }

  private count(records: outbox.AttemptRecord[], events: outbox.ClaimedEvent[]): void {
    const o = this.observed!;
    const createdAt = new Map(events.map((e) => [e.id, Number(e.created_at)]));
    for (const r of records) {
      o.duration.observe(r.durationMs / 1000);
      if (r.status === 'delivered') {
        o.attempts.delivered.inc();
        const created = createdAt.get(r.eventId);
        if (created !== undefined && Number.isFinite(created)) o.eventLatency.observe(Math.max(0, r.attemptedAt - created) / 1000);
      } else if (r.status === 'pending') o.attempts.retry.inc();
      else o.attempts.failed.inc();
    }
  }

  /** The attempt's record, or the event's id when it was never sent (the worker stopped first). */
  private async attempt(event: outbox.ClaimedEvent, webhook: WebhookTarget, batch: AttemptBatch): Promise<outbox.AttemptRecord | string> {
    const sentAt = this.now();
    const t = Math.floor(sentAt / 1000);
    // Encoded once (a hand-off's are already): the bytes signed are the bytes sent.
    const body = typeof event.body === 'string' ? Buffer.from(event.body) : event.body;
    const result = await post(webhook.target_url, body, { 'Blockfrost-Signature': signatureHeader(body, liveSecrets(webhook, sentAt), t) }, this.opts.timeoutMs, this.opts.allowlist, this.agent, batch);
    if (result.released) return event.id;
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
      .first('h.name', 'h.target_url', 'h.workspace_id', 'w.name as workspace_name', 'u.email');
    if (!row) return;
    await recordAudit(this.db, { workspaceId: row.workspace_id, actor: { system: true }, action: 'webhook.auto_disabled', target: { type: 'webhook', id: webhookId, label: row.name }, ...NO_ORIGIN, details: { reason }, at: now });
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
