import type { Knex } from 'knex';
import { isPostgres, type Db } from '../../db/index';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { RateSource } from './rate-source';
import { Conflict, Invalid, NotFound } from '../../errors';
import { recordGatewayChange } from '../../db/gateway-changes';
import { decodeCursor, pageLimit, pageOf, Paged } from '../../db/pagination';
import type { PageQuery } from '../../../shared/page-query';
import { writeSubscriptionLog } from '../billing/index';
import { NO_ORIGIN, recordAudit } from '../audit/index';
import { accountXpubOfMnemonic, addressDeriver, DEV_PAYMENT_MNEMONIC, parseAccountXpub, type PaymentNetwork } from './addresses';
import {
  FALLBACK_ADA_EUR_RATE,
  FALLBACK_PRICE_PER_REQUEST_EUR,
  MIN_ORDER_LOVELACE,
  formatAda,
  lovelaceFor,
  type PpuOrderDto,
  type PpuOrderStatus,
  type PpuPricing,
  type PpuQuoteDto,
} from '../../../shared/ppu';
import { DAY_MS } from '../../../shared/time';

// Pay as you go: quotes, orders (each paid to its own derived address), the payment watcher's
// credits and the request balance. Services only: no HTTP here.

export interface PpuSettings {
  /** False in production without PPU_ACCOUNT_XPUB: no orders are taken. */
  enabled: boolean;
  /** The development account key (the published test mnemonic) is in use. */
  devAccount: boolean;
  network: PaymentNetwork;
  confirmations: number;
  orderTtlMs: number;
  /** The prices without the rate source: configured, else the spec's fallbacks. */
  staticPricing: PpuPricing;
  /** The ADA/EUR rate source the operator names (PPU_RATE_URL); null when none. */
  rates: RateSource | null;
  /** The clock of the rate's TTL and age (Date.now; tests pass their own). */
  now: () => number;
  /** The payment address of an order (its id is the address index); null when disabled. */
  deriveAddress: ((index: number) => string) | null;
}

export function ppuSettings(config: Config, logger?: Logger, now: () => number = Date.now): PpuSettings {
  const c = config.ppu;
  const xpub = c.accountXpub ?? (config.isProduction ? null : accountXpubOfMnemonic(DEV_PAYMENT_MNEMONIC));
  const configured = c.pricePerRequestEur !== null || c.adaEurRate !== null;
  return {
    enabled: xpub !== null,
    devAccount: c.accountXpub === null && xpub !== null,
    network: c.network,
    confirmations: c.confirmations,
    orderTtlMs: c.orderTtlMs,
    staticPricing: {
      requests: { price_per_unit_eur: c.pricePerRequestEur ?? FALLBACK_PRICE_PER_REQUEST_EUR },
      ada_eur_rate: c.adaEurRate ?? FALLBACK_ADA_EUR_RATE,
      source: configured ? 'configuration' : 'fallback',
      rate_source: null,
      rate_at: null,
      rate_age_seconds: null,
    },
    rates: c.rateSource ? new RateSource({ ...c.rateSource, ...(logger ? { logger } : {}), now }) : null,
    now,
    deriveAddress: xpub ? addressDeriver(parseAccountXpub(xpub), c.network) : null,
  };
}

/**
 * The prices now. The unit price is PPU_PRICE_PER_REQUEST_EUR or the spec's 0.0000024 EUR. The
 * ADA/EUR rate is the rate source's when it answers (or answered within PPU_RATE_MAX_AGE_SECONDS):
 * an operator who names a source wants the market's rate. Otherwise PPU_ADA_EUR_RATE, and without
 * it the rate the spec's fallbacks imply (0.0000024 EUR = 0.0000044839 ADA per request).
 */
