import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db-template';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { advanceTracked, type FollowedBlock, type TxChange } from '../../server/features/txs/index';
import type { TxState } from '../../shared/txs';

// The tracker's step for a batch of followed blocks, on the suite's engine (PostgreSQL answers it in
// one statement, SQLite in a read and a write): which rows change, to what, with which block, in
// which order, what the rows and their histories hold after, and what it leaves alone.

const NETWORK = 3;
const NOW = Date.UTC(2026, 10, 30, 12);
let database: TestDatabase;
let projectA: number;
let projectB: number;

const hash = (n: number) => n.toString(16).padStart(64, '0');
const block = (height: number, txs: number[], slot = 5000 + height): FollowedBlock => ({ height, hash: hash(1_000_000 + height), slot, txHashes: txs.map(hash) });

async function track(projectId: number, n: number, state: TxState, extra: { confirmations?: number; ttlSlot?: number | null; blockHeight?: number; network?: number } = {}): Promise<number> {
  const [row] = await database
    .db('tracked_txs')
    .insert({
      project_id: projectId,
      network: extra.network ?? NETWORK,
      tx_hash: hash(n),
      state,
      ttl_slot: extra.ttlSlot ?? null,
      confirmations_needed: extra.confirmations ?? 3,
      block_height: extra.blockHeight ?? null,
      block_hash: extra.blockHeight === undefined ? null : hash(1_000_000 + extra.blockHeight),
      submitted_at: NOW - 60_000,
      updated_at: NOW - 60_000,
    })
    .returning('id');
  return Number(typeof row === 'object' ? row.id : row);
}

const advance = (blocks: FollowedBlock[], projectId?: number) => database.db.transaction((trx) => advanceTracked(trx, NETWORK, blocks, NOW, projectId));
const brief = (changes: TxChange[]) => changes.map((c) => [Number.parseInt(c.txHash, 16), c.from, c.state, c.blockHeight, c.depth]);
const rowOf = (n: number, projectId = projectA) => database.db('tracked_txs').where({ project_id: projectId, tx_hash: hash(n) }).first('state', 'block_height', 'block_hash', 'updated_at', 'settled_at');
const historyOf = async (n: number, projectId = projectA) => {
  const row = await database.db('tracked_txs').where({ project_id: projectId, tx_hash: hash(n) }).first('id');
  const rows = await database.db('tracked_tx_changes').where({ tracked_id: row.id }).orderBy('id').select('state', 'block_height', 'at');
  return rows.map((r) => [r.state, r.block_height === null ? null : Number(r.block_height), Number(r.at)]);
};

beforeAll(async () => {
  database = await freshDatabase(inject('dbTemplate'));
  const user = await makeUser(database.db, 'tracker@example.com');
  const ws = await makeWorkspace(database.db, user.id, []);
  const idOf = async (uuid: string) => Number((await database.db('projects').where({ uuid }).first('id')).id);
  projectA = await idOf(await makeProject(database.db, ws, 'A', 6));
  projectB = await idOf(await makeProject(database.db, ws, 'B', 6));
});
beforeEach(async () => {
  await database.db('tracked_txs').delete();
});
afterAll(async () => {
  await database?.drop();
});

