import crypto from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { ChainFollower } from '../../server/features/webhooks/follower';
import type { ChainSource } from '../../server/features/webhooks/chain-source';
import type { Block } from '../../shared/chain';
import { createLogger } from '../../server/logger';

/** A chain we script: blocks by height, replaceable to simulate a rollback. */
class ScriptedChain implements ChainSource {
  blocks: Block[] = [];
  constructor(length: number) {
    for (let h = 0; h < length; h++) this.append();
  }
  append(tag = 'a', epoch?: number): Block {
    const h = this.blocks.length;
    const prev = this.blocks[h - 1];
    const block: Block = {
      time: 1_700_000_000 + h * 20,
      height: h,
      hash: crypto.createHash('sha256').update(`${tag}-${h}-${prev?.hash ?? ''}`).digest('hex'),
      slot: h * 20,
      epoch: epoch ?? Math.floor(h / 10),
      epoch_slot: 0,
      slot_leader: 'pool1' + 'x'.repeat(51),
      size: 1000 + h,
      tx_count: 0,
      output: null,
      fees: null,
      block_vrf: null,
      op_cert: null,
      op_cert_counter: null,
      previous_block: prev?.hash ?? null,
      next_block: null,
      confirmations: 0,
    };
    this.blocks.push(block);
    return block;
  }
  /** Replaces everything from `height` on with a different branch of `count` blocks. */
  fork(height: number, count: number) {
    this.blocks.length = height;
    for (let i = 0; i < count; i++) this.append('b');
  }
  tipHeight = async () => this.blocks.length - 1;
  blockAt = async (h: number) => this.blocks[h] ?? null;
  blockTxDetails = async () => [];
  epoch = async (n: number) => ({ epoch: n, start_time: n * 200, end_time: n * 200 + 200, first_block_time: 0, last_block_time: 0, block_count: 10, tx_count: 0, output: '0', fees: '0', active_stake: null });
  epochStart = async (n: number) => ({ epoch: n, start_time: n * 200, end_time: n * 200 + 200 });
}

const app = useTestApp();
let ws: number;
const logger = createLogger('silent');

async function hook(type: string, confirmations: number) {
  const id = crypto.randomUUID();
  const now = Date.now();
  await app.db('webhooks').insert({ id, workspace_id: ws, name: type, network: 0, type, target_url: 'http://127.0.0.1:9/x', confirmations, status: 'enabled', conditions: '[]', auth_token: 'x'.repeat(64), created_at: now, updated_at: now });
  return id;
}
const heightsFor = async (webhookId: string, status = 'pending') =>
  (await app.db('webhook_events').where({ webhook_id: webhookId, status }).orderBy('block_height').pluck('block_height')).map(Number);

beforeAll(async () => {
  const user = await makeUser(app.db, 'follower@example.com', 'ENTERPRISE');
  ws = await makeWorkspace(app.db, user.id, []);
});
beforeEach(async () => {
  await app.db('webhooks').delete();
  await app.db('chain_cursors').delete();
  await app.db('chain_blocks').delete();
});