export async function currentPricing(s: PpuSettings, now = s.now): Promise<PpuPricing> {
  const reading = s.rates ? await s.rates.current() : null;
  if (!reading) return s.staticPricing;
  return {
    requests: s.staticPricing.requests,
    ada_eur_rate: reading.rate,
    source: 'rate_source',
    rate_source: s.rates!.host,
    rate_at: reading.at,
    rate_age_seconds: Math.max(0, Math.floor((now() - reading.at) / 1000)),
  };
}

/** One start-up line saying where payments go, and that the development key is a test key. */
export function ppuStartupLine(s: PpuSettings): { level: 'info' | 'warn'; line: string } {
  if (!s.enabled) return { level: 'warn', line: 'pay as you go: off (PPU_ACCOUNT_XPUB is not set), so no orders are taken' };
  const p = s.staticPricing;
  const prices = s.rates
    ? `${p.requests.price_per_unit_eur} EUR per request at the ADA/EUR rate of ${s.rates.host} (else ${p.ada_eur_rate} EUR per ADA, ${p.source === 'configuration' ? 'configured' : 'the default'})`
    : `${p.source} prices: ${p.requests.price_per_unit_eur} EUR per request at ${p.ada_eur_rate} EUR per ADA`;
  if (s.devAccount) {
    return {
      level: 'warn',
      line: `pay as you go: PPU_ACCOUNT_XPUB is not set, so order addresses derive from the development account (the published test mnemonic '${DEV_PAYMENT_MNEMONIC}': anyone can spend what it receives; test ada only) on ${s.network}; ${prices}`,
    };
  }
  return { level: 'info', line: `pay as you go: order addresses derive from PPU_ACCOUNT_XPUB on ${s.network}, ${s.confirmations} confirmations; ${prices}` };
}

export function quote(pricing: PpuPricing, requests: number): PpuQuoteDto {
  const { price_per_unit_eur: price } = pricing.requests;
  const lovelace = lovelaceFor(requests, price, pricing.ada_eur_rate);
  if (lovelace < BigInt(MIN_ORDER_LOVELACE)) {
    throw new Invalid(`An order must come to at least ${formatAda(BigInt(MIN_ORDER_LOVELACE))} (a Cardano payment's minimum); ${requests.toLocaleString('en-US')} requests come to ${formatAda(lovelace)}.`);
  }
  return {
    pricing,
    items: [{ item_type: 'requests', item_quantity: requests }],
    total_eur: Math.round(requests * price * 100) / 100,
    total_lovelace: lovelace.toString(),
  };
}

interface OrderRow {
  id: number | string;
  workspace_id: number;
  network: string;
  address: string;
  requests: number | string;
  price_per_unit_eur: number;
  ada_eur_rate: number;
  total_eur: number;
  lovelace: number | string;
  status: PpuOrderStatus;
  received_lovelace: number | string;
  credited_requests: number | string;
  first_payment_height: number | null;
  created_at: number | string;
  expires_at: number | string;
  paid_at: number | string | null;
  workspace_name?: string;
}

export interface OrderView {
  tip: number | null;
  canSimulate: boolean;
  requiredConfirmations: number;
}

/** The orders as the API answers them, their payments' transactions read in one query for all. */
async function toDtos(db: Db, rows: OrderRow[], view: OrderView): Promise<PpuOrderDto[]> {
  const txs = rows.length
    ? ((await db('ppu_payments').whereIn('order_id', rows.map((r) => r.id)).orderBy('height').select('order_id', 'tx_hash')) as Array<{ order_id: number | string; tx_hash: string }>)
    : [];
  const txHashes = new Map<number, Set<string>>();
  for (const t of txs) {
    const id = Number(t.order_id);
    if (!txHashes.has(id)) txHashes.set(id, new Set());
    txHashes.get(id)!.add(t.tx_hash);
  }
  return rows.map((r) => toDto(r, [...(txHashes.get(Number(r.id)) ?? [])], view));
}

