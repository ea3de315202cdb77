// Advances tracked transactions as the chain follower writes blocks at the tip, in the follower's
// own transaction (so a restart neither loses nor repeats a change). What it costs follows the
// blocks' transactions, not the number tracked, and it adds few round trips to the follower's
// transaction, which holds the cursor meanwhile: per batch of blocks one read finds, each part on an
// index of its own, those the blocks include, those now deep enough and those past their validity;
// one write sets their new states and records the changes (on SQLite, an update and an insert).
import type { Knex } from 'knex';
import { isPostgres } from '../../db/index';
import type { Conn, TxChange } from './store';
import type { TxState } from '../../../shared/txs';
import { isSettled, UNLANDED_STATES } from './store';

export type { TxChange };

export interface FollowedBlock {
  height: number;
  hash: string;
  slot: number | null;
  /** The hashes of its transactions; null when they were not read (nothing open to look for). */
  txHashes: string[] | null;
}

const OPEN_UNLANDED = UNLANDED_STATES;
const CHUNK = 500;
const COLUMNS = ['id', 'project_id', 'tx_hash', 'state', 'block_height', 'block_hash', 'ttl_slot', 'confirmations_needed'];

interface Row {
  id: number;
  project_id: number;
  tx_hash: string;
  state: TxState;
  block_height: number | null;
  block_hash: string | null;
  ttl_slot: number | null;
  confirmations_needed: number;
}

/** A row of tracked_tx_changes. */
interface History {
  tracked_id: number;
  state: TxState;
  block_height: number | null;
  block_hash: string | null;
  resubmitted?: boolean;
  at: number;
}

/** Where a batch of blocks reaches: what its reads look for. */
interface Reach {
  scope: { network: number; project_id?: number };
  hashes: string[];
  tip: number;
  lastSlot: number | null;
}

/**
 * The tracked transactions a batch of blocks may change, in one statement of three reads, each on an
 * index of its own so none walks the pending transactions: those the blocks include (network,
 * tx_hash), the landed ones now deep enough (network, state), and the unlanded ones past their
 * validity (network, state, ttl_slot). On SQLite, hashes past the first CHUNK are read in further statements.
 */
async function candidates(trx: Knex.Transaction, { scope, hashes, tip, lastSlot }: Reach): Promise<Row[]> {
  const pg = isPostgres(trx);
  // The state of the hash read is checked below, not in SQL: with it the planner may prefer (network, state) and walk every pending row.
  const byHash = (list: string[]) => (pg ? trx('tracked_txs').where(scope).whereRaw('tx_hash = any(?)', [list]) : trx('tracked_txs').where(scope).whereIn('tx_hash', list)).select(COLUMNS);
  const first = pg ? hashes : hashes.slice(0, CHUNK);
  const parts: Knex.QueryBuilder[] = [trx('tracked_txs').where({ ...scope, state: 'in_block' }).andWhere(trx.raw('block_height + confirmations_needed - 1 <= ?', [tip])).select(COLUMNS)];
  if (lastSlot !== null) parts.push(trx('tracked_txs').where(scope).whereIn('state', OPEN_UNLANDED).andWhere('ttl_slot', '<=', lastSlot).select(COLUMNS));
  const [head, ...rest] = first.length > 0 ? [byHash(first), ...parts] : parts;
  const read: Row[] = rest.length > 0 ? await head!.unionAll(rest) : await head!;
  for (let i = first.length; i < hashes.length; i += CHUNK) read.push(...(await byHash(hashes.slice(i, i + CHUNK))));
  const unique = new Map<number, Row>();
  for (const r of read) {
    const row: Row = { ...r, id: Number(r.id), project_id: Number(r.project_id), block_height: r.block_height === null ? null : Number(r.block_height), ttl_slot: r.ttl_slot === null ? null : Number(r.ttl_slot), confirmations_needed: Number(r.confirmations_needed) };
    // The hash read's rows in any other state (already landed and not yet deep enough, settled) are not the blocks' to change.
    if (OPEN_UNLANDED.includes(row.state) || (row.state === 'in_block' && row.block_height !== null && row.block_height + row.confirmations_needed - 1 <= tip)) unique.set(row.id, row);
  }
  return [...unique.values()];
}

/**
 * Blocks `blocks` (consecutive, the last one the tip followed) were written: the pending and rolled
 * back transactions they include land (in_block), those with enough blocks on top are confirmed, and
 * those whose validity ended at a block that left them out expire. Answers the changes made. With
 * `projectId`, the blocks are that project's own chain (a devnet): only its transactions are looked at.
 */
