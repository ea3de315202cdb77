// The push hub's watcher: each block added is announced once, in order, to block subscribers; a
// block's transactions reach the subscribers of the addresses they touch; a rollback announces the
// new tip and sends the abandoned blocks' address notifications again.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NetworkFeed, TipWatcher, type Subscriber } from '../../../../../server/features/push/hub';
import { createLogger } from '../../../../../server/logger';
import type { Block, TxDetails } from '../../../../../shared/chain';

class ScriptedChain {
  blocks: Block[] = [];
  txs = new Map<string, TxDetails[]>();
  constructor(length: number) {
    for (let h = 0; h < length; h++) this.append();
  }
  append(tag = 'a', touching: string[] = []): Block {
    const h = this.blocks.length;
    const prev = this.blocks[h - 1];
    const hash = crypto.createHash('sha256').update(`${tag}-${h}-${prev?.hash ?? ''}`).digest('hex');
    const block = { time: 1_700_000_000 + h, height: h, hash, slot: h, epoch: 0, epoch_slot: h, slot_leader: 'pool1x', size: 1, tx_count: touching.length, output: null, fees: null, block_vrf: null, op_cert: null, op_cert_counter: null, previous_block: prev?.hash ?? null, next_block: null, confirmations: 0 } satisfies Block;
    this.blocks.push(block);
    this.txs.set(hash, touching.map((address, i) => ({ tx: { hash: `${hash.slice(0, 60)}000${i}` } as TxDetails['tx'], inputs: [], outputs: [{ address } as TxDetails['outputs'][number]], delegations: [] })));
    return block;
  }
  truncate(height: number): void {
    this.blocks.length = height + 1;
  }
  source = {
    tipHeight: async () => this.blocks.length - 1,
    blockAt: async (h: number) => this.blocks[h] ?? null,
    blockTxDetails: async (hash: string) => this.txs.get(hash) ?? [],
  };
}

const subscriber = (blockSubscription: string | number = 'b'): Subscriber & { frames: any[]; raw: Array<string | Buffer> } => {
  const frames: any[] = [];
  const raw: Array<string | Buffer> = [];
  return {
    frames,
    raw,
    send: (f) => {
      raw.push(f);
      frames.push(JSON.parse(f.toString()));
    },
    blockSubscription,
    addressSubscription: 'a',
  };
};

describe('the push hub', () => {
  it('announces added blocks in order, address notifications to their subscribers, and a rollback', async () => {
    const chain = new ScriptedChain(5);
    const feed = new NetworkFeed();
    const watcher = new TipWatcher('cardano-preprod', { source: chain.source, nextLook: (now) => now + 60_000 }, feed, createLogger('silent'));
    const s = subscriber();
    const other = subscriber();
    feed.subscribeBlocks(s);
    feed.setAddresses(s, [], ['addr_test1mine']);
    feed.setAddresses(other, [], ['addr_test1other']);
    await watcher.look(); // learns the tip: nothing to announce
    expect(s.frames).toEqual([]);

    chain.append('a');
    const paid = chain.append('a', ['addr_test1mine']);
    await watcher.look();
    expect(s.frames.filter((f) => f.id === 'b').map((f) => f.data.height)).toEqual([5, 6]);
    const notes = s.frames.filter((f) => f.id === 'a');
    expect(notes).toEqual([{ id: 'a', type: 'message', data: expect.objectContaining({ address: 'addr_test1mine', txHash: chain.txs.get(paid.hash)![0]!.tx.hash, blockInfo: expect.objectContaining({ hash: paid.hash }) }) }]);
    expect(other.frames).toEqual([]);

    // Block 6 is replaced by another branch one block longer.
    s.frames.length = 0;
    chain.truncate(5);
    chain.append('b');
    const tip = chain.append('b');
    await watcher.look();
    expect(s.frames.filter((f) => f.id === 'a').map((f) => f.data.address)).toEqual(['addr_test1mine']);
    const announced = s.frames.filter((f) => f.id === 'b').map((f) => f.data.hash);
    expect(announced.at(-1)).toBe(tip.hash);
    expect(announced).toEqual([chain.blocks[6]!.hash, tip.hash]);

    feed.unsubscribeBlocks(s);
    feed.setAddresses(s, ['addr_test1mine'], []);
    chain.append('b', ['addr_test1mine']);
    s.frames.length = 0;
    await watcher.look();
    expect(s.frames).toEqual([]);
    await watcher.stop();
  });

  it('encodes a block notification once per subscription id, whatever the number of subscribers', () => {
    const chain = new ScriptedChain(2);
    const feed = new NetworkFeed();
    const many = Array.from({ length: 3 }, () => subscriber('1'));
    const other = subscriber(7);
    for (const s of [...many, other]) feed.subscribeBlocks(s);
    feed.announceBlock(chain.blocks[1]!);
    const [first] = many[0]!.raw;
    expect(Buffer.isBuffer(first)).toBe(true);
    for (const s of many) expect(s.raw).toEqual([first]);
    for (const s of many) expect(s.raw[0]).toBe(first);
    expect(other.raw[0]).not.toBe(first);
    expect(many[0]!.frames[0]).toEqual({ id: '1', type: 'message', data: chain.blocks[1] });
    expect(other.frames[0]).toEqual({ id: 7, type: 'message', data: chain.blocks[1] });
  });
});