function toDto(r: OrderRow, txHashes: string[], view: OrderView): PpuOrderDto {
  const height = r.first_payment_height;
  return {
    id: Number(r.id),
    workspaceId: r.workspace_id,
    workspaceName: r.workspace_name ?? '',
    network: r.network,
    address: r.address,
    requests: Number(r.requests),
    pricePerUnitEur: Number(r.price_per_unit_eur),
    adaEurRate: Number(r.ada_eur_rate),
    totalEur: Number(r.total_eur),
    lovelace: String(r.lovelace),
    status: r.status,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    receivedLovelace: String(r.received_lovelace),
    creditedRequests: Number(r.credited_requests),
    txHashes,
    confirmations: height === null || view.tip === null ? 0 : Math.max(0, view.tip - height + 1),
    requiredConfirmations: view.requiredConfirmations,
    paidAt: r.paid_at === null ? null : Number(r.paid_at),
    canSimulate: view.canSimulate && (r.status === 'awaiting_payment' || r.status === 'expired'),
  };
}

const orderColumns = ['o.*', 'w.name as workspace_name'];

export async function createOrder(db: Db, s: PpuSettings, args: { workspaceId: number; userId: number; requests: number }, view: OrderView, now = Date.now()): Promise<PpuOrderDto> {
  if (!s.enabled || !s.deriveAddress) throw new Conflict('Pay as you go is not available on this server: the operator has not configured a payment account (PPU_ACCOUNT_XPUB).');
  const q = quote(await currentPricing(s), args.requests);
  const derive = s.deriveAddress;
  const id = await db.transaction(async (trx) => {
    const [row] = await trx('ppu_orders')
      .insert({
        workspace_id: args.workspaceId,
        user_id: args.userId,
        network: s.network,
        address: null,
        requests: args.requests,
        price_per_unit_eur: q.pricing.requests.price_per_unit_eur,
        ada_eur_rate: q.pricing.ada_eur_rate,
        total_eur: q.total_eur,
        lovelace: q.total_lovelace,
        status: 'awaiting_payment',
        created_at: now,
        expires_at: now + s.orderTtlMs,
      })
      .returning('id');
    const orderId = Number(typeof row === 'object' ? row.id : row);
    // The order's id is its address index: each order gets its own address, and the same index never comes twice.
    await trx('ppu_orders').where({ id: orderId }).update({ address: derive(orderId) });
    return orderId;
  });
  return getOrder(db, args.workspaceId, id, view);
}

export async function getOrder(db: Db, workspaceId: number, id: number, view: OrderView): Promise<PpuOrderDto> {
  const r = (await db('ppu_orders as o').join('workspaces as w', 'w.id', 'o.workspace_id').where({ 'o.id': id, 'o.workspace_id': workspaceId }).first(orderColumns)) as OrderRow | undefined;
  if (!r) throw new NotFound('Order not found.');
  return (await toDtos(db, [r], view))[0]!;
}

/** An order of any workspace the user is a member of (the subscription pages' order route), else 404. */
export async function getOrderForUser(db: Db, userId: number, id: number, view: OrderView): Promise<PpuOrderDto> {
  const r = (await db('ppu_orders as o')
    .join('workspaces as w', 'w.id', 'o.workspace_id')
    .join('workspace_members as m', 'm.workspace_id', 'o.workspace_id')
    .where({ 'o.id': id, 'm.user_id': userId })
    .first(orderColumns)) as OrderRow | undefined;
  if (!r) throw new NotFound('Order not found.');
  return (await toDtos(db, [r], view))[0]!;
}

/**
 * The ids of a page of the orders of every workspace the user is a member of, newest first, below
 * `before`. A plain join lets PostgreSQL's planner walk all orders down the primary key, other
 * workspaces' too, until it has found a page of the user's; there the newest `count` of each of the
 * user's workspaces are read instead (one range of the (workspace_id, id) index each, LATERAL) and
 * merged. SQLite already reads the user's workspaces' ranges of that index alone for the IN list.
 */