describe('chain follower', () => {
  it('starts at the tip, then follows blocks in order', async () => {
    const chain = new ScriptedChain(5);
    const id = await hook('block', 0);
    const f = new ChainFollower(app.db, logger, chain, { network: 0 });
    await f.tick();
    expect(await heightsFor(id)).toEqual([]);
    chain.append();
    chain.append();
    await f.tick();
    expect(await heightsFor(id)).toEqual([5, 6]);
  });

  it("hands up to its dispatcher's capacity of a write's events to it, written claimed, and tells onEvents only of the rest", async () => {
    const chain = new ScriptedChain(5);
    const hooks = [await hook('block', 0), await hook('block', 0), await hook('block', 0)];
    const taken: Array<{ id: string; webhook_id: string; body: string | Buffer; attempts: number }> = [];
    const told: number[] = [];
    let capacity = 2;
    const f = new ChainFollower(app.db, logger, chain, {
      network: 0,
      handOff: { capacity: () => ({ count: capacity, leaseMs: 60_000 }), take: (events) => taken.push(...events) },
      onEvents: (count) => told.push(count),
    });
    await f.tick();
    chain.append();
    const before = Date.now();
    await f.tick();
    // One block, three webhooks: three events, two handed off as the dispatcher needs them.
    expect(taken).toHaveLength(2);
    expect(told).toEqual([1]);
    const rows = await app.db('webhook_events').whereIn('webhook_id', hooks).select('id', 'body', 'claimed_until');
    expect(rows).toHaveLength(3);
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    for (const e of taken) {
      expect(e.attempts).toBe(0);
      // The bytes handed off are the text written.
      expect(e.body.toString('utf8')).toBe(byId.get(e.id)!.body);
      expect(JSON.parse(e.body.toString('utf8'))).toMatchObject({ id: e.id, webhook_id: e.webhook_id, type: 'block' });
      expect(Number(byId.get(e.id)!.claimed_until)).toBeGreaterThanOrEqual(before + 60_000);
    }
    expect(rows.filter((r) => r.claimed_until === null)).toHaveLength(1);
    // A dispatcher with no room (busy or stopping): everything is left to the lanes.
    capacity = 0;
    chain.append();
    await f.tick();
    expect(taken).toHaveLength(2);
    expect(told).toEqual([1, 3]);
  });

  it('hands its events over as soon as it holds the cursor, with their targets, and says once the write committed', async () => {
    const chain = new ScriptedChain(5);
    const id = await hook('block', 0);
    const handed: Array<{ ids: string[]; targets: Promise<Map<string, { target_url: string | null }>>; committed: Promise<boolean>; atTake?: string }> = [];
    const f = new ChainFollower(app.db, logger, chain, {
      network: 0,
      handOff: {
        capacity: () => ({ count: 10, leaseMs: 60_000 }),
        take: (events, targets, committed) => {
          const entry: (typeof handed)[number] = { ids: events.map((e) => e.id), targets, committed };
          void Promise.race([committed.then(() => 'settled'), Promise.resolve('pending')]).then((state) => (entry.atTake = state));
          handed.push(entry);
        },
      },
    });
    await f.tick();
    chain.append();
    await f.tick();
    expect(handed).toHaveLength(1);
    const [h] = handed as [(typeof handed)[number]];
    // Handed over inside the write: the commit came after.
    expect(h.atTake).toBe('pending');
    expect(await h.committed).toBe(true);
    expect((await h.targets).get(id)?.target_url).toBe('http://127.0.0.1:9/x');
    expect(await app.db('webhook_events').whereIn('id', h.ids).pluck('id')).toEqual(h.ids);
  });

  it('gives the events of a block matched again the same ids, and brings those a rollback cancelled back when their block returns', async () => {
    const chain = new ScriptedChain(5);
    const id = await hook('block', 0);
    const f = new ChainFollower(app.db, logger, chain, { network: 0 });
    await f.tick();
    chain.append();
    chain.append();
    const cursor = await app.db('chain_cursors').where({ network: 0, confirmations: 0 }).first();
    const events = async () => app.db('webhook_events').where({ webhook_id: id }).orderBy('block_height').select('id', 'block_height', 'status');
    await f.tick();
    const first = await events();
    expect(first.map((e) => Number(e.block_height))).toEqual([5, 6]);
    // As if that write had not committed (its worker died after sending): the cursor as it was, no events.
    await app.db('webhook_events').where({ webhook_id: id }).delete();
    await app.db('chain_cursors').where({ network: 0, confirmations: 0 }).update({ height: cursor.height, hash: cursor.hash, epoch: cursor.epoch });
    await new ChainFollower(app.db, logger, chain, { network: 0 }).tick();
    expect((await events()).map((e) => e.id)).toEqual(first.map((e) => e.id));
    // Block 6 is rolled back (its event cancelled), then the chain comes back to it.
    const original = [...chain.blocks];
    chain.fork(6, 2);
    await f.tick();
    expect((await events()).find((e) => e.id === first[1]!.id)?.status).toBe('cancelled');
    chain.blocks = original;
    chain.append();
    chain.append();
    chain.append();
    await f.tick();
    const back = await events();
    expect(back.find((e) => e.id === first[1]!.id)?.status).toBe('pending');
    expect(back.filter((e) => e.status === 'pending').map((e) => Number(e.block_height))).toEqual([5, 6, 7, 8, 9]);
  });

  it('tells onEvents how many events each write committed, once they are in the outbox', async () => {
    const chain = new ScriptedChain(5);
    const a = await hook('block', 0);
    const b = await hook('block', 0);
    const told: Array<{ count: number; inOutbox: number }> = [];
    const f = new ChainFollower(app.db, logger, chain, {
      network: 0,
      onEvents: (count) => {
        // Counted synchronously when told: the events must be committed already (SQLite's single connection is free again).
        void app.db('webhook_events').whereIn('webhook_id', [a, b]).count({ n: '*' }).then(([r]) => told.push({ count, inOutbox: Number(r!.n) }));
      },
    });
    await f.tick();
    await f.tick();
    chain.append();
    chain.append();
    await f.tick();
    // Near the tip each block with events is written as soon as it is matched.
    await vi.waitFor(() => expect(told.map((t) => t.count)).toEqual([2, 2]));
    // Each write's events were in the outbox when it was told (the second write may have followed by then).
    expect(told[0]!.inOutbox).toBeGreaterThanOrEqual(2);
    expect(told[1]!.inOutbox).toBe(4);
  });

  it('reads the webhooks in full only when their summary changed (added, disabled or updated ones)', async () => {
    const chain = new ScriptedChain(5);
    const a = await hook('block', 0);
    const f = new ChainFollower(app.db, logger, chain, { network: 0 });
    const fullReads = async (work: () => Promise<void>) => {
      const statements: string[] = [];
      const count = (q: { sql: string }) => statements.push(q.sql.toLowerCase());
      app.db.on('query', count);
      try {
        await work();
      } finally {
        app.db.off('query', count);
      }
      return statements.filter((q) => q.includes('"conditions"') || q.includes('`conditions`')).length;
    };
    expect(await fullReads(() => f.tick())).toBe(1);
    chain.append();
    expect(await fullReads(() => f.tick())).toBe(0);
    // Added: read again, and the new webhook gets the next block.
    const b = await hook('block', 0);
    chain.append();
    expect(await fullReads(() => f.tick())).toBe(1);
    // Updated (conditions, type, confirmations and status changes all set updated_at): read again.
    await app.db('webhooks').where({ id: b }).update({ type: 'transaction', updated_at: Date.now() + 1000 });
    chain.append();
    expect(await fullReads(() => f.tick())).toBe(1);
    chain.append();
    expect(await fullReads(() => f.tick())).toBe(0);
    expect(await heightsFor(a)).toEqual([5, 6, 7, 8]);
    expect(await heightsFor(b)).toEqual([6]);
  });

  it('does nothing on a tick while another worker leads its network', async () => {
    const chain = new ScriptedChain(5);
    const id = await hook('block', 0);
    let leads = false;
    const f = new ChainFollower(app.db, logger, chain, { network: 0, leads: async () => leads });
    await f.tick();
    expect(await app.db('chain_cursors').where({ network: 0 }).count({ n: '*' }).first()).toMatchObject({ n: 0 });
    leads = true;
    await f.tick();
    chain.append();
    await f.tick();
    expect(await heightsFor(id)).toEqual([5]);
  });

  it('writes each block once when two followers of one network tick at once (two workers)', async () => {
    const chain = new ScriptedChain(5);
    const id = await hook('block', 0);
    const quiet = createLogger('silent');
    const one = new ChainFollower(app.db, quiet, chain, { network: 0 });
    const two = new ChainFollower(app.db, quiet, chain, { network: 0 });
    await one.tick();
    for (let round = 0; round < 5; round++) {
      chain.append();
      chain.append();
      // The follower that finds the cursor moved drops its work (its tick fails and is retried on the next one).
      await Promise.allSettled([one.tick(), two.tick()]);
    }
    await one.tick();
    expect(await heightsFor(id)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  });

  it('holds events until the required confirmations are reached', async () => {
    const chain = new ScriptedChain(5);
    const zero = await hook('block', 0);
    const three = await hook('block', 3);
    const f = new ChainFollower(app.db, logger, chain, { network: 0 });
    await f.tick();
    chain.append(); // height 5
    await f.tick();
    expect(await heightsFor(zero)).toEqual([5]);
    // The depth-3 cursor started at tip − 3 = 1; with the tip at 5, block 2 has its 3 confirmations, block 5 does not.
    expect(await heightsFor(three)).toEqual([2]);
    chain.append();
    chain.append();
    chain.append(); // height 8: block 5 has 3 confirmations
    await f.tick();
    expect(await heightsFor(zero)).toEqual([5, 6, 7, 8]);
    expect(await heightsFor(three)).toEqual([2, 3, 4, 5]);
  });

  it('resumes from its stored cursor after a restart, without losing or repeating events', async () => {
    const chain = new ScriptedChain(5);
    const id = await hook('block', 0);
    await new ChainFollower(app.db, logger, chain, { network: 0 }).tick();
    chain.append();
    await new ChainFollower(app.db, logger, chain, { network: 0 }).tick();
    chain.append();
    chain.append();
    // A new follower object, as after a process restart.
    await new ChainFollower(app.db, logger, chain, { network: 0 }).tick();
    expect(await heightsFor(id)).toEqual([5, 6, 7]);
  });

  it('detects a rollback, cancels what was abandoned and emits the new blocks', async () => {
    const chain = new ScriptedChain(5);
    const id = await hook('block', 0);
    const f = new ChainFollower(app.db, logger, chain, { network: 0 });
    await f.tick();
    chain.append();
    chain.append();
    chain.append(); // 5, 6, 7 on branch a
    await f.tick();
    const before = await app.db('webhook_events').where({ webhook_id: id }).orderBy('block_height').select('block_height', 'block_hash');
    expect(before.map((e) => Number(e.block_height))).toEqual([5, 6, 7]);
    chain.fork(6, 3); // 6, 7, 8 now on branch b
    await f.tick();
    const cancelled = await app.db('webhook_events').where({ webhook_id: id, status: 'cancelled' }).pluck('block_hash');
    expect(cancelled.sort()).toEqual([before[1].block_hash, before[2].block_hash].sort());
    const pending = await app.db('webhook_events').where({ webhook_id: id, status: 'pending' }).orderBy('block_height').select('block_height', 'block_hash');
    expect(pending.map((e) => Number(e.block_height))).toEqual([5, 6, 7, 8]);
    expect(pending.slice(1).map((e) => e.block_hash)).toEqual([chain.blocks[6]!.hash, chain.blocks[7]!.hash, chain.blocks[8]!.hash]);
  });

  it('fires epoch events at the epoch switch only', async () => {
    const chain = new ScriptedChain(8); // epoch 0 is heights 0-9
    const id = await hook('epoch', 0);
    const f = new ChainFollower(app.db, logger, chain, { network: 0 });
    await f.tick();
    for (let i = 0; i < 5; i++) chain.append(); // heights 8..12, the switch at 10
    await f.tick();
    const events = await app.db('webhook_events').where({ webhook_id: id });
    expect(events).toHaveLength(1);
    expect(Number(events[0].block_height)).toBe(10);
    expect(JSON.parse(events[0].body).payload).toEqual({ previous_epoch: expect.objectContaining({ epoch: 0 }), current_epoch: { epoch: 1, start_time: 200, end_time: 400 } });
  });

  it('forgets the cursor of a depth nobody uses, so a new webhook starts at the tip', async () => {
    const chain = new ScriptedChain(5);
    const id = await hook('block', 0);
    const f = new ChainFollower(app.db, logger, chain, { network: 0 });
    await f.tick();
    await app.db('webhooks').where({ id }).update({ status: 'disabled' });
    await f.tick();
    expect(await app.db('chain_cursors').count({ n: '*' })).toEqual([{ n: 0 }]);
    for (let i = 0; i < 20; i++) chain.append();
    const later = await hook('block', 0);
    await f.tick();
    chain.append();
    await f.tick();
    expect(await heightsFor(later)).toEqual([25]);
  });

  it('writes a tick that catches up on many blocks in a few transactions, not one per block', async () => {
    const chain = new ScriptedChain(5);
    const id = await hook('block', 0);
    const f = new ChainFollower(app.db, logger, chain, { network: 0 });
    await f.tick();
    await f.tick();
    for (let i = 0; i < 40; i++) chain.append();
    const statements: string[] = [];
    const count = (q: { sql: string }) => statements.push(q.sql.toLowerCase());
    app.db.on('query', count);
    try {
      await f.tick();
    } finally {
      app.db.off('query', count);
    }
    expect(await heightsFor(id)).toEqual(Array.from({ length: 40 }, (_, i) => i + 5));
    expect(Number((await app.db('chain_cursors').where({ network: 0, confirmations: 0 }).first('height'))?.height)).toBe(44);
    // Blocks 5–42 in one transaction; the last two, near the tip, each as soon as it was matched. The
    // tick's statements do not grow with the blocks.
    expect(statements.filter((s) => s.startsWith('update') && s.includes('chain_cursors'))).toHaveLength(3);
    expect(statements.filter((s) => s.startsWith('begin'))).toHaveLength(3);
    expect(statements.length).toBeLessThan(25);
  });
});
