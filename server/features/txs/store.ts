// Transactions submitted through the gateway, per project: recorded at submit, advanced by the chain
// follower (tracker.ts), read by the gateway's status route and the project page.
import type { Knex } from 'knex';
import { isPostgres, type Db } from '../../db/index';
import { DAY_MS } from '../../../shared/time';
import { devnetNetwork } from '../../../shared/networks';
import { DEFAULT_TX_CONFIRMATIONS, settledTxStates, TX_RETENTION_DAYS, type TrackedTxDto, type TxState, type TxStatus } from '../../../shared/txs';

export type Conn = Db | Knex.Transaction;

/** One change of a tracked transaction's state, as the tracker and a submit make it. */
export interface TxChange {
  projectId: number;
  network: number;
  txHash: string;
  /** The state before; null for a transaction recorded for the first time (at its submit). */
  from: TxState | null;
  state: TxState;
  blockHeight: number | null;
  blockHash: string | null;
  depth: number;
  confirmationsNeeded: number;
  at: number;
}

/** The states of a transaction accepted and not in a block: what a block holding it lands. */
export const UNLANDED_STATES: TxState[] = ['pending', 'rolled_back'];

/** The settled states: a row reaching one gets settled_at, which pruning reads. */
export const isSettled = (state: TxState): boolean => settledTxStates.includes(state);

export interface Submission {
  projectId: number;
  /** The network's Secure Webhooks id. */
  network: number;
  txHash: string;
  ttlSlot: number | null;
  /** Set for a transaction the ledger refused (state invalid). */
  reason?: string;
  /** The transaction as submitted, kept while it is tracked so a rollback can resubmit it (accepted ones only). */
  cbor?: Uint8Array;
  at?: number;
}

/**
 * Where a transaction sits on the chain that accepted it, read from that chain in memory (no database
 * read: it runs inside the recording transaction): its block, or null while it is in none.
 */
export type LandedIn = (txHash: string) => { height: number; hash: string } | null;

type WithChange = (trx: Knex.Transaction, change: TxChange) => Promise<unknown>;

/**
 * Records a submission: pending, or invalid with the ledger's reason. The same transaction submitted
 * again by the same project keeps its row; a refused one accepted later (its inputs came) turns pending.
 * With `landedIn` (a chain served in process), an accepted transaction the follower already passed
 * the block of is landed here (catchUp).
 */
export async function recordSubmission(db: Db, s: Submission, withChange?: WithChange, landedIn?: LandedIn): Promise<void> {
  const at = s.at ?? Date.now();
  const state: TxState = s.reason === undefined ? 'pending' : 'invalid';
  await db.transaction(async (trx) => {
    const project = await trx('projects').where({ id: s.projectId }).first('tx_confirmations');
    if (!project) return; // deleted meanwhile
    const existing = await trx('tracked_txs').where({ project_id: s.projectId, tx_hash: s.txHash }).first('id', 'state');
    let id: number;
    const confirmationsNeeded = Number(project.tx_confirmations ?? DEFAULT_TX_CONFIRMATIONS);
    if (existing) {
      // Only a refused transaction is recorded again: once accepted, the follower owns its state.
      if (existing.state !== 'invalid') return;
      id = Number(existing.id);
      await trx('tracked_txs')
        .where({ id })
        .update({ state, reason: s.reason ?? null, ttl_slot: s.ttlSlot, cbor: cborOf(s, state), updated_at: at, settled_at: isSettled(state) ? at : null });
    } else {
      const [row] = await trx('tracked_txs')
        .insert({
          project_id: s.projectId,
          network: s.network,
          tx_hash: s.txHash,
          state,
          ttl_slot: s.ttlSlot,
          confirmations_needed: project.tx_confirmations ?? DEFAULT_TX_CONFIRMATIONS,
          reason: s.reason ?? null,
          cbor: cborOf(s, state),
          submitted_at: at,
          updated_at: at,
          settled_at: isSettled(state) ? at : null,
        })
        .returning('id');
      id = Number(typeof row === 'object' ? row.id : row);
    }
    await trx('tracked_tx_changes').insert({ tracked_id: id, state, at });
    // What else the change brings (its 'tx_status' webhook events), in the same transaction.
    await withChange?.(trx, { projectId: s.projectId, network: s.network, txHash: s.txHash, from: (existing?.state as TxState | undefined) ?? null, state, blockHeight: null, blockHash: null, depth: 0, confirmationsNeeded, at });
    if (state === 'pending' && landedIn) await catchUp(trx, s, id, confirmationsNeeded, landedIn, withChange, at);
  });
}

/**
 * A transaction is recorded once its submit has answered; on a fast chain (a devnet making a block
 * every 100 ms, or told to make one right after the submit) the block holding it may be made and
 * followed before that, and the follower, finding no row for it, left it alone. So the recording reads
 * the follower's cursor (on PostgreSQL locking its row, as the follower does first in its own
 * transaction; on SQLite the transaction holds the write lock): a block at or under it holding the
 * transaction was passed, and the transaction lands here as the follower would have landed it; one
 * above it is the follower's to see, and it will find this row.
 */