async function userOrderIds(db: Db, userId: number, before: number | null, count: number): Promise<number[]> {
  if (isPostgres(db)) {
    const below = before === null ? '' : 'AND o.id < ?';
    const result = (await db.raw(
      `SELECT p.id FROM workspace_members m CROSS JOIN LATERAL (SELECT o.id FROM ppu_orders o WHERE o.workspace_id = m.workspace_id ${below} ORDER BY o.id DESC LIMIT ?) p WHERE m.user_id = ? ORDER BY p.id DESC LIMIT ?`,
      [...(before === null ? [] : [before]), count, userId, count],
    )) as { rows: Array<{ id: number | string }> };
    return result.rows.map((r) => Number(r.id));
  }
  const q = db('ppu_orders').whereIn('workspace_id', db('workspace_members').where({ user_id: userId }).select('workspace_id'));
  if (before !== null) q.andWhere('id', '<', before);
  return ((await q.orderBy('id', 'desc').limit(count).select('id')) as Array<{ id: number | string }>).map((r) => Number(r.id));
}

/**
 * One page of the orders of the workspaces the user is a member of (or of one workspace), newest
 * first (shared/pagination.ts: `next` is the cursor of the older page), read below the cursor's
 * order id on (workspace_id, id), so page 200 costs what page 1 does.
 */
export async function listOrders(db: Db, filter: { userId: number } | { workspaceId: number }, view: OrderView, page: PageQuery = {}): Promise<Paged<PpuOrderDto>> {
  const limit = pageLimit(page.limit);
  const before = page.cursor ? (decodeCursor(page.cursor, ['int'])[0] as number) : null;
  const q = db('ppu_orders as o').join('workspaces as w', 'w.id', 'o.workspace_id');
  if ('workspaceId' in filter) {
    q.where('o.workspace_id', filter.workspaceId);
    if (before !== null) q.andWhere('o.id', '<', before);
    q.limit(limit + 1);
  } else {
    const ids = await userOrderIds(db, filter.userId, before, limit + 1);
    if (!ids.length) return new Paged([], null);
    q.whereIn('o.id', ids);
  }
  const rows = (await q.orderBy('o.id', 'desc').select(orderColumns)) as OrderRow[];
  const paged = pageOf(rows, limit, (r) => [Number(r.id)]);
  return new Paged(await toDtos(db, paged.items, view), paged.next);
}

/** The order's address and amount, for 'Simulate payment' (open or expired orders only). */
export async function orderPaymentTarget(db: Db, id: number): Promise<{ network: string; address: string; lovelace: bigint }> {
  const r = await db('ppu_orders').where({ id }).first('network', 'address', 'lovelace', 'status');
  if (!r) throw new NotFound('Order not found.');
  if (r.status !== 'awaiting_payment' && r.status !== 'expired') throw new Conflict('This order has already been paid.');
  return { network: r.network, address: r.address, lovelace: BigInt(r.lovelace) };
}

/** A workspace's remaining requests (never below zero) and whether it has bought any. */
export async function ppuBalance(db: Db, workspaceId: number): Promise<{ active: boolean; requests: number }> {
  const r = await db('ppu_balances').where({ workspace_id: workspaceId }).first('credited', 'spent');
  if (!r) return { active: false, requests: 0 };
  return { active: Number(r.credited) > 0, requests: Math.max(0, Number(r.credited) - Number(r.spent)) };
}

// ---- the payment watcher's writes ----

export interface SeenPayment {
  txHash: string;
  outputIndex: number;
  orderId: number;
  lovelace: bigint;
  height: number;
  blockHash: string;
}

/** How long after it expired an order's address is still watched: a late payment is still credited at its locked rate. */
export const LATE_PAYMENT_MS = 7 * DAY_MS;

/** The orders whose address the watcher looks for: open ones, and expired ones for a week. */
const watched = (q: Knex.QueryBuilder, now: number) =>
  q.where((w) => w.whereIn('status', ['awaiting_payment', 'confirming']).orWhere((e) => e.where('status', 'expired').andWhere('expires_at', '>', now - LATE_PAYMENT_MS)));

