// The follower of an upstream-served network's submitted transactions against a Blockfrost-compatible
// HTTP upstream on loopback whose chain the test writes block by block (times, forks, transactions
// per block): where it starts, how it finds a fork deeper than a page of blocks, how it reads a block
// of many transactions, that it jumps over the blocks made while nothing was open instead of reading
// them, how it waits after failures and 429s, and that it keeps to its requests per second.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { UpstreamReader } from '../../server/gateway/upstream-reader';
import { UpstreamTxFollower } from '../../server/features/txs/upstream-follower';
import { recordSubmission, UPSTREAM_CURSOR_DEPTH } from '../../server/features/txs/store';
import { createLogger } from '../../server/logger';
import { ChainFollower } from '../../server/features/webhooks/follower';
import { httpSource } from '../../server/features/webhooks/chain-source';
import type { Block } from '../../shared/chain';

const NETWORK = 0;
const BLOCK_S = 20;

/** A chain served over HTTP as Blockfrost serves one: blocks by height and hash, their neighbours and transactions, a mempool and a submit. */
class ScriptedChain {
  blocks: Block[] = [];
  txs = new Map<string, string[]>();
  mempool = new Set<string>();
  paths: string[] = [];
  /** Answer every request with this status (and Retry-After) instead. */
  fail: null | { status: number; retryAfter?: string } = null;
  /** The time of block 0 (seconds). */
  constructor(private readonly start: number) {}

  append(txs: string[] = [], tag = 'a'): Block {
    const h = this.blocks.length;
    const prev = this.blocks[h - 1];
    const hash = crypto.createHash('sha256').update(`${tag}-${h}-${prev?.hash ?? ''}`).digest('hex');
    const block: Block = { time: this.start + h * BLOCK_S, height: h, hash, slot: h * BLOCK_S, epoch: 0, epoch_slot: h * BLOCK_S, slot_leader: 'pool1' + 'x'.repeat(51), size: 1000, tx_count: txs.length, output: null, fees: null, block_vrf: null, op_cert: null, op_cert_counter: null, previous_block: prev?.hash ?? null, next_block: null, confirmations: 0 };
    this.blocks.push(block);
    this.txs.set(hash, txs);
    return block;
  }

  /** Replaces the blocks above `height` with `count` new ones (another branch). */
  fork(height: number, count: number, txsAt: (i: number) => string[] = () => []): void {
    this.blocks.length = height + 1;
    for (let i = 0; i < count; i++) this.append(txsAt(i), 'b');
  }

  private find(ref: string): Block | undefined {
    return /^\d+$/.test(ref) ? this.blocks[Number(ref)] : this.blocks.find((b) => b.hash === ref);
  }

  handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url!, 'http://x');
    const path = url.pathname.replace(/^\/api\/v0/, '');
    this.paths.push(`${req.method} ${path}${url.search}`);
    const count = Number(url.searchParams.get('count') ?? 100);
    const page = Number(url.searchParams.get('page') ?? 1);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (this.fail) return json(this.fail.status, { status_code: this.fail.status, message: 'failing' }, this.fail.retryAfter ? { 'retry-after': this.fail.retryAfter } : {});
    const notFound = () => json(404, { status_code: 404, error: 'Not Found', message: 'The requested component has not been found.' });
    if (req.method === 'POST' && path === '/tx/submit') return json(200, 'ok');
    let m: RegExpExecArray | null;
    if (path === '/blocks/latest') return json(200, this.blocks.at(-1));
    if ((m = /^\/mempool\/(\w+)$/.exec(path))) return this.mempool.has(m[1]!) ? json(200, { tx: { hash: m[1] } }) : notFound();
    if ((m = /^\/blocks\/(\w+)(\/next|\/previous|\/txs)?$/.exec(path))) {
      const b = this.find(m[1]!);
      if (!b) return notFound();
      const h = b.height!;
      const skip = (page - 1) * count;
      if (m[2] === '/next') return json(200, this.blocks.slice(h + 1 + skip, h + 1 + skip + count));
      if (m[2] === '/previous') return json(200, this.blocks.slice(Math.max(0, h - skip - count), Math.max(0, h - skip)));
      if (m[2] === '/txs') return json(200, (this.txs.get(b.hash) ?? []).slice(skip, skip + count));
      return json(200, b);
    }
    notFound();
  }
}