export async function advanceTracked(trx: Knex.Transaction, network: number, blocks: FollowedBlock[], now = Date.now(), projectId?: number): Promise<TxChange[]> {
  if (blocks.length === 0) return [];
  const tip = blocks.at(-1)!.height;
  const landedIn = new Map<string, FollowedBlock>();
  for (const b of blocks) for (const h of b.txHashes ?? []) landedIn.set(h, b);
  const slots = blocks.map((b) => b.slot).filter((s): s is number => s !== null);
  const lastSlot = slots.length > 0 ? Math.max(...slots) : null;
  // A devnet's blocks are its project's own chain: only that project's transactions are looked at.
  const scope = projectId === undefined ? { network } : { network, project_id: projectId };
  const rows = await candidates(trx, { scope, hashes: [...landedIn.keys()], tip, lastSlot });
  if (rows.length === 0) return [];

  const changes: TxChange[] = [];
  const history: History[] = [];
  const change = (r: Row, state: TxState, block: { height: number; hash: string } | null) => {
    const blockHeight = block?.height ?? null;
    changes.push({ projectId: r.project_id, network, txHash: r.tx_hash, from: r.state, state, blockHeight, blockHash: block?.hash ?? null, depth: blockHeight === null ? 0 : tip - blockHeight + 1, confirmationsNeeded: r.confirmations_needed, at: now });
    history.push({ tracked_id: r.id, state, block_height: blockHeight, block_hash: block?.hash ?? null, at: now });
    r.state = state;
  };
  for (const r of rows) {
    const block = OPEN_UNLANDED.includes(r.state) ? landedIn.get(r.tx_hash) : undefined;
    if (block) {
      change(r, 'in_block', block);
      r.block_height = block.height;
      r.block_hash = block.hash;
    } else if (r.state !== 'in_block' && r.ttl_slot !== null && lastSlot !== null && r.ttl_slot <= lastSlot) {
      change(r, 'expired', null);
      continue;
    }
    if (r.state === 'in_block' && r.block_height !== null && r.block_height + r.confirmations_needed - 1 <= tip) change(r, 'confirmed', { height: r.block_height, hash: r.block_hash ?? '' });
  }
  // Rows the reads found that nothing changed (an unlanded one still valid) are not written.
  const changed = new Set(history.map((h) => h.tracked_id));
  await writeAdvances(trx, rows.filter((r) => changed.has(r.id)), history, now);
  return changes;
}

/**
 * Sets each row's new state (with its block, and settled_at when the state is settled) and records
 * the changes: on PostgreSQL one statement, the rows as arrays; on SQLite one update of the rows as
 * a VALUES list and the changes' inserts.
 */
async function writeAdvances(trx: Knex.Transaction, rows: Row[], history: History[], now: number): Promise<void> {
  if (rows.length === 0) return;
  const settled = (r: Row) => (isSettled(r.state) ? now : null);
  if (isPostgres(trx)) {
    // One array per column (unnest), so the statement has the same few parameters however many rows.
    const bindings: unknown[] = [
      rows.map((r) => r.id),
      rows.map((r) => r.state),
      rows.map((r) => r.block_height),
      rows.map((r) => r.block_hash),
      rows.map(settled),
      now,
      now,
      history.map((h) => h.tracked_id),
      history.map((h) => h.state),
      history.map((h) => h.block_height),
      history.map((h) => h.block_hash),
    ];
    await trx.raw(
      `with v as (select * from unnest(?::int[], ?::text[], ?::bigint[], ?::text[], ?::bigint[]) as v(id, state, block_height, block_hash, settled_at)),
        u as (update tracked_txs t set state = v.state, block_height = v.block_height, block_hash = v.block_hash, updated_at = ?, settled_at = coalesce(v.settled_at, t.settled_at) from v where t.id = v.id)
      insert into tracked_tx_changes (tracked_id, state, block_height, block_hash, resubmitted, at)
        select tracked_id, state, block_height, block_hash, false, ? from unnest(?::int[], ?::text[], ?::bigint[], ?::text[]) as c(tracked_id, state, block_height, block_hash)`,
      bindings as Knex.RawBinding[],
    );
    return;
  }
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK);
    await trx.raw(
      `with v(id, state, block_height, block_hash, settled_at) as (values ${part.map(() => '(?, ?, ?, ?, ?)').join(', ')})
      update tracked_txs set state = v.state, block_height = v.block_height, block_hash = v.block_hash, updated_at = ?, settled_at = coalesce(v.settled_at, tracked_txs.settled_at) from v where tracked_txs.id = v.id`,
      [...part.flatMap((r) => [r.id, r.state, r.block_height, r.block_hash, settled(r)]), now],
    );
  }
  await insertChanges(trx, history);
}

