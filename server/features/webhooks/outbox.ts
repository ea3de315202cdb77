// The webhook outbox (`webhook_events` and `webhook_attempts`): the one module that writes them.
// The chain followers enqueue matched events in the transaction that moves their cursor and cancel
// the pending events of rolled-back blocks; the test-event route enqueues too; the dispatcher claims
// due events in batches under a lease and records the attempts of a batch in one transaction; the
// dashboard reads the history and resends; the retention job prunes.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { isPostgres, type Db } from '../../db/index';
import { AppError, NotFound } from '../../errors';
import { FAIL_HISTORY_LIMIT, FAILURE_WARNING_WINDOW_MS, type Trigger, type WebhookDto, type WebhookEventDto } from '../../../shared/webhooks';
import { DAY_MS } from '../../../shared/time';

type Conn = Db | Knex.Transaction;

/** The event body exactly as it is signed and sent. */
export const eventBody = (id: string, webhookId: string, created: number, type: Trigger, payload: unknown) =>
  JSON.stringify({ id, webhook_id: webhookId, created, api_version: 1, type, payload });

const COMMA = Buffer.from(',');
const LIST_END = Buffer.from(']}');

/**
 * eventBody's UTF-8 bytes, built from pieces: each item of a list payload is encoded once per
 * `encoded` (one write's), since a block's events carry its transactions over and over (300
 * transactions, about 1,500 items in 330 events). Byte for byte what eventBody gives: an array is
 * its items' JSON joined by commas, an item JSON cannot express (undefined) written as null.
 * Bytes rather than a string: JSON.stringify's result is a rope that the first encoding flattens,
 * a copy of every body in the young generation, while the bytes are encoded once, then written
 * to the database, signed and sent as they are.
 */
export function eventBodyBytes(id: string, webhookId: string, created: number, type: Trigger, payload: unknown, encoded: Map<unknown, Buffer>): Buffer {
  if (!Array.isArray(payload) || payload.length === 0) return Buffer.from(eventBody(id, webhookId, created, type, payload));
  const head = eventBody(id, webhookId, created, type, []);
  // '…"payload":[]}' without its last two characters: the list is written in between.
  const parts: Buffer[] = [Buffer.from(head.slice(0, -2))];
  let length = parts[0]!.length + LIST_END.length;
  for (let i = 0; i < payload.length; i++) {
    const item: unknown = payload[i];
    const shared = typeof item === 'object' && item !== null;
    let bytes = shared ? encoded.get(item) : undefined;
    if (!bytes) {
      bytes = Buffer.from((JSON.stringify(item) as string | undefined) ?? 'null');
      if (shared) encoded.set(item, bytes);
    }
    if (i > 0) {
      parts.push(COMMA);
      length += COMMA.length;
    }
    parts.push(bytes);
    length += bytes.length;
  }
  parts.push(LIST_END);
  return Buffer.concat(parts, length);
}

/** Why an event was cancelled: its block was rolled back (never sent again), or its webhook was disabled or deleted. */
export interface NewEvent {
  webhookId: string;
  type: Trigger;
  network: number;
  blockHeight: number | null;
  blockHash: string | null;
  payload: unknown;
  test?: boolean;
  /** The event's id when the writer chose it (the follower's derive from the block and the event's place in it, so a block matched again after a write that did not commit gets the same ids); otherwise random. */
  id?: string;
}

/**
 * The PostgreSQL channel on which enqueue announces new events (at the commit of the caller's
 * transaction), so the dispatcher of every worker claims them at once instead of at its next poll.
 */
export const OUTBOX_CHANNEL = 'cairn_webhook_events';

/**
 * Events written already claimed by the writer's own dispatcher (the hand-off): the first `count`
 * events get a lease of `leaseMs`, so no lane or other worker takes them while that dispatcher sends
 * them; a crashed worker's lease runs out like any claim's.
 */
export interface HandOff {
  count: number;
  leaseMs: number;
}

/** Events built for the outbox (bodies encoded to UTF-8), not yet written: the ones claimed for a hand-off first. */
export interface PreparedEvents {
  rows: Array<Record<string, unknown> & { id: string; webhook_id: string; body: Buffer }>;
  claimed: ClaimedEvent[];
}

