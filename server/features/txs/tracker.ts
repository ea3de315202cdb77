// Advances tracked transactions as the chain follower writes blocks at the tip, in the follower's
// own transaction (so a restart neither loses nor repeats a change). What it costs follows the
// blocks' transactions, not the number tracked, and it adds few round trips to the follower's
// transaction, which holds the cursor meanwhile: per batch of blocks one read finds, each part on an
// index of its own, those the blocks include, those now deep enough and those past their validity;
// one write sets their new states and records the changes. On PostgreSQL the read and the write are
// one statement (one round trip); on SQLite, in process, a read, an update and an insert.
import type { Knex } from 'knex';
import { isPostgres } from '../../db/index';
import type { Conn, TxChange } from './store';
import { settledTxStates, type TxState } from '../../../shared/txs';
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
 * The tracked transactions a batch of blocks may change (SQLite), in one statement of three reads,
 * each on an index of its own so none walks the pending transactions: those the blocks include
 * (network, tx_hash; the hashes as one JSON parameter), the landed ones now deep enough (network,
 * state), and the unlanded ones past their validity (network, state, ttl_slot).
 */
async function candidates(trx: Conn, { scope, hashes, tip, lastSlot }: Reach): Promise<Row[]> {
  const inScope = scope.project_id === undefined ? 'network = ?' : 'network = ? and project_id = ?';
  const scopeArgs = scope.project_id === undefined ? [scope.network] : [scope.network, scope.project_id];
  const cols = COLUMNS.join(', ');
  const unlanded = OPEN_UNLANDED.map(() => '?').join(', ');
  // The state of the hash read is checked below, not in SQL: with it the planner may prefer (network, state) and walk every pending row.
  const read = (await trx.raw(
    `select ${cols} from tracked_txs where ${inScope} and tx_hash in (select value from json_each(?))
    union all select ${cols} from tracked_txs where ${inScope} and state = 'in_block' and block_height + confirmations_needed - 1 <= ?
    union all select ${cols} from tracked_txs where ${inScope} and state in (${unlanded}) and ttl_slot <= ?`,
    [...scopeArgs, JSON.stringify(hashes), ...scopeArgs, tip, ...scopeArgs, ...OPEN_UNLANDED, lastSlot],
  )) as Row[];
  const unique = new Map<number, Row>();
  for (const r of read) {
    const row: Row = { ...r, id: Number(r.id), project_id: Number(r.project_id), block_height: r.block_height === null ? null : Number(r.block_height), ttl_slot: r.ttl_slot === null ? null : Number(r.ttl_slot), confirmations_needed: Number(r.confirmations_needed) };
    // The hash read's rows in any other state (already landed and not yet deep enough, settled) are not the blocks' to change.
    if (OPEN_UNLANDED.includes(row.state) || (row.state === 'in_block' && row.block_height !== null && row.block_height + row.confirmations_needed - 1 <= tip)) unique.set(row.id, row);
  }
  // In the order of the rows, as PostgreSQL's statement answers them.
  return [...unique.values()].sort((a, b) => a.id - b.id);
}

/**
 * Blocks `blocks` (consecutive, the last one the tip followed) were written: the pending and rolled
 * back transactions they include land (in_block), those with enough blocks on top are confirmed, and
 * those whose validity ended at a block that left them out expire. Answers the changes made. With
 * `projectId`, the blocks are that project's own chain (a devnet): only its transactions are looked at.
 */