async function insertChanges(trx: Conn, rows: History[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await trx('tracked_tx_changes').insert(rows.slice(i, i + CHUNK).map((r) => ({ ...r, resubmitted: r.resubmitted ?? false })));
}

/** What a rollback may do for a project that asked for resubmission: the chain's submit, and the slot the chain is at (a transaction valid no longer is left out). */
export interface Resubmission {
  resubmit(cbor: Uint8Array): Promise<boolean>;
  slot: number | null;
}

/**
 * The blocks `abandoned` were dropped by a rollback: the transactions they held (landed or confirmed)
 * are rolled back, and those `inMempool` says are waiting again go back to pending. Of the others,
 * those whose project resubmits on rollback and whose validity has not ended are sent to the mempool
 * again with the CBOR kept at submit, and go back to pending as a resubmission. Answers the changes.
 * With `projectId`, the chain is that project's own (a devnet): only its transactions are looked at.
 */
export async function rollBackTracked(
  trx: Knex.Transaction,
  network: number,
  abandoned: string[],
  inMempool: (hashes: string[]) => Promise<Set<string>>,
  now = Date.now(),
  resubmission?: Resubmission,
  projectId?: number,
): Promise<TxChange[]> {
  if (abandoned.length === 0) return [];
  const rows: Row[] = [];
  for (let i = 0; i < abandoned.length; i += CHUNK) {
    rows.push(...(await trx('tracked_txs').where(projectId === undefined ? { network } : { network, project_id: projectId }).whereIn('state', ['in_block', 'confirmed']).whereIn('block_hash', abandoned.slice(i, i + CHUNK)).select('id', 'project_id', 'tx_hash', 'state', 'block_height', 'block_hash', 'ttl_slot', 'confirmations_needed')));
  }
  if (rows.length === 0) return [];
  const waiting = await inMempool([...new Set(rows.map((r) => r.tx_hash))]);
  const resubmitted = await resubmitRolledBack(trx, rows.filter((r) => !waiting.has(r.tx_hash)), resubmission);
  const changes: TxChange[] = [];
  const history: Array<{ tracked_id: number; state: TxState; block_height: number | null; block_hash: string | null; resubmitted?: boolean; at: number }> = [];
  for (const r of rows) {
    const base = { projectId: Number(r.project_id), network, txHash: r.tx_hash, blockHeight: null, blockHash: null, depth: 0, confirmationsNeeded: Number(r.confirmations_needed), at: now };
    changes.push({ ...base, from: r.state, state: 'rolled_back', blockHeight: r.block_height === null ? null : Number(r.block_height), blockHash: r.block_hash });
    history.push({ tracked_id: Number(r.id), state: 'rolled_back', block_height: r.block_height === null ? null : Number(r.block_height), block_hash: r.block_hash, at: now });
    const again = resubmitted.has(Number(r.id));
    if (waiting.has(r.tx_hash) || again) {
      changes.push({ ...base, from: 'rolled_back', state: 'pending' });
      history.push({ tracked_id: Number(r.id), state: 'pending', block_height: null, block_hash: null, ...(again ? { resubmitted: true } : {}), at: now });
    }
  }
  const isBack = (r: Row) => waiting.has(r.tx_hash) || resubmitted.has(Number(r.id));
  const back = rows.filter(isBack).map((r) => Number(r.id));
  const gone = rows.filter((r) => !isBack(r)).map((r) => Number(r.id));
  const cleared = { block_height: null, block_hash: null, updated_at: now, settled_at: null };
  if (gone.length > 0) await trx('tracked_txs').whereIn('id', gone).update({ ...cleared, state: 'rolled_back' });
  if (back.length > 0) await trx('tracked_txs').whereIn('id', back).update({ ...cleared, state: 'pending' });
  await insertChanges(trx, history);
  return changes;
}

/** Sends the rolled-back transactions of projects that resubmit, still valid and with their CBOR kept, to the mempool again; answers the ids it took. */
async function resubmitRolledBack(trx: Knex.Transaction, rows: Row[], resubmission: Resubmission | undefined): Promise<Set<number>> {
  const done = new Set<number>();
  if (!resubmission || rows.length === 0) return done;
  const { slot } = resubmission;
  const valid = rows.filter((r) => r.ttl_slot === null || slot === null || Number(r.ttl_slot) > slot);
  if (valid.length === 0) return done;
  const kept: Array<{ id: number; cbor: Buffer | null }> = await trx('tracked_txs')
    .join('projects', 'projects.id', 'tracked_txs.project_id')
    .whereIn('tracked_txs.id', valid.map((r) => Number(r.id)))
    .where('projects.tx_resubmit', true)
    .whereNotNull('tracked_txs.cbor')
    .select('tracked_txs.id', 'tracked_txs.cbor');
  for (const k of kept) {
    if (k.cbor && (await resubmission.resubmit(new Uint8Array(k.cbor)))) done.add(Number(k.id));
  }
  return done;
}