/** Builds the outbox rows of events due at once, the first `handOff.count` claimed for the writer's dispatcher. */
export function prepareEvents(events: NewEvent[], now = Date.now(), handOff?: HandOff): PreparedEvents {
  const created = Math.floor(now / 1000);
  const claimCount = Math.min(handOff?.count ?? 0, events.length);
  const encoded = new Map<unknown, Buffer>();
  const rows = events.map((e, i) => {
    const id = e.id ?? crypto.randomUUID();
    return {
      id,
      webhook_id: e.webhookId,
      type: e.type,
      network: e.network,
      block_height: e.blockHeight,
      block_hash: e.blockHash,
      body: eventBodyBytes(id, e.webhookId, created, e.type, e.payload, encoded),
      created,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      ...(i < claimCount ? { claimed_until: now + handOff!.leaseMs } : {}),
      test: e.test ?? false,
      created_at: now,
    };
  });
  return { rows, claimed: rows.slice(0, claimCount).map((r) => ({ id: r.id, webhook_id: r.webhook_id, body: r.body, attempts: 0, created_at: now })) };
}

/**
 * Writes prepared events (inside the caller's transaction when given one). An event whose id is
 * already in the outbox was cancelled by a rollback and its block is back on the chain: it is due
 * again. One in any other state stays as it is.
 */
export async function insertEvents(db: Conn, { rows, claimed }: PreparedEvents): Promise<void> {
  // PostgreSQL takes the bytes as they are (a binary parameter, which text's input checks as UTF-8);
  // SQLite would keep a Buffer as a BLOB, so it is given the text.
  const pg = db.client.config.client === 'pg';
  for (let i = 0; i < rows.length; i += 100) {
    const slice = rows.slice(i, i + 100);
    await db('webhook_events')
      .insert(pg ? slice : slice.map((r) => ({ ...r, body: r.body.toString('utf8') })))
      .onConflict('id')
      .merge()
      .where('webhook_events.status', 'cancelled');
  }
  // Every worker's dispatcher is told of events it may claim; those handed off are not for them.
  if (rows.length > claimed.length && pg) await db.raw(`NOTIFY ${OUTBOX_CHANNEL}`);
}

/**
 * Writes events to the outbox, due at once (inside the caller's transaction when given one). Answers
 * their ids, and the events claimed for a hand-off as the dispatcher needs them.
 */
export async function enqueue(db: Conn, events: NewEvent[], now = Date.now(), handOff?: HandOff): Promise<{ ids: string[]; claimed: ClaimedEvent[] }> {
  const prepared = prepareEvents(events, now, handOff);
  await insertEvents(db, prepared);
  return { ids: prepared.rows.map((r) => r.id), claimed: prepared.claimed };
}

/**
 * An event id derived from what identifies it (SHA-1, in the form of a version 5 UUID): the same
 * block matched again gives its events the same ids.
 */