/** Whether any order of the network is watched at all (when none is, blocks are not even read). */
export async function anyWatchedOrder(db: Db, network: string, now = Date.now()): Promise<boolean> {
  // Two lookups by the status index (an OR of both would scan every paid order when none is open).
  if (await db('ppu_orders').whereIn('status', ['awaiting_payment', 'confirming']).andWhere({ network }).first('id')) return true;
  return (await db('ppu_orders').where({ status: 'expired', network }).andWhere('expires_at', '>', now - LATE_PAYMENT_MS).first('id')) !== undefined;
}

export interface WatchedOrderRow {
  id: number;
  address: string;
  status: PpuOrderStatus;
  expiresAt: number;
}

const toWatchedRow = (r: { id: number | string; address: string; status: PpuOrderStatus; expires_at: number | string }): WatchedOrderRow => ({ id: Number(r.id), address: r.address, status: r.status, expiresAt: Number(r.expires_at) });

/** Every watched order of the network (the watcher index's full load), and the highest order id of any network. */
export async function watchedOrderRows(db: Db, network: string, now = Date.now()): Promise<{ rows: WatchedOrderRow[]; maxId: number }> {
  // The highest id first: an order committed after it is read is above it, or within the index's re-read window.
  const max = await db('ppu_orders').max({ m: 'id' }).first();
  const rows = await watched(db('ppu_orders').where({ network }), now).select('id', 'address', 'status', 'expires_at');
  return { rows: rows.map(toWatchedRow), maxId: Number(max?.m ?? 0) };
}

/** Orders above an id (the index's incremental read, by primary key), watched or not, of the network. */
export async function orderRowsAbove(db: Db, network: string, afterId: number): Promise<{ rows: WatchedOrderRow[]; maxId: number }> {
  const rows = await db('ppu_orders').where('id', '>', afterId).orderBy('id').select('id', 'network', 'address', 'status', 'expires_at');
  return { rows: rows.filter((r: { network: string; address: string | null }) => r.network === network && r.address !== null).map(toWatchedRow), maxId: rows.length ? Number(rows[rows.length - 1].id) : afterId };
}

/**
 * The watched orders among a block's output addresses (address → order id): one lookup by the
 * address index per slice of addresses, so a block costs the same with ten or ten thousand orders open.
 */
export async function watchedOrdersAt(db: Db, network: string, addresses: string[], now = Date.now()): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (let i = 0; i < addresses.length; i += 500) {
    const rows = await watched(db('ppu_orders').whereIn('address', addresses.slice(i, i + 500)).andWhere({ network }), now).select('id', 'address');
    for (const r of rows as Array<{ id: number | string; address: string }>) found.set(r.address, Number(r.id));
  }
  return found;
}

/**
 * Records a block's payments to order addresses and moves the cursor past the block, in one
 * transaction: a crash re-reads the block, and a payment already recorded is not recorded twice.
 */
export async function recordBlock(db: Db, network: string, block: { height: number; hash: string }, payments: SeenPayment[], now = Date.now()): Promise<void> {
  const moveCursor = (q: Db) =>
    q('ppu_watch_cursors')
      .insert({ network, height: block.height, hash: block.hash, updated_at: now })
      .onConflict('network')
      .merge({ height: block.height, hash: block.hash, updated_at: now });
  // Most blocks pay no order: the cursor alone moves, in one statement.
  if (payments.length === 0) return void (await moveCursor(db));
  await db.transaction(async (trx) => {
    if (payments.length > 0) {
      await trx('ppu_payments')
        .insert(payments.map((p) => ({ tx_hash: p.txHash, output_index: p.outputIndex, order_id: p.orderId, lovelace: p.lovelace.toString(), height: p.height, block_hash: p.blockHash, seen_at: now })))
        .onConflict(['tx_hash', 'output_index'])
        .ignore();
      for (const orderId of new Set(payments.map((p) => p.orderId))) {
        // What the order received in all, and its first payment's height, computed by the update itself.
        await trx('ppu_orders')
          .where({ id: orderId })
          .whereIn('status', ['awaiting_payment', 'expired', 'confirming'])
          .update({
            status: 'confirming',
            received_lovelace: trx('ppu_payments').where({ order_id: orderId }).sum('lovelace'),
            first_payment_height: trx('ppu_payments').where({ order_id: orderId }).min('height'),
          });
      }
    }
    await moveCursor(trx);
  });
}