describe('advancing tracked transactions', () => {
  it('lands, confirms at once when one block is enough, confirms the deep ones, expires the lapsed ones and leaves the rest', async () => {
    await track(projectA, 1, 'pending');
    await track(projectA, 2, 'rolled_back', { confirmations: 1 });
    await track(projectA, 3, 'in_block', { blockHeight: 98 });
    await track(projectA, 4, 'in_block', { blockHeight: 99 });
    await track(projectA, 5, 'pending', { ttlSlot: 5100 });
    // Its validity ended too, but the block holds it: it lands.
    await track(projectA, 6, 'pending', { ttlSlot: 5000 });
    await track(projectA, 7, 'pending', { ttlSlot: 5200 });
    await track(projectA, 8, 'confirmed', { blockHeight: 90 });
    await track(projectA, 9, 'expired');
    await track(projectA, 10, 'pending', { network: 4 });
    const changes = await advance([block(100, [1, 2, 6, 8, 9, 10, 11])]);
    expect(brief(changes)).toEqual([
      [1, 'pending', 'in_block', 100, 1],
      [2, 'rolled_back', 'in_block', 100, 1],
      [2, 'in_block', 'confirmed', 100, 1],
      [3, 'in_block', 'confirmed', 98, 3],
      [5, 'pending', 'expired', null, 0],
      [6, 'pending', 'in_block', 100, 1],
    ]);
    expect(changes.every((c) => c.projectId === projectA && c.network === NETWORK && c.at === NOW)).toBe(true);
    expect(changes.find((c) => c.txHash === hash(3))).toMatchObject({ blockHash: hash(1_000_098), confirmationsNeeded: 3 });
    expect(await rowOf(1)).toMatchObject({ state: 'in_block', block_hash: hash(1_000_100) });
    expect(Number((await rowOf(1)).block_height)).toBe(100);
    expect(await rowOf(2)).toMatchObject({ state: 'confirmed' });
    expect(Number((await rowOf(2)).settled_at)).toBe(NOW);
    expect(await rowOf(3)).toMatchObject({ state: 'confirmed', block_hash: hash(1_000_098) });
    expect(await rowOf(4)).toMatchObject({ state: 'in_block' });
    expect(Number((await rowOf(4)).updated_at)).toBe(NOW - 60_000);
    expect(await rowOf(5)).toMatchObject({ state: 'expired', block_height: null });
    expect(Number((await rowOf(5)).settled_at)).toBe(NOW);
    expect((await rowOf(1)).settled_at).toBeNull();
    expect(await rowOf(7)).toMatchObject({ state: 'pending' });
    expect(await rowOf(8)).toMatchObject({ state: 'confirmed' });
    expect(await rowOf(9)).toMatchObject({ state: 'expired' });
    expect(await database.db('tracked_txs').where({ tx_hash: hash(10) }).first('state')).toEqual({ state: 'pending' });
    expect(await historyOf(2)).toEqual([
      ['in_block', 100, NOW],
      ['confirmed', 100, NOW],
    ]);
    expect(await historyOf(5)).toEqual([['expired', null, NOW]]);
    expect(await historyOf(7)).toEqual([]);
  });

  it('lands each transaction in the block of the batch that holds it, and confirms it once the batch is deep enough', async () => {
    await track(projectA, 1, 'pending', { confirmations: 2 });
    await track(projectA, 2, 'pending', { confirmations: 5 });
    const changes = await advance([block(200, [1]), block(201, [2]), block(202, [])]);
    expect(brief(changes)).toEqual([
      [1, 'pending', 'in_block', 200, 3],
      [1, 'in_block', 'confirmed', 200, 3],
      [2, 'pending', 'in_block', 201, 2],
    ]);
    expect(await advance([block(203, [])])).toEqual([]);
    expect(brief(await advance([block(204, []), block(205, [])]))).toEqual([[2, 'in_block', 'confirmed', 201, 5]]);
  });

  it("on a project's own chain (a devnet) changes only that project's transactions", async () => {
    await track(projectA, 1, 'pending');
    await track(projectB, 1, 'pending');
    await track(projectB, 2, 'in_block', { blockHeight: 10 });
    const changes = await advance([block(300, [1])], projectB);
    expect(changes.map((c) => [c.projectId, Number.parseInt(c.txHash, 16), c.state])).toEqual([
      [projectB, 1, 'in_block'],
      [projectB, 2, 'confirmed'],
    ]);
    expect(await rowOf(1, projectA)).toMatchObject({ state: 'pending' });
    expect(await rowOf(1, projectB)).toMatchObject({ state: 'in_block' });
  });

  it('answers nothing and writes nothing when no block holds, deepens or outlives a tracked transaction', async () => {
    await track(projectA, 1, 'pending', { ttlSlot: 9_999 });
    expect(await advance([block(400, [2, 3])])).toEqual([]);
    expect(await advance([])).toEqual([]);
    expect(await historyOf(1)).toEqual([]);
  });
});