export function derivedEventId(seed: string): string {
  const h = crypto.createHash('sha1').update(seed).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** Cancels the pending events of abandoned blocks after a rollback; they can never be resent. */
export async function cancelRolledBack(trx: Conn, network: number, blockHashes: string[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < blockHashes.length; i += 500) {
    n += await trx('webhook_events')
      .whereIn('block_hash', blockHashes.slice(i, i + 500))
      .andWhere({ status: 'pending', network })
      .update({ status: 'cancelled', cancel_reason: 'rollback', claimed_until: null });
  }
  return n;
}

export interface ClaimedEvent {
  id: string;
  webhook_id: string;
  /** The body as read from the outbox, or as its writer encoded it (UTF-8) when handed off. */
  body: string | Buffer;
  attempts: number;
  /** When the event entered the outbox (epoch ms; PostgreSQL's bigint arrives as a string). */
  created_at: number | string;
}

/** A claimed event with the webhook it goes to (null fields when the webhook is gone). */
export interface ClaimedDelivery extends ClaimedEvent {
  target_url: string | null;
  auth_token: string | null;
  /** The secret a rotation replaced and until when it still signs (null when none). */
  previous_auth_token: string | null;
  previous_auth_token_expires_at: number | null;
  webhook_status: string | null;
}

/**
 * Claims up to `limit` due events for `leaseMs`: no other worker takes them until the lease runs out
 * (FOR UPDATE SKIP LOCKED on PostgreSQL, so concurrent workers claim disjoint batches; SQLite runs
 * the statement alone). A crashed worker's events are claimed again after the lease: at least once.
 */
export async function claim(db: Db, limit: number, leaseMs: number, now = Date.now()): Promise<ClaimedEvent[]> {
  const pg = isPostgres(db);
  const due = `SELECT id FROM webhook_events WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY next_attempt_at LIMIT ?${pg ? ' FOR UPDATE SKIP LOCKED' : ''}`;
  const sql = `UPDATE webhook_events SET claimed_until = ? WHERE id IN (${due}) RETURNING id, webhook_id, body, attempts, created_at`;
  const result = await db.raw(sql, [now + leaseMs, now, now, limit]);
  return (pg ? result.rows : result) as ClaimedEvent[];
}

/**
 * claim() with each event's webhook (target, token, status) in the same round trip: on PostgreSQL
 * one UPDATE … FROM … RETURNING; SQLite's RETURNING cannot name a joined table, so there the webhooks
 * are read in a second statement.
 */
export async function claimWithTargets(db: Db, limit: number, leaseMs: number, now = Date.now()): Promise<ClaimedDelivery[]> {
  if (isPostgres(db)) {
    const due = `SELECT id, webhook_id FROM webhook_events WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED`;
    // A LEFT JOIN, so events of a deleted webhook are claimed too (and then cancelled, not left behind).
    const sql = `UPDATE webhook_events e SET claimed_until = ? FROM (SELECT d.id, w.target_url, w.auth_token, w.previous_auth_token, w.previous_auth_token_expires_at, w.status FROM (${due}) d LEFT JOIN webhooks w ON w.id = d.webhook_id) t
      WHERE e.id = t.id RETURNING e.id, e.webhook_id, e.body, e.attempts, e.created_at, t.target_url, t.auth_token, t.previous_auth_token, t.previous_auth_token_expires_at, t.status AS webhook_status`;
    const result = await db.raw(sql, [now + leaseMs, now, now, limit]);
    return result.rows as ClaimedDelivery[];
  }
  return withTargets(db, await claim(db, limit, leaseMs, now));
}

/** Where a webhook's events go and how they are signed (its status included): by webhook id. */
export type Target = Pick<ClaimedDelivery, 'target_url' | 'auth_token' | 'previous_auth_token' | 'previous_auth_token_expires_at'> & { status: string };

/** The targets of these webhooks (a webhook that is gone has none). */
export async function targetsOf(db: Db, webhookIds: string[]): Promise<Map<string, Target>> {
  if (webhookIds.length === 0) return new Map();
  const rows = (await db('webhooks')
    .whereIn('id', [...new Set(webhookIds)])
    .select('id', 'target_url', 'auth_token', 'previous_auth_token', 'previous_auth_token_expires_at', 'status')) as Array<Target & { id: string }>;
  return new Map(rows.map((r) => [r.id, r]));
}

/** Claimed events with the webhook each goes to (null fields when the webhook is gone). */
export function attachTargets(events: ClaimedEvent[], targets: Map<string, Target>): ClaimedDelivery[] {
  return events.map((e) => {
    const w = targets.get(e.webhook_id);
    return {
      ...e,
      target_url: w?.target_url ?? null,
      auth_token: w?.auth_token ?? null,
      previous_auth_token: w?.previous_auth_token ?? null,
      previous_auth_token_expires_at: w?.previous_auth_token_expires_at ?? null,
      webhook_status: w?.status ?? null,
    };
  });
}

/** Claimed events with the webhook each goes to (null fields when the webhook is gone). */
export async function withTargets(db: Db, events: ClaimedEvent[]): Promise<ClaimedDelivery[]> {
  if (events.length === 0) return [];
  return attachTargets(events, await targetsOf(db, events.map((e) => e.webhook_id)));
}

/** Gives back claimed events that were not sent (their worker is stopping): due again for any worker at once. */
export async function release(db: Db, eventIds: string[]): Promise<void> {
  for (let i = 0; i < eventIds.length; i += 500) {
    await db('webhook_events').whereIn('id', eventIds.slice(i, i + 500)).andWhere({ status: 'pending' }).update({ claimed_until: null });
  }
}

/** Events waiting to be sent, first attempt or retry (the metrics' outbox depth; the claim's partial index of pending events answers it). */
export async function pendingCount(db: Db): Promise<number> {
  const row = await db('webhook_events').where({ status: 'pending' }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Releases claimed events whose webhook is gone or disabled: cancelled, not attempted. */
export async function cancelForDisabled(db: Db, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db('webhook_events').whereIn('id', eventIds).update({ status: 'cancelled', cancel_reason: 'disabled', claimed_until: null });
}

export interface AttemptRecord {
  eventId: string;
  webhookId: string;
  /** The event's attempts before this one. */
  attemptsBefore: number;
  attemptedAt: number;
  statusCode: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
  success: boolean;
  /** What the event becomes: delivered, failed, or pending again (then nextAttemptAt says when). */
  status: 'delivered' | 'failed' | 'pending';
  nextAttemptAt: number;
}

/**
 * Records a batch of attempts in one transaction: the attempt rows in multi-row inserts, each event's
 * new state in one statement per (state, next attempt) group, and each webhook's failure clock
 * (failing_since: the first failed attempt since the last success) from its last outcomes in the
 * batch. Answers the webhooks whose last outcome was a failure (the auto-disable check).
 */
export async function recordAttempts(db: Db, records: AttemptRecord[]): Promise<string[]> {
  if (records.length === 0) return [];
  const sorted = [...records].sort((a, b) => a.attemptedAt - b.attemptedAt);
  // The usual batch on PostgreSQL: every attempt succeeded. One statement (atomic on its own) writes
  // the attempts, marks the events delivered and stops the webhooks' failure clocks.
  if (isPostgres(db) && sorted.every((r) => r.success && r.status === 'delivered')) {
    await db.raw(
      `WITH attempts AS (
         INSERT INTO webhook_attempts (event_id, attempted_at, status_code, duration_ms, response_excerpt, error, success)
         SELECT a.event_id, a.attempted_at, a.status_code, a.duration_ms, a.response_excerpt, a.error, true
         FROM unnest(?::uuid[], ?::bigint[], ?::int[], ?::int[], ?::text[], ?::text[]) WITH ORDINALITY AS a(event_id, attempted_at, status_code, duration_ms, response_excerpt, error, n)
         ORDER BY a.n
       ), events AS (
         UPDATE webhook_events e SET status = 'delivered', attempts = v.attempts, claimed_until = NULL, next_attempt_at = v.next
         FROM unnest(?::uuid[], ?::int[], ?::bigint[]) AS v(id, attempts, next) WHERE e.id = v.id
       )
       UPDATE webhooks SET failing_since = NULL WHERE id = ANY(?::uuid[]) AND failing_since IS NOT NULL`,
      [
        sorted.map((r) => r.eventId),
        sorted.map((r) => r.attemptedAt),
        sorted.map((r) => r.statusCode),
        sorted.map((r) => r.durationMs),
        sorted.map((r) => r.excerpt),
        sorted.map((r) => r.error),
        sorted.map((r) => r.eventId),
        sorted.map((r) => r.attemptsBefore + 1),
        sorted.map((r) => r.nextAttemptAt),
        [...new Set(sorted.map((r) => r.webhookId))],
      ] as unknown as Knex.RawBinding[],
    );
    return [];
  }
  const groups = new Map<string, { status: string; attempts: number; next: number; ids: string[] }>();
  for (const r of sorted) {
    const attempts = r.attemptsBefore + 1;
    // Only a pending event's next attempt is ever read (the claim, the history's 'Next retry'); a
    // finished one keeps the time its batch's last attempt of that state was made, so a batch that
    // ended in one state is one statement rather than one per millisecond its attempts took.
    const key = r.status === 'pending' ? `${r.status}|${attempts}|${r.nextAttemptAt}` : `${r.status}|${attempts}`;
    const g = groups.get(key) ?? { status: r.status, attempts, next: r.nextAttemptAt, ids: [] };
    if (r.status !== 'pending') g.next = Math.max(g.next, r.nextAttemptAt);
    g.ids.push(r.eventId);
    groups.set(key, g);
  }
  // Per webhook: its last success and its first failure after that, in attempt order.
  const clocks = new Map<string, { succeeded: boolean; firstFailure: number | null }>();
  for (const r of sorted) {
    const c = clocks.get(r.webhookId) ?? { succeeded: false, firstFailure: null };
    if (r.success) {
      c.succeeded = true;
      c.firstFailure = null;
    } else if (c.firstFailure === null) c.firstFailure = r.attemptedAt;
    clocks.set(r.webhookId, c);
  }
  await db.transaction(async (trx) => {
    const rows = sorted.map((r) => ({
      event_id: r.eventId,
      attempted_at: r.attemptedAt,
      status_code: r.statusCode,
      duration_ms: r.durationMs,
      response_excerpt: r.excerpt,
      error: r.error,
      success: r.success,
    }));
    // A batch's attempts in one statement (500 rows bind 3,500 values: within both engines' limits).
    for (let i = 0; i < rows.length; i += 500) await trx('webhook_attempts').insert(rows.slice(i, i + 500));
    for (const g of groups.values()) {
      for (let i = 0; i < g.ids.length; i += 500) {
        await trx('webhook_events').whereIn('id', g.ids.slice(i, i + 500)).update({ status: g.status, attempts: g.attempts, claimed_until: null, next_attempt_at: g.next });
      }
    }
    const cleared = [...clocks].filter(([, c]) => c.succeeded && c.firstFailure === null).map(([id]) => id);
    if (cleared.length) await trx('webhooks').whereIn('id', cleared).whereNotNull('failing_since').update({ failing_since: null });
    for (const [id, c] of clocks) {
      if (c.firstFailure === null) continue;
      // After a success in this batch the clock restarts at the failure that followed it.
      const q = trx('webhooks').where({ id });
      await (c.succeeded ? q : q.whereNull('failing_since')).update({ failing_since: c.firstFailure });
    }
  });
  return [...clocks].filter(([, c]) => c.firstFailure !== null).map(([id]) => id);
}

/**
 * Sends an event again with the same id (the receiver can recognise a redelivery). Refused for an
 * event still waiting to be sent, and for one cancelled because its block was rolled back: that
 * block is no longer on the chain, so the event describes something that did not happen.
 */
export async function resend(db: Db, webhookId: string, eventId: string, now = Date.now()): Promise<void> {
  const updated = await db('webhook_events')
    .where({ id: eventId, webhook_id: webhookId })
    .where((q) => q.whereIn('status', ['delivered', 'failed']).orWhere((c) => c.where({ status: 'cancelled' }).andWhere((r) => r.whereNull('cancel_reason').orWhereNot('cancel_reason', 'rollback'))))
    .update({ status: 'pending', attempts: 0, next_attempt_at: now, claimed_until: null, cancel_reason: null });
  if (updated > 0) return;
  const row = await db('webhook_events').where({ id: eventId, webhook_id: webhookId }).first('status', 'cancel_reason');
  if (!row) throw new NotFound('Event not found.');
  if (row.status === 'cancelled') {
    throw new AppError(409, 'conflict', 'This event was cancelled because its block was rolled back off the chain, so it cannot be sent again.');
  }
  throw new AppError(409, 'conflict', 'This event is already waiting to be sent.');
}

export const EVENTS_PER_PAGE = 20;

/** One page of a webhook's events, newest first, each with its attempts. */
export async function eventHistory(db: Db, webhookId: string, page: number): Promise<{ events: WebhookEventDto[]; page: number; pages: number; total: number }> {
  const total = Number((await db('webhook_events').where({ webhook_id: webhookId }).count({ n: '*' }))[0]?.n ?? 0);
  const events = await db('webhook_events')
    .where({ webhook_id: webhookId })
    .orderBy('created_at', 'desc')
    .orderBy('id', 'asc')
    .limit(EVENTS_PER_PAGE)
    .offset((page - 1) * EVENTS_PER_PAGE)
    .select('id', 'type', 'created', 'status', 'block_height', 'block_hash', 'test', 'next_attempt_at', 'body');
  const attempts = events.length
    ? await db('webhook_attempts')
        .whereIn(
          'event_id',
          events.map((e) => e.id),
        )
        .orderBy('attempted_at', 'asc')
        .orderBy('id', 'asc')
        .select('event_id', 'attempted_at', 'status_code', 'duration_ms', 'response_excerpt', 'error', 'success')
    : [];
  const data: WebhookEventDto[] = events.map((e) => ({
    id: e.id,
    type: e.type,
    created: Number(e.created),
    status: e.status,
    block_height: e.block_height === null ? null : Number(e.block_height),
    block_hash: e.block_hash,
    test: Boolean(e.test),
    next_attempt_at: e.status === 'pending' ? Number(e.next_attempt_at) : null,
    body: e.body,
    attempts: attempts
      .filter((a) => a.event_id === e.id)
      .map((a) => ({
        attempted_at: Number(a.attempted_at),
        status_code: a.status_code,
        duration_ms: a.duration_ms,
        response_excerpt: a.response_excerpt,
        error: a.error,
        success: Boolean(a.success),
      })),
  }));
  return { events: data, page, pages: Math.max(1, Math.ceil(total / EVENTS_PER_PAGE)), total };
}

/**
 * fail_history per webhook: its latest FAIL_HISTORY_LIMIT logical events of the last 48 hours that
 * have been attempted, oldest first. One statement of one index range (webhook_id, created_at) per
 * webhook, each cut at the limit, so a busy webhook costs no more than a quiet one.
 */
export async function failHistory(db: Db, webhookIds: string[], now = Date.now()): Promise<Map<string, WebhookDto['fail_history']>> {
  const out = new Map<string, WebhookDto['fail_history']>();
  if (webhookIds.length === 0) return out;
  const since = now - FAILURE_WARNING_WINDOW_MS;
  const one =
    'SELECT e.id, e.webhook_id, e.status, (SELECT min(a.attempted_at) FROM webhook_attempts a WHERE a.event_id = e.id) AS fired ' +
    'FROM webhook_events e WHERE e.webhook_id = ? AND NOT e.test AND e.created_at >= ? ' +
    'AND EXISTS (SELECT 1 FROM webhook_attempts x WHERE x.event_id = e.id) ' +
    `ORDER BY e.created_at DESC LIMIT ${FAIL_HISTORY_LIMIT}`;
  // PostgreSQL plans one LATERAL read for every webhook; SQLite (in-process, no planning round trip)
  // takes the same reads as a UNION ALL.
  const result = (isPostgres(db)
    ? await db.raw(`SELECT f.* FROM unnest(?::uuid[]) AS h(id) CROSS JOIN LATERAL (${one.replace('e.webhook_id = ?', 'e.webhook_id = h.id')}) AS f`, [webhookIds, since])
    : await db.raw(
        webhookIds.map((_, i) => `SELECT * FROM (${one}) AS h${i}`).join(' UNION ALL '),
        webhookIds.flatMap((id) => [id, since]),
      )) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ webhook_id: string; status: string; fired: number | string }>;
  for (const r of rows) {
    const list = out.get(r.webhook_id) ?? [];
    // A delivery counts as failed only while no attempt has succeeded.
    list.push({ fired_at: Math.floor(Number(r.fired) / 1000), success: r.status === 'delivered' });
    out.set(r.webhook_id, list);
  }
  for (const list of out.values()) list.sort((x, y) => x.fired_at - y.fired_at);
  return out;
}

/** How long the outbox keeps what is finished (docs/operations.md, 'Retention'). Pending events are never pruned. */
export const OUTBOX_RETENTION = {
  /** Delivered and cancelled events, with their attempts. */
  doneDays: 30,
  /** Failed events, with their attempts: longer, so a fixed endpoint can still be sent them again. */
  failedDays: 90,
} as const;

/**
 * Deletes finished events older than the retention periods (by creation), with their attempts,
 * in batches of `batch` events so no statement or transaction grows with the backlog. Called by the
 * retention job; answers how many events went.
 */
export async function pruneOutbox(db: Db, now = Date.now(), retention: { doneDays: number; failedDays: number } = OUTBOX_RETENTION, batch = 1000): Promise<number> {
  let deleted = 0;
  for (const [statuses, days] of [
    [['delivered', 'cancelled'], retention.doneDays],
    [['failed'], retention.failedDays],
  ] as const) {
    for (;;) {
      const ids = await db('webhook_events')
        .whereIn('status', statuses)
        .andWhere('created_at', '<', now - days * DAY_MS)
        .limit(batch)
        .pluck('id');
      if (ids.length === 0) break;
      await db.transaction(async (trx) => {
        await trx('webhook_attempts').whereIn('event_id', ids).delete();
        await trx('webhook_events').whereIn('id', ids).whereIn('status', statuses).delete();
      });
      deleted += ids.length;
      if (ids.length < batch) break;
    }
  }
  return deleted;
}