export async function watchCursor(db: Db, network: string): Promise<{ height: number; hash: string } | null> {
  const r = await db('ppu_watch_cursors').where({ network }).first('height', 'hash');
  return r ? { height: Number(r.height), hash: r.hash } : null;
}

/**
 * Credits every confirming order whose first payment has `confirmations` blocks on top of it (the
 * tip counts as one). Each credit is one transaction: the order's state (moved only from
 * 'confirming', so a second watcher or a replay credits nothing), the balance and the subscription
 * log entry. What was received buys requests at the order's locked price: an overpayment is credited
 * in full, an underpayment for what it covers (and the order shows 'underpaid').
 */
export async function creditConfirmed(db: Db, network: string, tip: number, confirmations: number, now = Date.now()): Promise<number> {
  const due = await db('ppu_orders').where({ network, status: 'confirming' }).andWhere('first_payment_height', '<=', tip - confirmations + 1).select('id');
  let credited = 0;
  for (const { id } of due) {
    const done = await db.transaction(async (trx) => {
      const o = await trx('ppu_orders as o')
        .join('workspaces as w', 'w.id', 'o.workspace_id')
        .where('o.id', id)
        .first('o.*', 'w.owner_id', trx('users as u').whereRaw('u.id = o.user_id').select('u.email').as('buyer_email'), trx('ppu_payments as p').whereRaw('p.order_id = o.id').orderBy('p.height').limit(1).select('p.tx_hash').as('first_tx'));
      if (!o || o.status !== 'confirming') return false;
      const received = BigInt(o.received_lovelace);
      const price = BigInt(o.lovelace);
      const requests = (BigInt(o.requests) * received) / price;
      const status: PpuOrderStatus = received >= price ? 'paid' : 'underpaid';
      const moved = await trx('ppu_orders').where({ id, status: 'confirming' }).update({ status, credited_requests: requests.toString(), paid_at: now });
      if (moved !== 1) return false;
      await trx('ppu_balances')
        .insert({ workspace_id: o.workspace_id, credited: requests.toString(), spent: 0, updated_at: now })
        .onConflict('workspace_id')
        .merge({ credited: trx.raw('ppu_balances.credited + ?', [requests.toString()]), updated_at: now });
      const euroCents = Math.round((Number(o.total_eur) * 100 * Number(received)) / Number(price));
      await writeSubscriptionLog(trx, o.owner_id, 'cardano', { type: 'ppu_order', amount: euroCents, workspaceId: o.workspace_id, reference: o.first_tx ?? null, dedupeKey: `ppu_order:${id}:${o.first_payment_height}` }, now);
      // The order was placed by a member; it is paid on the chain's word, so there is no client address.
      await recordAudit(trx, {
        workspaceId: o.workspace_id,
        actor: o.user_id && o.buyer_email ? { userId: Number(o.user_id), email: o.buyer_email } : { system: true },
        action: 'ppu.order_paid',
        target: { type: 'order', id: id, label: `${requests.toLocaleString('en-US')} requests` },
        ...NO_ORIGIN,
        details: { status, requests: Number(requests), amount_cents: euroCents, tx: o.first_tx ?? null },
        at: now,
      });
      // The gateways reload the workspace's keys, and with them its balance.
      await recordGatewayChange(trx, 'workspace', o.workspace_id);
      return true;
    });
    if (done) credited++;
  }
  return credited;
}

