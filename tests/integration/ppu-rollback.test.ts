import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { createOrder, ppuBalance, ppuSettings } from '../../server/features/ppu/ppu';
import { watchTick } from '../../server/features/ppu/watcher';
import type { ChainSource } from '../../server/features/webhooks/chain-source';
import type { Block, TxDetails } from '../../shared/chain';

/** A chain whose blocks the test rewrites, behind the follower's ChainSource interface (an upstream's rollbacks cannot be caused from here). */
function fakeChain() {
  const blocks = new Map<number, { hash: string; txs: TxDetails[] }>();
  const source: ChainSource = {
    tipHeight: async () => Math.max(...blocks.keys()),
    blockAt: async (h) => {
      const b = blocks.get(h);
      return b ? ({ height: h, hash: b.hash, tx_count: b.txs.length } as Block) : null;
    },
    blockTxDetails: async (hash) => [...blocks.values()].find((b) => b.hash === hash)?.txs ?? [],
    epoch: async () => null,
    epochStart: async () => null,
  };
  const set = (h: number, hash: string, txs: TxDetails[] = []) => blocks.set(h, { hash: hash.padEnd(64, '0'), txs });
  return { source, set, drop: (h: number) => blocks.delete(h) };
}
const payment = (txHash: string, address: string, lovelace: string) =>
  ({ tx: { hash: txHash.padEnd(64, 'f') }, inputs: [], outputs: [{ address, output_index: 0, amount: [{ unit: 'lovelace', quantity: lovelace }] }], delegations: [] }) as unknown as TxDetails;

describe('the payment watcher across a rollback', () => {
  const app = useTestApp();

  it('reverses a credit whose payment was rolled back, and credits it once when the chain takes it again', async () => {
    const owner = await makeUser(app.db, 'ppu-rollback@example.com');
    const ws = await makeWorkspace(app.db, owner.id, []);
    const settings = ppuSettings(app.config);
    const order = await createOrder(app.db, settings, { workspaceId: ws, userId: owner.id, requests: 1_000_000 }, { tip: null, canSimulate: false, requiredConfirmations: 2 });
    const chain = fakeChain();
    const opts = { network: order.network, confirmations: 2 };
    for (let h = 0; h <= 2; h++) chain.set(h, `a${h}`);
    await watchTick(app.db, chain.source, opts);
    chain.set(3, 'a3', [payment('aa', order.address, order.lovelace)]);
    chain.set(4, 'a4');
    expect((await watchTick(app.db, chain.source, opts)).credited).toBe(1);
    expect(await ppuBalance(app.db, ws)).toEqual({ active: true, requests: 1_000_000 });

    // Blocks 3 and 4 are replaced: the payment is not in the chain any more.
    chain.set(3, 'b3');
    chain.set(4, 'b4');
    chain.set(5, 'b5');
    const undone = await watchTick(app.db, chain.source, opts);
    expect(undone.reversed).toBe(1);
    expect(await ppuBalance(app.db, ws)).toEqual({ active: false, requests: 0 });
    const back = await app.db('ppu_orders').where({ id: order.id }).first();
    expect([back.status, Number(back.credited_requests), Number(back.received_lovelace)]).toEqual(['awaiting_payment', 0, 0]);

    // The chain takes the same transaction again in block 6: credited again, once.
    chain.set(6, 'b6', [payment('aa', order.address, order.lovelace)]);
    chain.set(7, 'b7');
    expect((await watchTick(app.db, chain.source, opts)).credited).toBe(1);
    expect((await watchTick(app.db, chain.source, opts)).credited).toBe(0);
    expect(await ppuBalance(app.db, ws)).toEqual({ active: true, requests: 1_000_000 });
    const logs = await app.db('subscription_logs').where({ user_id: owner.id, type: 'ppu_order' }).orderBy('id');
    expect(logs.map((l: { reference: string }) => l.reference)).toEqual(['aa'.padEnd(64, 'f'), `rollback of order ${order.id}`, 'aa'.padEnd(64, 'f')]);
  });
  it('moves its cursor past blocks that pay nothing once per pass, and with a paying block at once', async () => {
    const owner = await makeUser(app.db, 'ppu-cursor@example.com');
    const ws = await makeWorkspace(app.db, owner.id, []);
    const order = await createOrder(app.db, ppuSettings(app.config), { workspaceId: ws, userId: owner.id, requests: 1_000_000 }, { tip: null, canSimulate: false, requiredConfirmations: 2 });
    await app.db('ppu_watch_cursors').delete();
    const chain = fakeChain();
    const opts = { network: order.network, confirmations: 2 };
    for (let h = 0; h <= 2; h++) chain.set(h, `c${h}x`);
    await watchTick(app.db, chain.source, opts);
    for (let h = 3; h <= 40; h++) chain.set(h, `c${h}x`, h === 10 ? [payment('cc', order.address, order.lovelace)] : []);
    const writes: string[] = [];
    const count = (q: { sql: string }) => {
      if (q.sql.toLowerCase().includes('ppu_watch_cursors') && !q.sql.toLowerCase().startsWith('select')) writes.push(q.sql);
    };
    app.db.on('query', count);
    try {
      expect(await watchTick(app.db, chain.source, opts)).toMatchObject({ blocks: 38, payments: 1 });
    } finally {
      app.db.off('query', count);
    }
    // Block 10's payment with the cursor at 10, then the cursor at 40: two writes for 38 blocks.
    expect(writes).toHaveLength(2);
    expect(await app.db('ppu_watch_cursors').where({ network: order.network }).first('height', 'hash')).toEqual({ height: 40, hash: 'c40x'.padEnd(64, '0') });
    expect((await app.db('ppu_payments').where({ order_id: order.id }).pluck('height')).map(Number)).toEqual([10]);
  });
});