async function catchUp(trx: Knex.Transaction, s: Submission, id: number, confirmationsNeeded: number, landedIn: LandedIn, withChange: WithChange | undefined, at: number): Promise<void> {
  const tip = await followedTip(trx, s.network, s.projectId, { lock: true });
  if (tip === null) return;
  const row: OpenTracked = { id, project_id: s.projectId, network: s.network, tx_hash: s.txHash, state: 'pending', confirmations_needed: confirmationsNeeded };
  for (const change of await landPassed(trx, [row], landedIn, tip, at)) await withChange?.(trx, change);
}

/** An open (pending or rolled back) tracked transaction, as landPassed reads it. */
export interface OpenTracked {
  id: number;
  project_id: number;
  network: number;
  tx_hash: string;
  state: TxState;
  confirmations_needed: number;
}

/**
 * Lands the open transactions of `rows` that the chain has in a block at or under `tip` (a block the
 * follower passed without a row for them): in_block there, and confirmed at once when `tip` is deep
 * enough, each change recorded. Answers the changes, in order.
 */
export async function landPassed(trx: Knex.Transaction, rows: OpenTracked[], landedIn: LandedIn, tip: number, at: number): Promise<TxChange[]> {
  const changes: TxChange[] = [];
  for (const r of rows) {
    const block = landedIn(r.tx_hash);
    if (!block || block.height > tip) continue;
    const depth = tip - block.height + 1;
    const states: TxState[] = depth >= r.confirmations_needed ? ['in_block', 'confirmed'] : ['in_block'];
    const last = states.at(-1)!;
    await trx('tracked_txs')
      .where({ id: r.id })
      .update({ state: last, block_height: block.height, block_hash: block.hash, updated_at: at, settled_at: isSettled(last) ? at : null });
    let from = r.state;
    for (const state of states) {
      await trx('tracked_tx_changes').insert({ tracked_id: r.id, state, block_height: block.height, block_hash: block.hash, at });
      changes.push({ projectId: r.project_id, network: r.network, txHash: r.tx_hash, from, state, blockHeight: block.height, blockHash: block.hash, depth, confirmationsNeeded: r.confirmations_needed, at });
      from = state;
    }
  }
  return changes;
}

/** The open transactions of a network (of one project's chain, for a devnet): what a follower starting at the tip lands first. */
export async function openTracked(trx: Knex.Transaction, network: number, projectId?: number): Promise<OpenTracked[]> {
  const q = trx('tracked_txs').where({ network }).whereIn('state', UNLANDED_STATES);
  const rows = await (projectId === undefined ? q : q.andWhere({ project_id: projectId })).select('id', 'project_id', 'network', 'tx_hash', 'state', 'confirmations_needed');
  return rows.map((r) => ({ id: Number(r.id), project_id: Number(r.project_id), network: Number(r.network), tx_hash: r.tx_hash, state: r.state as TxState, confirmations_needed: Number(r.confirmations_needed) }));
}

/** The CBOR kept for a submission: an accepted one's, for resubmission after a rollback. */
const cborOf = (s: Submission, state: TxState): Buffer | null => (state === 'pending' && s.cbor ? Buffer.from(s.cbor) : null);

/** Where a devnet's follower keeps its cursors: negative, so it never names a network's Secure Webhooks id. */
export const devnetCursorKey = (devnetId: number): number => -devnetId;

/**
 * The depth under which the gateway's follower of an upstream-served network (upstream-follower.ts)
 * keeps its cursor and recent blocks in chain_cursors and chain_blocks: no webhook has it (their
 * confirmations are 0 or more), and the webhook followers leave it alone when they forget the
 * cursors of the depths nobody uses.
 */
export const UPSTREAM_CURSOR_DEPTH = -1;

/**
 * The tip the follower has reached on a network (its cursor at depth 0, or that of the follower of an
 * upstream-served network: the one moved last), or null before it first ran. On the devnets' network
 * each project has a chain of its own: its devnet's follower's tip.
 */
export async function followedTip(db: Conn, network: number, projectId: number, opts: { lock?: boolean } = {}): Promise<number | null> {
  let key = network;
  if (network === devnetNetwork.webhookId) {
    const devnet = await db('devnets').where({ project_id: projectId }).first('id');
    if (!devnet) return null;
    key = devnetCursorKey(Number(devnet.id));
  }
  const q = db('chain_cursors').where({ network: key }).whereIn('confirmations', [0, UPSTREAM_CURSOR_DEPTH]).orderBy('updated_at', 'desc');
  const row = await (opts.lock && isPostgres(db) ? q.forUpdate() : q).first('height');
  return row ? Number(row.height) : null;
}

export const depthOf = (blockHeight: number | null, tip: number | null): number => (blockHeight === null || tip === null || tip < blockHeight ? 0 : tip - blockHeight + 1);