const app = useTestApp();
const logger = createLogger('silent');
let projectId = 0;
let chain: ScriptedChain;
let server: http.Server;
let url = '';
beforeAll(async () => {
  const user = await makeUser(app.db, 'upstream-follower@example.com', 'ENTERPRISE');
  const ws = await makeWorkspace(app.db, user.id, []);
  const uuid = await makeProject(app.db, ws, 'mainnet dapp', 0);
  await app.db('projects').where({ uuid }).update({ tx_confirmations: 2 });
  projectId = Number((await app.db('projects').where({ uuid }).first('id')).id);
  server = http.createServer((req, res) => chain.handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v0`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(async () => {
  await app.db('tracked_txs').delete();
  await app.db('chain_cursors').where({ network: NETWORK }).delete();
  await app.db('chain_blocks').where({ network: NETWORK }).delete();
});

const follower = (requestsPerSecond = 1000, now?: () => number) =>
  new UpstreamTxFollower(app.db, logger, { network: NETWORK, slug: 'cardano-mainnet', reader: new UpstreamReader({ upstreams: () => [{ url, auth: null }], timeoutMs: 5000, tipMs: 0 }), requestsPerSecond, backoffMs: 50, ...(now ? { now } : {}) });
const hash = () => crypto.randomBytes(32).toString('hex');
const state = async (tx: string) => (await app.db('tracked_txs').where({ tx_hash: tx }).first('state', 'block_height')) as { state: string; block_height: number | null };
/** A chain of `n` blocks whose last one was made now. */
const chainOf = (n: number) => {
  chain = new ScriptedChain(Math.floor(Date.now() / 1000) - (n - 1) * BLOCK_S);
  for (let i = 0; i < n; i++) chain.append();
  return chain;
};
/** Runs passes until one says nothing more waits. */
const drain = async (f: UpstreamTxFollower) => {
  for (let i = 0; i < 50 && (await f.tick()); i++);
};

describe('the follower of an upstream-served network', () => {
  it('starts at the newest block made before the earliest open transaction, so one that landed before its first pass is found', async () => {
    chainOf(100);
    const tx = hash();
    // Submitted ten minutes and ten seconds ago, in a block made eight minutes ago (23 blocks behind the tip).
    await recordSubmission(app.db, { projectId, network: NETWORK, txHash: tx, ttlSlot: null, at: Date.now() - 610_000 });
    chain.blocks.length = 76;
    chain.append([tx]);
    while (chain.blocks.length < 100) chain.append();
    const f = follower();
    await drain(f);
    expect(await state(tx)).toEqual({ state: 'confirmed', block_height: 76 });
    const cursor = await app.db('chain_cursors').where({ network: NETWORK, confirmations: UPSTREAM_CURSOR_DEPTH }).first('height');
    expect(Number(cursor.height)).toBe(99);
    // It began at the newest block made before the submission less five minutes of slack (15 min 10 s
    // ago: 46 blocks behind the tip), not further back.
    const firstRead = chain.paths.find((p) => p.includes('/next'))!;
    expect(firstRead).toBe(`GET /blocks/${chain.blocks[53]!.hash}/next?count=46`);
  });

  it('reads a block of many transactions a page at a time, and only while some transaction waits to land', async () => {
    chainOf(10);
    const tx = hash();
    await recordSubmission(app.db, { projectId, network: NETWORK, txHash: tx, ttlSlot: null });
    const f = follower();
    await f.tick();
    chain.append([...Array.from({ length: 229 }, hash), tx, ...Array.from({ length: 20 }, hash)]);
    chain.paths.length = 0;
    await f.tick();
    expect(await state(tx)).toEqual({ state: 'in_block', block_height: 10 });
    expect(chain.paths.filter((p) => p.includes('/txs'))).toEqual([1, 2, 3].map((page) => `GET /blocks/${chain.blocks[10]!.hash}/txs?count=100&page=${page}`));
    // Landed: the next blocks' transactions are not read, only the blocks themselves.
    chain.append([hash()]);
    chain.paths.length = 0;
    await f.tick();
    expect(await state(tx)).toEqual({ state: 'confirmed', block_height: 10 });
    expect(chain.paths.filter((p) => p.includes('/txs'))).toEqual([]);
  });

  it('finds a fork deeper than a page of blocks, rolls back what the abandoned blocks held and reads the new branch', async () => {
    chainOf(5);
    const early = hash();
    const late = hash();
    await recordSubmission(app.db, { projectId: projectId, network: NETWORK, txHash: early, ttlSlot: null });
    await recordSubmission(app.db, { projectId: projectId, network: NETWORK, txHash: late, ttlSlot: null });
    await app.db('projects').where({ id: projectId }).update({ tx_confirmations: 500 });
    await app.db('tracked_txs').update({ confirmations_needed: 500 });
    const f = follower();
    await f.tick();
    for (let i = 0; i < 180; i++) chain.append(i === 20 ? [early] : i === 150 ? [late] : []);
    await drain(f);
    expect(await state(early)).toEqual({ state: 'in_block', block_height: 25 });
    expect(await state(late)).toEqual({ state: 'in_block', block_height: 155 });
    // The chain forks at height 40: 144 blocks abandoned; the new branch holds the late one at 60.
    chain.fork(40, 150, (i) => (i === 19 ? [late] : []));
    chain.paths.length = 0;
    await drain(f);
    expect(await state(early)).toEqual({ state: 'in_block', block_height: 25 });
    expect(await state(late)).toEqual({ state: 'in_block', block_height: 60 });
    const changes = await app.db('tracked_tx_changes').join('tracked_txs', 'tracked_txs.id', 'tracked_tx_changes.tracked_id').where('tracked_txs.tx_hash', late).orderBy('tracked_tx_changes.id').pluck('tracked_tx_changes.state');
    expect(changes).toEqual(['pending', 'in_block', 'rolled_back', 'in_block']);
    // Two pages of the blocks before the tip found the fork.
    expect(chain.paths.filter((p) => p.includes('/previous'))).toHaveLength(2);
    const cursor = await app.db('chain_cursors').where({ network: NETWORK, confirmations: UPSTREAM_CURSOR_DEPTH }).first('height', 'hash');
    expect({ height: Number(cursor.height), hash: cursor.hash }).toEqual({ height: 190, hash: chain.blocks[190]!.hash });
  });

  it('jumps over what was made while nothing was open, instead of reading it', async () => {
    chainOf(10);
    const f = follower();
    const first = hash();
    await recordSubmission(app.db, { projectId, network: NETWORK, txHash: first, ttlSlot: 5 });
    await f.tick();
    chain.append();
    await f.tick();
    expect((await state(first)).state).toBe('expired');
    // Nothing open: no reads while a thousand blocks are made (the cursor was last moved an hour ago).
    await app.db('chain_cursors').where({ network: NETWORK, confirmations: UPSTREAM_CURSOR_DEPTH }).update({ updated_at: Date.now() - 3_600_000 });
    chain = Object.assign(new ScriptedChain(Math.floor(Date.now() / 1000) - 1010 * BLOCK_S), { blocks: chain.blocks.map((b) => ({ ...b, time: b.time - 1000 * BLOCK_S })), txs: chain.txs });
    for (let i = 0; i < 1000; i++) chain.append();
    chain.paths.length = 0;
    await f.tick();
    expect(chain.paths).toEqual([]);
    const next = hash();
    await recordSubmission(app.db, { projectId, network: NETWORK, txHash: next, ttlSlot: null });
    chain.append([next]);
    await drain(f);
    expect((await state(next)).state).toBe('in_block');
    expect(chain.paths.filter((p) => p.includes('/next'))).toHaveLength(1);
    expect(chain.paths.length).toBeLessThanOrEqual(5);
  });

  it('waits twice as long after each failure of the upstream, as long as a 429 asks, and carries on once it answers', async () => {
    chainOf(3);
    const tx = hash();
    await recordSubmission(app.db, { projectId, network: NETWORK, txHash: tx, ttlSlot: null });
    let clock = 1_000_000;
    const f = follower(1000, () => clock);
    await f.tick();
    chain.fail = { status: 503 };
    /** The passes that sent a request, of one every 10 ms (the clock's) until `until`. */
    const sendingAt = async (until: number) => {
      const at: number[] = [];
      for (; clock <= until; clock += 10) {
        const before = chain.paths.length;
        await f.tick();
        if (chain.paths.length > before) at.push(clock - 1_000_000);
      }
      return at;
    };
    expect(await sendingAt(1_001_600)).toEqual([0, 50, 150, 350, 750, 1550]);
    chain.fail = { status: 429, retryAfter: '7' };
    expect(f.waitingUntil).toBe(1_000_000 + 1550 + 1600);
    expect((await sendingAt(1_003_150)).length).toBe(1);
    // The 429 came at 3150 ms: nothing until 7 s later.
    expect(f.waitingUntil).toBe(1_003_150 + 7000);
    expect(await sendingAt(1_010_140)).toEqual([]);
    chain.fail = null;
    chain.append([tx]);
    expect((await sendingAt(1_010_150)).length).toBe(1);
    expect(await state(tx)).toEqual({ state: 'in_block', block_height: 3 });
    expect(f.waitingUntil).toBeLessThanOrEqual(clock);
    // Answering again, it reads at every pass.
    chain.append();
    expect((await sendingAt(clock)).length).toBe(1);
  });

  it('keeps its cursor beside those of a webhook follower of the same network', async () => {
    chainOf(3);
    await recordSubmission(app.db, { projectId, network: NETWORK, txHash: hash(), ttlSlot: null });
    await follower().tick();
    // A webhook follower of the network with no webhook at any depth forgets the cursors of the depths nobody uses.
    const webhooks = new ChainFollower(app.db, logger, httpSource({ url, auth: null }), { network: NETWORK });
    await app.db('chain_cursors').insert({ network: NETWORK, confirmations: 3, height: 1, hash: chain.blocks[1]!.hash, updated_at: Date.now() });
    await webhooks.tick();
    expect(await app.db('chain_cursors').where({ network: NETWORK }).orderBy('confirmations').pluck('confirmations')).toEqual([UPSTREAM_CURSOR_DEPTH]);
    expect(Number(await app.db('chain_blocks').where({ network: NETWORK, confirmations: UPSTREAM_CURSOR_DEPTH }).count({ n: '*' }).first().then((r) => r?.n))).toBeGreaterThan(0);
  });

  it('sends at most its requests per second', async () => {
    chainOf(3);
    const tx = hash();
    await recordSubmission(app.db, { projectId, network: NETWORK, txHash: tx, ttlSlot: null });
    const f = follower(20);
    await f.tick();
    for (let i = 0; i < 20; i++) chain.append([hash()]);
    const reads = f.reads;
    const started = performance.now();
    await drain(f);
    const sent = f.reads - reads;
    // One read of the blocks and one of each block's transactions.
    expect(sent).toBe(21);
    expect(performance.now() - started).toBeGreaterThanOrEqual(((sent - 1) / 20) * 1000 * 0.9);
  });
});