/** Orders nobody paid within their time are expired (a late payment still finds them for a week). */
export async function expireOrders(db: Db, network: string, now = Date.now(), ids?: number[]): Promise<number> {
  const q = db('ppu_orders').where({ network, status: 'awaiting_payment' }).andWhere('expires_at', '<=', now);
  // The watcher's index knows which orders are due: then only those are looked at, by primary key.
  if (ids) q.whereIn('id', ids);
  return q.update({ status: 'expired' });
}

/** Adds the gateway's balance spends (requests per workspace id) to ppu_balances.spent. */
export async function addBalanceSpends(db: Db, spends: Map<string, number>, now = Date.now()): Promise<void> {
  if (spends.size === 0) return;
  await db.transaction(async (trx) => {
    for (const [workspaceId, n] of spends) {
      await trx('ppu_balances').where({ workspace_id: Number(workspaceId) }).update({ spent: trx.raw('spent + ?', [n]), updated_at: now });
    }
  });
}

/**
 * Raises ppu_balances.spent to the totals Redis counts (per workspace id), never lowering it: the
 * flush of every gateway on one Redis writes the same totals, so any of them may, any number of times.
 */
export async function raiseBalanceSpent(db: Db, totals: Map<string, number>, now = Date.now()): Promise<void> {
  if (totals.size === 0) return;
  await db.transaction(async (trx) => {
    for (const [workspaceId, total] of totals) {
      if (!Number.isSafeInteger(total) || total < 0) continue;
      await trx('ppu_balances').where({ workspace_id: Number(workspaceId) }).andWhere('spent', '<', total).update({ spent: total, updated_at: now });
    }
  });
}

/**
 * A rollback: the chain no longer holds the blocks at `goneHeights`. In one transaction, forgets
 * the payments recorded in them, reverses what they had credited (the order goes back to awaiting
 * payment or confirming on what remains, the balance loses the credit, a log entry says so) and moves
 * the cursor back to the fork. Answers the number of orders whose credit was reversed.
 */
export async function rollBackTo(db: Db, network: string, goneHeights: number[], fork: { height: number; hash: string }, now = Date.now()): Promise<number> {
  return db.transaction(async (trx) => {
    const touched = await trx('ppu_payments as p').join('ppu_orders as o', 'o.id', 'p.order_id').where('o.network', network).whereIn('p.height', [...goneHeights, -1]).distinct('p.order_id');
    let reversed = 0;
    for (const { order_id: id } of touched) {
      await trx('ppu_payments').where({ order_id: id }).whereIn('height', [...goneHeights, -1]).delete();
      const o = await trx('ppu_orders as o').join('workspaces as w', 'w.id', 'o.workspace_id').where('o.id', id).first('o.*', 'w.owner_id');
      const left = await trx('ppu_payments').where({ order_id: id }).sum({ s: 'lovelace' }).min({ h: 'height' }).first();
      const received = String(left?.s ?? 0);
      const credited = BigInt(o.credited_requests);
      if (credited > 0n) {
        await trx('ppu_balances').where({ workspace_id: o.workspace_id }).update({ credited: trx.raw('credited - ?', [credited.toString()]), updated_at: now });
        await writeSubscriptionLog(trx, o.owner_id, 'cardano', { type: 'ppu_order', amount: 0, workspaceId: o.workspace_id, reference: `rollback of order ${id}`, dedupeKey: `ppu_rollback:${id}:${now}` }, now);
        await recordGatewayChange(trx, 'workspace', o.workspace_id);
        reversed++;
      }
      const status: PpuOrderStatus = left?.h != null ? 'confirming' : Number(o.expires_at) <= now ? 'expired' : 'awaiting_payment';
      await trx('ppu_orders').where({ id }).update({ status, received_lovelace: received, first_payment_height: left?.h ?? null, credited_requests: 0, paid_at: null });
    }
    await trx('ppu_watch_cursors').where({ network }).update({ height: fork.height, hash: fork.hash, updated_at: now });
    return reversed;
  });
}
