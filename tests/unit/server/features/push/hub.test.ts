// The push hub's watcher: each block added is announced once, in order, to block subscribers; a
// block's transactions reach the subscribers of the addresses they touch, each after the block on its
// connection; a rollback announces the new tip and sends the abandoned blocks' address notifications
// again. The frames the hub writes are websocket frames a client library reads.
import crypto from 'node:crypto';
import * as ws from 'ws';
import { describe, expect, it } from 'vitest';
import { NetworkFeed, TipWatcher, type Subscriber } from '../../../../../server/features/push/hub';
import { textFrame } from '../../../../../server/features/push/protocol';
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

/** ws's frame parser (a client's side of the connection); its types are not published. */
interface FrameReader {
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  write(chunk: Buffer): void;
}
const { Receiver } = ws as unknown as { Receiver: new (options: { isServer: boolean }) => FrameReader };

/** The messages a client reads from frames written to it. */
function readFrames(frames: Buffer[]): string[] {
  const texts: string[] = [];
  const receiver = new Receiver({ isServer: false });
  receiver.on('message', (data, isBinary) => {
    expect(isBinary).toBe(false);
    texts.push(data.toString());
  });
  receiver.on('error', (err) => {
    throw err;
  });
  for (const f of frames) receiver.write(f);
  return texts;
}

/**
 * A subscriber that keeps the frames written to it; `frames` are the messages read from them. With
 * `writeUs`, each write takes that long (a socket's system call), so a fan-out to a few thousand
 * lasts several of its turns.
 */
const subscriber = (blockSubscription: string | number = 'b', writeUs = 0): Subscriber & { frames: any[]; raw: Buffer[] } => {
  const raw: Buffer[] = [];
  return {
    get frames() {
      return readFrames(raw).map((t) => JSON.parse(t));
    },
    raw,
    write: (f) => {
      const until = performance.now() + writeUs / 1000;
      while (performance.now() < until);
      raw.push(f);
    },
    blockSubscription,
    addressSubscription: 'a',
    blockSent: 0,
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
    s.raw.length = 0;
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
    s.raw.length = 0;
    await watcher.look();
    expect(s.frames).toEqual([]);
    await watcher.stop();
  });

  it('encodes a block notification once per subscription id, whatever the number of subscribers', async () => {
    const chain = new ScriptedChain(2);
    const feed = new NetworkFeed();
    const many = Array.from({ length: 3 }, () => subscriber('1'));
    const other = subscriber(7);
    for (const s of [...many, other]) feed.subscribeBlocks(s);
    await feed.announceBlock(chain.blocks[1]!);
    const [first] = many[0]!.raw;
    expect(Buffer.isBuffer(first)).toBe(true);
    for (const s of many) expect(s.raw).toEqual([first]);
    for (const s of many) expect(s.raw[0]).toBe(first);
    expect(other.raw[0]).not.toBe(first);
    expect(many[0]!.frames[0]).toEqual({ id: '1', type: 'message', data: chain.blocks[1] });
    expect(other.frames[0]).toEqual({ id: 7, type: 'message', data: chain.blocks[1] });
  });

  it('writes a block to thousands in turns, letting the event loop run between them, each subscriber once', async () => {
    const chain = new ScriptedChain(2);
    const feed = new NetworkFeed();
    // 1,800 writes of 20 µs: about 36 ms, several turns of 10 ms.
    const subs = Array.from({ length: 1800 }, () => subscriber('b', 20));
    for (const s of subs) feed.subscribeBlocks(s);
    let turned = -1;
    setImmediate(() => (turned = subs.filter((s) => s.raw.length > 0).length));
    await feed.announceBlock(chain.blocks[1]!);
    // A callback queued before the fan-out ran in its course, after some subscribers and before others.
    expect(turned).toBeGreaterThan(0);
    expect(turned).toBeLessThan(subs.length);
    for (const s of subs) expect(s.frames).toEqual([{ id: 'b', type: 'message', data: chain.blocks[1] }]);
  });

  it("writes an address notification after its block on the connection, before the fan-out reaches it, and the block only once", async () => {
    const chain = new ScriptedChain(2);
    const feed = new NetworkFeed();
    const subs = Array.from({ length: 1200 }, () => subscriber('b', 20));
    for (const s of subs) feed.subscribeBlocks(s);
    const last = subs.at(-1)!;
    feed.setAddresses(last, [], ['addr_test1late']);
    const block = chain.append('a', ['addr_test1late']);
    const fanOut = feed.announceBlock(block);
    // The fan-out has written its first turn only; the last subscriber's notification goes now, its block first.
    expect(last.raw).toEqual([]);
    feed.announceAddresses(feed.notificationsOf(block, chain.txs.get(block.hash)!), true);
    expect(last.frames.map((f) => f.id)).toEqual(['b', 'a']);
    await fanOut;
    expect(last.frames.map((f) => f.id)).toEqual(['b', 'a']);
    expect(subs.every((s) => s.frames.length === (s === last ? 2 : 1))).toBe(true);
  });
});

describe('textFrame', () => {
  it('makes frames a websocket client reads, at every length form (7-bit, 16-bit, 64-bit)', () => {
    const texts = ['', 'x'.repeat(125), 'é'.repeat(63), 'y'.repeat(126), 'z'.repeat(65_535), '€'.repeat(30_000), 'w'.repeat(70_000)];
    expect(readFrames(texts.map((t) => textFrame(t)))).toEqual(texts);
    expect(textFrame('x'.repeat(126)).subarray(0, 4)).toEqual(Buffer.from([0x81, 126, 0, 126]));
    expect(textFrame('w'.repeat(70_000)).subarray(0, 10)).toEqual(Buffer.from([0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70]));
  });
});