export async function advanceTracked(trx: Knex.Transaction, network: number, blocks: FollowedBlock[], now = Date.now(), projectId?: number): Promise<TxChange[]> {
  if (blocks.length === 0) return [];
  const { reach, landedIn } = reachOf(network, blocks, projectId);
  const { lastSlot, tip } = reach;
  if (isPostgres(trx)) return advanceOnPostgres(trx, reach, landedIn, now);
  const rows = await candidates(trx, reach);
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

/** What a batch of blocks reaches, and which of them holds each transaction hash. */
function reachOf(network: number, blocks: FollowedBlock[], projectId?: number): { reach: Reach; landedIn: Map<string, FollowedBlock> } {
  const tip = blocks.at(-1)!.height;
  const landedIn = new Map<string, FollowedBlock>();
  for (const b of blocks) for (const h of b.txHashes ?? []) landedIn.set(h, b);
  const slots = blocks.map((b) => b.slot).filter((s): s is number => s !== null);
  const lastSlot = slots.length > 0 ? Math.max(...slots) : null;
  // A devnet's blocks are its project's own chain: only that project's transactions are looked at.
  const scope = projectId === undefined ? { network } : { network, project_id: projectId };
  return { reach: { scope, hashes: [...landedIn.keys()], tip, lastSlot }, landedIn };
}

/**
 * Whether advanceTracked may change anything for these blocks (SQLite): its read, alone and outside
 * any transaction. False means it would change nothing, so the follower may move its cursor without
 * a transaction; true, that it runs advanceTracked in one (which reads again).
 */
export async function mayAdvanceTracked(db: Conn, network: number, blocks: FollowedBlock[], projectId?: number): Promise<boolean> {
  if (blocks.length === 0) return false;
  return (await candidates(db, reachOf(network, blocks, projectId).reach)).length > 0;
}

/**
 * advanceTracked on PostgreSQL in one statement, so the follower's transaction waits for one round
 * trip rather than a read and a write: the same three reads (the hash read first and alone, so the
 * planner probes (network, tx_hash) rather than walking every pending row by state), each row's
 * changes in order (landed, landed and confirmed at once, confirmed, expired), its last state
 * written, the changes recorded, and answered, ordered by row and step. The hashes go as text joined
 * by commas (hex never holds one), each block's hash once with each transaction's block by number:
 * a few hundred hashes a block cost the driver and the server less as one string than as array
 * literals, and the block's hash is not repeated for each of its transactions.
 */
async function advanceOnPostgres(trx: Knex.Transaction, { scope, hashes, tip, lastSlot }: Reach, landedIn: Map<string, FollowedBlock>, now: number): Promise<TxChange[]> {
  const inScope = scope.project_id === undefined ? 'network = ?' : 'network = ? and project_id = ?';
  const scopeArgs = scope.project_id === undefined ? [scope.network] : [scope.network, scope.project_id];
  const cols = 'id, project_id, tx_hash, state, block_height, block_hash, confirmations_needed';
  const blocks = [...new Set(landedIn.values())];
  const blockNumber = new Map(blocks.map((b, i) => [b, i + 1]));
  const { rows } = (await trx.raw(
    `with k as (select * from unnest(string_to_array(?, ','), string_to_array(?, ',')::bigint[]) with ordinality as k(hash, height, n)),
      b as materialized (select t.tx_hash, k.height, k.hash from unnest(string_to_array(?, ','), string_to_array(?, ',')::bigint[]) as t(tx_hash, n) join k using (n)),
      hit as materialized (select ${cols} from tracked_txs where ${inScope} and tx_hash = any(array(select tx_hash from b))),
      c as (
        select distinct on (id) * from (
          select h.*, b.height as land_height, b.hash as land_hash
            from hit h join b on b.tx_hash = h.tx_hash
            where h.state = any(?::text[])
          union all
          select ${cols}, null, null from tracked_txs where ${inScope} and state = 'in_block' and block_height + confirmations_needed - 1 <= ?
          union all
          select ${cols}, null, null from tracked_txs where ${inScope} and state = any(?::text[]) and ttl_slot <= ?
        ) found order by id, land_height nulls last
      ),
      steps as (
        select id, project_id, tx_hash, confirmations_needed, 1 as step, state as from_state, 'in_block' as state, land_height as block_height, land_hash as block_hash from c where land_height is not null
        union all
        select id, project_id, tx_hash, confirmations_needed, 2, 'in_block', 'confirmed', land_height, land_hash from c where land_height is not null and land_height + confirmations_needed - 1 <= ?
        union all
        select id, project_id, tx_hash, confirmations_needed, 1, state, case when state = 'in_block' then 'confirmed' else 'expired' end,
            case when state = 'in_block' then block_height end, case when state = 'in_block' then block_hash end from c where land_height is null
      ),
      last as (select distinct on (id) id, state, block_height, block_hash from steps order by id, step desc),
      u as (
        update tracked_txs t set state = l.state, block_height = l.block_height, block_hash = l.block_hash, updated_at = ?,
          settled_at = case when l.state = any(?::text[]) then ? else t.settled_at end
        from last l where t.id = l.id
      ),
      i as (insert into tracked_tx_changes (tracked_id, state, block_height, block_hash, resubmitted, at) select id, state, block_height, block_hash, false, ? from steps order by id, step)
    select * from steps order by id, step`,
    [
      blocks.map((b) => b.hash).join(','), blocks.map((b) => b.height).join(','),
      hashes.join(','), hashes.map((h) => blockNumber.get(landedIn.get(h)!)!).join(','),
      ...scopeArgs, OPEN_UNLANDED,
      ...scopeArgs, tip,
      ...scopeArgs, OPEN_UNLANDED, lastSlot,
      tip,
      now, settledTxStates, now,
      now,
    ] as Knex.RawBinding[],
  )) as { rows: Array<{ project_id: number; tx_hash: string; confirmations_needed: number; from_state: TxState; state: TxState; block_height: string | number | null; block_hash: string | null }> };
  return rows.map((r) => {
    const blockHeight = r.block_height === null ? null : Number(r.block_height);
    return { projectId: Number(r.project_id), network: scope.network, txHash: r.tx_hash, from: r.from_state, state: r.state, blockHeight, blockHash: r.block_hash, depth: blockHeight === null ? 0 : tip - blockHeight + 1, confirmationsNeeded: Number(r.confirmations_needed), at: now };
  });
}

/**
 * Sets each row's new state (with its block, and settled_at when the state is settled) and records
 * the changes (SQLite): one update of the rows as a VALUES list per CHUNK of them, and the changes' inserts.
 */
async function writeAdvances(trx: Knex.Transaction, rows: Row[], history: History[], now: number): Promise<void> {
  if (rows.length === 0) return;
  const settled = (r: Row) => (isSettled(r.state) ? now : null);
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