/**
 * A tracked transaction's depth as shown: from the follower's tip, and never less than its state
 * says (a transaction in a block is at least 1 deep, a confirmed one at least its depth needed), so a
 * tip not read yet or behind (a follower just restarted) does not show a confirmed one at 0.
 */
const shownDepth = (state: TxState, blockHeight: number | null, tip: number | null, needed: number): number =>
  state === 'in_block' ? Math.max(1, depthOf(blockHeight, tip)) : state === 'confirmed' ? Math.max(needed, depthOf(blockHeight, tip)) : 0;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const seconds = (ms: unknown): number => Math.floor(Number(ms) / 1000);

/** A project's transaction with its history; null when the project never submitted it (or it was pruned). */
export async function txStatus(db: Db, projectId: number, txHash: string): Promise<TxStatus | null> {
  const row = await db('tracked_txs').where({ project_id: projectId, tx_hash: txHash }).first();
  if (!row) return null;
  const [changes, tip] = await Promise.all([
    db('tracked_tx_changes').where({ tracked_id: row.id }).orderBy('id').select('state', 'block_height', 'block_hash', 'resubmitted', 'at'),
    followedTip(db, Number(row.network), projectId),
  ]);
  const blockHeight = num(row.block_height);
  return {
    tx_hash: row.tx_hash,
    state: row.state,
    block_height: blockHeight,
    block_hash: row.block_hash ?? null,
    depth: shownDepth(row.state, blockHeight, tip, Number(row.confirmations_needed)),
    confirmations_needed: Number(row.confirmations_needed),
    ttl_slot: num(row.ttl_slot),
    reason: row.reason ?? null,
    submitted_at: seconds(row.submitted_at),
    history: changes.map((c) => ({ state: c.state, block_height: num(c.block_height), block_hash: c.block_hash ?? null, resubmitted: Boolean(c.resubmitted), at: seconds(c.at) })),
  };
}

/** The project's latest submissions, newest first (the project page). */
export async function recentSubmissions(db: Db, projectId: number, limit = 20): Promise<TrackedTxDto[]> {
  const rows = await db('tracked_txs').where({ project_id: projectId }).orderBy([{ column: 'submitted_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
  const tips = new Map<number, number | null>();
  for (const r of rows) if (!tips.has(Number(r.network))) tips.set(Number(r.network), await followedTip(db, Number(r.network), projectId));
  return rows.map((r) => ({
    tx_hash: r.tx_hash,
    state: r.state,
    block_height: num(r.block_height),
    depth: shownDepth(r.state, num(r.block_height), tips.get(Number(r.network)) ?? null, Number(r.confirmations_needed)),
    confirmations_needed: Number(r.confirmations_needed),
    reason: r.reason ?? null,
    submitted_at: Number(r.submitted_at),
    updated_at: Number(r.updated_at),
  }));
}

/** Deletes transactions settled more than TX_RETENTION_DAYS ago (their changes go with them). */
export async function pruneTrackedTxs(db: Db, now = Date.now()): Promise<number> {
  return db('tracked_txs').where('settled_at', '<', now - TX_RETENTION_DAYS * DAY_MS).delete();
}

/** The confirmations that will confirm the project's next submitted transactions. */
export async function projectTxConfirmations(db: Db, projectId: number): Promise<number> {
  const row = await db('projects').where({ id: projectId }).first('tx_confirmations');
  return row?.tx_confirmations ?? DEFAULT_TX_CONFIRMATIONS;
}

/** Whether the project's rolled-back transactions are sent to the mempool again. */
export async function projectTxResubmit(db: Db, projectId: number): Promise<boolean> {
  const row = await db('projects').where({ id: projectId }).first('tx_resubmit');
  return Boolean(row?.tx_resubmit);
}

/** Sets the project's resubmission; answers what it was and the project's name, for the audit log. */
export async function setProjectTxResubmit(db: Db, projectId: number, resubmit: boolean): Promise<{ before: boolean; projectName: string }> {
  return db.transaction(async (trx) => {
    const row = (await trx('projects').where({ id: projectId }).first('tx_resubmit', 'name')) as { tx_resubmit: boolean | number; name: string };
    await trx('projects').where({ id: projectId }).update({ tx_resubmit: resubmit, updated_at: Date.now() });
    return { before: Boolean(row.tx_resubmit), projectName: row.name };
  });
}

/** Sets the project's confirmations; answers what they were and the project's name, for the audit log. */
export async function setProjectTxConfirmations(db: Db, projectId: number, confirmations: number): Promise<{ before: number; projectName: string }> {
  return db.transaction(async (trx) => {
    const row = (await trx('projects').where({ id: projectId }).first('tx_confirmations', 'name')) as { tx_confirmations: number | null; name: string };
    await trx('projects').where({ id: projectId }).update({ tx_confirmations: confirmations, updated_at: Date.now() });
    return { before: row.tx_confirmations ?? DEFAULT_TX_CONFIRMATIONS, projectName: row.name };
  });
}
