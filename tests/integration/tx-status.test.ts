// The life of a submitted transaction: a payment submitted to the sandbox chain through the gateway
// is pending, then in a block, then confirmed at the project's depth, as GET /cairn/v1/txs/{hash}/status
// and the project page's list tell; a refused one is invalid with the ledger's reason; another
// project's key learns nothing of it; a rollback takes it out of its block and the new branch brings it back.
import crypto from 'node:crypto';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, startTestGateway } from '../helpers/gateway';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { createSandboxChain, type SandboxChain } from '../../server/sandbox/chain/index';
import { dbLedgerStore } from '../../server/sandbox/store';
import { sandboxSource, type ChainSource } from '../../server/features/webhooks/chain-source';
import { ChainFollower } from '../../server/features/webhooks/follower';
import { recordSubmission } from '../../server/features/txs/store';
import { landedOn } from '../../server/features/txs/gateway';
import { advanceTracked } from '../../server/features/txs/tracker';
import { createLogger } from '../../server/logger';
import { Dispatcher } from '../../server/features/webhooks/dispatcher';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { startReceiver } from '../helpers/receiver';
import { keysOf, payment } from '../unit/server/sandbox/chain/tx-builder';
import type { Block } from '../../shared/chain';
import { TX_HASH_MESSAGE, type TxStatus } from '../../shared/txs';

const app = useTestApp();
let gw: RunningGateway;
let chain: SandboxChain;
let client: Client;
let ws: number;
let key: string;
let otherKey: string;
let projectUuid: string;
const clock = { now: Date.UTC(2026, 10, 2, 9) };
const logger = createLogger('silent');
const PREPROD = 3;
const nextBlock = () => {
  clock.now += chain.params.blockIntervalMs;
};
/** A payment between the chain's development wallets, from an output no waiting transaction spends. */
const spend = () => {
  const [sender, recipient] = chain.devWallets();
  const input = chain.addressUtxos(sender!.address)!.find((u) => BigInt(u.amount[0]!.quantity) > 100_000_000n && !chain.mempoolTx(u.tx_hash))!;
  return payment({ inputs: [input], to: recipient!.address, lovelace: 3_000_000n, change: sender!.address, signers: [keysOf(sender!.mnemonic).payment] });
};
const status = (hash: string, k = key) => call(`${gw.url}/cairn/v1/txs/${hash}/status`, k) as Promise<{ status: number; body: TxStatus & { message?: string } }>;
const submit = (cbor: Uint8Array, k = key) => fetch(`${gw.url}/api/v0/tx/submit`, { method: 'POST', headers: { project_id: k, 'content-type': 'application/cbor' }, body: Buffer.from(cbor) });
/** Until the gateway recorded the submission (it writes once its answer has gone out). */
async function recorded(hash: string, state: string): Promise<TxStatus> {
  for (let i = 0; i < 100; i++) {
    const res = await status(hash);
    if (res.status === 200 && res.body.state === state) return res.body;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${hash} never became ${state}: ${JSON.stringify((await status(hash)).body)}`);
}

beforeAll(async () => {
  client = new Client(app.url);
  await signIn(client, app.mailer, 'txs@example.com');
  const me = (await client.get('/api/me')).body.data.id;
  await setSubscription(app.db, me, 'DEVELOPER', 'active');
  ws = (await client.get('/api/workspaces')).body.data[0].id;
  const created = (await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'dapp', networkId: 6 })).body.data;
  key = created.project.project_id;
  projectUuid = created.uuid;
  otherKey = (await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'other', networkId: 6 })).body.data.project.project_id;
  chain = createSandboxChain({ network: 'preprod', now: () => clock.now, store: dbLedgerStore(app.db) });
  await chain.ready();
  gw = await startTestGateway(app, {}, undefined, { chains: { preprod: chain } });
});
afterAll(async () => {
  await gw.close();
});

describe('the status of a submitted transaction', () => {
  it('goes pending → in_block → confirmed at the project depth, on the status route and the project page', async () => {
    const set = await client.put(`/api/projects/${projectUuid}/tx-confirmations`, { confirmations: 3 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const follower = new ChainFollower(app.db, logger, sandboxSource(chain), { network: PREPROD, trackTxs: true });
    await follower.tick();

    const [sender, recipient] = chain.devWallets();
    const input = chain.addressUtxos(sender!.address)!.find((u) => BigInt(u.amount[0]!.quantity) > 100_000_000n)!;
    const cbor = payment({ inputs: [input], to: recipient!.address, lovelace: 5_000_000n, change: sender!.address, signers: [keysOf(sender!.mnemonic).payment] });
    const res = await submit(cbor);
    expect(res.status, await res.clone().text()).toBe(200);
    const hash = (await res.json()) as string;

    const pending = await recorded(hash, 'pending');
    expect(pending).toMatchObject({ tx_hash: hash, state: 'pending', block_height: null, depth: 0, confirmations_needed: 3, reason: null });
    expect(pending.history.map((h) => h.state)).toEqual(['pending']);

    nextBlock();
    await follower.tick();
    const landed = (await status(hash)).body;
    const height = chain.tipHeight();
    expect(landed).toMatchObject({ state: 'in_block', block_height: height, block_hash: chain.blockAt(height)!.hash, depth: 1 });

    nextBlock();
    await follower.tick();
    expect((await status(hash)).body).toMatchObject({ state: 'in_block', depth: 2 });

    nextBlock();
    await follower.tick();
    const confirmed = (await status(hash)).body;
    expect(confirmed).toMatchObject({ state: 'confirmed', block_height: height, depth: 3 });
    expect(confirmed.history.map((h) => [h.state, h.block_height])).toEqual([['pending', null], ['in_block', height], ['confirmed', height]]);
    expect(confirmed.submitted_at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));

    // The network in the path works as well as the key's own.
    expect((await call(`${gw.url}/cardano-preprod/cairn/v1/txs/${hash}/status`, key)).body.state).toBe('confirmed');
    // Another project's key: not found, as for a transaction it never submitted.
    const other = await status(hash, otherKey);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ status_code: 404, error: 'Not Found' });

    const page = await client.get(`/api/projects/${projectUuid}/txs`);
    expect(page.status).toBe(200);
    expect(page.body.data.confirmations).toBe(3);
    expect(page.body.data.txs[0]).toMatchObject({ tx_hash: hash, state: 'confirmed', block_height: height, depth: 3, confirmations_needed: 3 });
  });

  it('lands a transaction the follower passed the block of before its submit was recorded (a fast chain), confirmed at once if deep enough', async () => {
    const projectId = Number((await app.db('projects').where({ project_id: key }).first('id')).id);
    const set = await client.put(`/api/projects/${projectUuid}/tx-confirmations`, { confirmations: 3 });
    expect(set.status).toBe(200);
    const follower = new ChainFollower(app.db, logger, sandboxSource(chain), { network: PREPROD, trackTxs: true });
    await follower.tick();
    // Accepted by the chain, then a block holds it and the follower passes that block, all before the
    // gateway's recording of the submit commits (what a devnet making blocks every 100 ms can do).
    const early = spend();
    const earlyHash = await chain.submit(early);
    nextBlock();
    await follower.tick();
    const height = chain.tipHeight();
    expect(chain.tx(earlyHash)?.block_height).toBe(height);
    await recordSubmission(app.db, { projectId, network: PREPROD, txHash: earlyHash, ttlSlot: null, cbor: early }, undefined, landedOn(chain));
    expect((await status(earlyHash)).body).toMatchObject({ state: 'in_block', block_height: height, block_hash: chain.blockAt(height)!.hash, depth: 1 });
    // From there the follower carries it on as any other.
    nextBlock();
    await follower.tick();
    nextBlock();
    await follower.tick();
    const confirmed = (await status(earlyHash)).body;
    expect(confirmed.history.map((h) => [h.state, h.block_height])).toEqual([['pending', null], ['in_block', height], ['confirmed', height]]);

    // Passed three blocks deep before the recording: confirmed as it is recorded.
    const deep = spend();
    const deepHash = await chain.submit(deep);
    for (let i = 0; i < 3; i++) {
      nextBlock();
      await follower.tick();
    }
    await recordSubmission(app.db, { projectId, network: PREPROD, txHash: deepHash, ttlSlot: null, cbor: deep }, undefined, landedOn(chain));
    const deepStatus = (await status(deepHash)).body;
    expect(deepStatus).toMatchObject({ state: 'confirmed', block_height: chain.tipHeight() - 2, depth: 3 });
    expect(deepStatus.history.map((h) => h.state)).toEqual(['pending', 'in_block', 'confirmed']);

    // In a block the follower has not reached yet: pending, and the follower lands it when it gets there.
    const ahead = spend();
    const aheadHash = await chain.submit(ahead);
    nextBlock();
    await recordSubmission(app.db, { projectId, network: PREPROD, txHash: aheadHash, ttlSlot: null, cbor: ahead }, undefined, landedOn(chain));
    expect((await status(aheadHash)).body.state).toBe('pending');
    await follower.tick();
    expect((await status(aheadHash)).body).toMatchObject({ state: 'in_block', block_height: chain.tipHeight() });
  });

  it('a follower starting at the tip (a devnet followed from its first submit) lands the open transactions the chain holds up to there', async () => {
    const projectId = Number((await app.db('projects').where({ project_id: key }).first('id')).id);
    await app.db('chain_cursors').where({ network: PREPROD }).delete();
    await app.db('chain_blocks').where({ network: PREPROD }).delete();
    // With no tip read, a confirmed transaction still shows the depth it was confirmed at, not 0.
    const settled = await app.db('tracked_txs').where({ project_id: projectId, network: PREPROD, state: 'confirmed' }).first('tx_hash', 'confirmations_needed');
    expect((await status(settled.tx_hash)).body).toMatchObject({ state: 'confirmed', depth: Number(settled.confirmations_needed) });
    const cbor = spend();
    const hash = await chain.submit(cbor);
    nextBlock();
    await recordSubmission(app.db, { projectId, network: PREPROD, txHash: hash, ttlSlot: null, cbor }, undefined, landedOn(chain));
    expect((await status(hash)).body.state).toBe('pending');
    const follower = new ChainFollower(app.db, logger, sandboxSource(chain), { network: PREPROD, trackTxs: true });
    await follower.tick();
    expect((await status(hash)).body).toMatchObject({ state: 'in_block', block_height: chain.tipHeight(), depth: 1 });
  });

  it('records a refused transaction as invalid with the ledger reason', async () => {
    const [sender, recipient] = chain.devWallets();
    const input = chain.addressUtxos(sender!.address)!.find((u) => BigInt(u.amount[0]!.quantity) > 100_000_000n)!;
    // Signed by the wrong key: the ledger refuses it.
    const wrong = keysOf(recipient!.mnemonic).payment;
    const cbor = payment({ inputs: [input], to: recipient!.address, lovelace: 5_000_000n, change: sender!.address, signers: [wrong] });
    const res = await submit(cbor);
    expect(res.status).toBe(400);
    const message = ((await res.json()) as { message: string }).message;
    const hash = CSL.FixedTransaction.from_bytes(cbor).transaction_hash().to_hex();
    const invalid = await recorded(hash, 'invalid');
    expect(invalid).toMatchObject({ state: 'invalid', reason: message, depth: 0 });
    expect(invalid.history.map((h) => h.state)).toEqual(['invalid']);
  });

  it('refuses a body over the largest transaction at once, recording nothing, whether its length is declared or streamed', async () => {
    const before = await app.db('tracked_txs').count({ n: '*' }).first();
    const big = Buffer.alloc(40 * 1024, 0x82);
    const declared = await submit(big);
    expect(declared.status).toBe(400);
    expect(((await declared.json()) as { message: string }).message).toBe('The transaction is larger than the maximum transaction size.');
    const streamed = await fetch(`${gw.url}/api/v0/tx/submit`, {
      method: 'POST',
      headers: { project_id: key, 'content-type': 'application/cbor' },
      body: new ReadableStream({ start(c) { for (let i = 0; i < 5; i++) c.enqueue(new Uint8Array(10 * 1024)); c.close(); } }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(400);
    expect(await app.db('tracked_txs').count({ n: '*' }).first()).toEqual(before);
  });

  it('answers a malformed hash 400 with what a hash is, an unknown one 404, and counts the calls', async () => {
    const bad = await status('not-a-hash');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status_code: 400, message: TX_HASH_MESSAGE });
    expect((await status('ab'.repeat(32))).status).toBe(404);
    expect((await call(`${gw.url}/cairn/v1/txs/${'ab'.repeat(32)}/status`)).status).toBe(403);
    expect((await call(`${gw.url}/cairn/v1/nothing`, key)).status).toBe(404);
    // Beside /api/v0, never under it: there it is a path Blockfrost does not have (its 400).
    const hash = (await app.db('tracked_txs').first('tx_hash'))?.tx_hash as string;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await status(hash)).status).toBe(200);
    expect((await call(`${gw.url}/api/v0/cairn/v1/txs/${hash}/status`, key)).status).toBe(400);
    // The API reference lists it as a Cairn extension on the gateway's root.
    const doc = (await (await fetch(`${app.url}/docs/data-api.json`)).json()) as { paths: Record<string, { servers: Array<{ url: string }>; get: { tags: string[] } }> };
    expect(doc.paths['/cairn/v1/txs/{hash}/status']?.get.tags).toEqual(['Cairn extensions']);
    expect(doc.paths['/cairn/v1/txs/{hash}/status']?.servers[0]?.url).not.toMatch(/\/api\/v0$/);
    await gw.meter.flush();
    const counted = await app.db('usage_dimensions').where({ dimension: 'endpoint', value: '/cairn/v1/txs/{hash}/status' }).sum({ n: 'requests' }).first();
    expect(Number(counted?.n)).toBeGreaterThanOrEqual(2);
  });
});

/** A chain we script, with the transactions of each block and a mempool. */
class ForkingChain implements ChainSource {
  blocks: Block[] = [];
  txs = new Map<string, string[]>();
  mempool = new Set<string>();
  constructor(length: number) {
    for (let h = 0; h < length; h++) this.append();
  }
  append(tag = 'a', txs: string[] = []): Block {
    const h = this.blocks.length;
    const prev = this.blocks[h - 1];
    const hash = crypto.createHash('sha256').update(`${tag}-${h}-${prev?.hash ?? ''}`).digest('hex');
    const block = { time: 1_700_000_000 + h * 20, height: h, hash, slot: h * 20, epoch: 0, epoch_slot: h * 20, slot_leader: 'pool1' + 'x'.repeat(51), size: 1000, tx_count: txs.length, output: null, fees: null, block_vrf: null, op_cert: null, op_cert_counter: null, previous_block: prev?.hash ?? null, next_block: null, confirmations: 0 } satisfies Block;
    this.blocks.push(block);
    this.txs.set(hash, txs);
    for (const t of txs) this.mempool.delete(t);
    return block;
  }
  tipHeight = async () => this.blocks.length - 1;
  blockAt = async (h: number) => this.blocks[h] ?? null;
  blockTxDetails = async () => [];
  blockTxHashes = async (hash: string) => this.txs.get(hash) ?? [];
  inMempool = async (hashes: string[]) => new Set(hashes.filter((h) => this.mempool.has(h)));
  /** Transactions this chain takes when resubmitted: CBOR (hex) → hash. */
  known = new Map<string, string>();
  resubmitted: string[] = [];
  resubmit = async (cbor: Uint8Array) => {
    const hash = this.known.get(Buffer.from(cbor).toString('hex'));
    if (!hash) return false;
    this.resubmitted.push(hash);
    this.mempool.add(hash);
    return true;
  };
  epoch = async () => null;
  epochStart = async () => null;
}

describe('tracked transactions and the chain', () => {
  it('a rollback moves a landed transaction to rolled_back, back to pending in the mempool, and into the new branch', async () => {
    const projectId = Number((await app.db('projects').where({ project_id: key }).first('id')).id);
    const fork = new ForkingChain(5);
    // Network 0 (mainnet), so this chain does not meet the sandbox's cursors.
    const follower = new ChainFollower(app.db, logger, fork, { network: 0, trackTxs: true });
    await follower.tick();
    const tx = crypto.randomBytes(32).toString('hex');
    await recordSubmission(app.db, { projectId, network: 0, txHash: tx, ttlSlot: null });
    fork.mempool.add(tx);
    fork.append('a', [tx]); // height 5
    fork.append('a'); // 6
    await follower.tick();
    expect((await status(tx)).body).toMatchObject({ state: 'in_block', block_height: 5, block_hash: fork.blocks[5]!.hash });

    // Blocks 5 and 6 are replaced by a longer branch; the transaction waits in the mempool again.
    fork.blocks.length = 5;
    fork.mempool.add(tx);
    fork.append('b');
    fork.append('b');
    fork.append('b');
    await follower.tick();
    const back = (await status(tx)).body;
    expect(back).toMatchObject({ state: 'pending', block_height: null, depth: 0 });
    expect(back.history.map((h) => h.state)).toEqual(['pending', 'in_block', 'rolled_back', 'pending']);

    fork.append('b', [tx]); // 8
    await follower.tick();
    const relanded = (await status(tx)).body;
    expect(relanded).toMatchObject({ state: 'in_block', block_height: 8, block_hash: fork.blocks[8]!.hash, depth: 1 });
    expect(relanded.history.map((h) => h.state)).toEqual(['pending', 'in_block', 'rolled_back', 'pending', 'in_block']);
  });

  it('resubmits a rolled-back transaction of a project that asked for it, while it is valid, and it lands again', async () => {
    const projectId = Number((await app.db('projects').where({ project_id: key }).first('id')).id);
    const otherId = Number((await app.db('projects').where({ project_id: otherKey }).first('id')).id);
    // The setting: audited once per change, refused when not a boolean.
    expect((await client.put(`/api/projects/${projectUuid}/tx-resubmit`, { resubmit: 'yes' })).status).toBe(400);
    expect((await client.put(`/api/projects/${projectUuid}/tx-resubmit`, { resubmit: true })).body.data).toEqual({ resubmit: true });
    expect((await client.put(`/api/projects/${projectUuid}/tx-resubmit`, { resubmit: true })).status).toBe(200);
    expect((await client.get(`/api/projects/${projectUuid}/txs`)).body.data.resubmit).toBe(true);
    const audit = await app.db('audit_entries').where({ action: 'project.tx_resubmit_changed' }).select('details');
    expect(audit.map((a) => JSON.parse(a.details))).toEqual([{ from: false, to: true }]);

    await app.db('chain_cursors').where({ network: 0 }).delete();
    await app.db('chain_blocks').where({ network: 0 }).delete();
    const fork = new ForkingChain(5);
    const follower = new ChainFollower(app.db, logger, fork, { network: 0, trackTxs: true });
    await follower.tick();
    const tx = (projectId_: number, ttlSlot: number | null) => {
      const hash = crypto.randomBytes(32).toString('hex');
      const cbor = crypto.randomBytes(200);
      fork.known.set(cbor.toString('hex'), hash);
      return { hash, record: () => recordSubmission(app.db, { projectId: projectId_, network: 0, txHash: hash, ttlSlot, cbor }) };
    };
    const mine = tx(projectId, null);
    const expiring = tx(projectId, 130); // valid until slot 130: the new branch's tip is past it
    const others = tx(otherId, null); // a project that did not ask
    for (const t of [mine, expiring, others]) await t.record();
    fork.append('a', [mine.hash, expiring.hash, others.hash]); // height 5, slot 100
    await follower.tick();
    expect((await status(mine.hash)).body.state).toBe('in_block');

    // Block 5 is replaced by a longer branch that left the transactions out, and nobody put them back in the mempool.
    fork.blocks.length = 5;
    fork.append('b');
    fork.append('b');
    fork.append('b'); // height 7, slot 140
    await follower.tick();
    expect(fork.resubmitted).toEqual([mine.hash]);
    const back = (await status(mine.hash)).body;
    expect(back).toMatchObject({ state: 'pending', block_height: null });
    expect(back.history.map((h) => [h.state, h.resubmitted])).toEqual([['pending', false], ['in_block', false], ['rolled_back', false], ['pending', true]]);
    // Past its validity on the new branch: not resubmitted, and the branch's blocks expire it.
    const lapsed = (await status(expiring.hash)).body;
    expect(lapsed.state).toBe('expired');
    expect(lapsed.history.some((h) => h.resubmitted)).toBe(false);
    expect((await status(others.hash, otherKey)).body.state).toBe('rolled_back');

    // The chain takes it into the next block: it lands again.
    fork.append('b', [...fork.mempool]); // height 8
    await follower.tick();
    const relanded = (await status(mine.hash)).body;
    expect(relanded).toMatchObject({ state: 'in_block', block_height: 8, block_hash: fork.blocks[8]!.hash });
    expect(relanded.history.map((h) => h.state)).toEqual(['pending', 'in_block', 'rolled_back', 'pending', 'in_block']);
  });

  it('expires a transaction whose validity ended before it landed, and prunes settled ones after the retention', async () => {
    const projectId = Number((await app.db('projects').where({ project_id: key }).first('id')).id);
    const fork = new ForkingChain(3);
    const follower = new ChainFollower(app.db, logger, fork, { network: 0, trackTxs: true });
    await app.db('chain_cursors').where({ network: 0 }).delete();
    await app.db('chain_blocks').where({ network: 0 }).delete();
    await follower.tick();
    const tx = crypto.randomBytes(32).toString('hex');
    await recordSubmission(app.db, { projectId, network: 0, txHash: tx, ttlSlot: 70 });
    fork.append(); // slot 60
    await follower.tick();
    expect((await status(tx)).body.state).toBe('pending');
    fork.append(); // slot 80: past its validity
    await follower.tick();
    expect((await status(tx)).body).toMatchObject({ state: 'expired', history: [{ state: 'pending' }, { state: 'expired' }] });

    const { pruneTrackedTxs } = await import('../../server/features/txs/store');
    expect(await pruneTrackedTxs(app.db, Date.now() + 6 * 86_400_000)).toBe(0);
    expect(await pruneTrackedTxs(app.db, Date.now() + 8 * 86_400_000)).toBeGreaterThanOrEqual(1);
    expect((await status(tx)).status).toBe(404);
    // Its changes went with it.
    expect(await app.db('tracked_tx_changes').whereNotIn('tracked_id', app.db('tracked_txs').select('id')).count({ n: '*' }).first().then((r) => Number(r?.n))).toBe(0);
  });

  it('advances many pending transactions with a fixed number of statements per block', async () => {
    const projectId = Number((await app.db('projects').where({ project_id: key }).first('id')).id);
    const fork = new ForkingChain(3);
    await app.db('chain_cursors').where({ network: 0 }).delete();
    await app.db('chain_blocks').where({ network: 0 }).delete();
    const follower = new ChainFollower(app.db, logger, fork, { network: 0, trackTxs: true });
    await follower.tick();
    const now = Date.now();
    const hashes = Array.from({ length: 400 }, () => crypto.randomBytes(32).toString('hex'));
    for (let i = 0; i < hashes.length; i += 100) {
      await app.db('tracked_txs').insert(hashes.slice(i, i + 100).map((h) => ({ project_id: projectId, network: 0, tx_hash: h, state: 'pending', confirmations_needed: 2, submitted_at: now, updated_at: now })));
    }
    const statements: string[] = [];
    const count = (q: { sql: string }) => {
      if (q.sql.includes('tracked_tx')) statements.push(q.sql);
    };
    app.db.on('query', count);
    try {
      fork.append('a', hashes.slice(0, 50));
      await follower.tick();
      fork.append('a', hashes.slice(50, 60));
      await follower.tick();
    } finally {
      app.db.off('query', count);
    }
    // Per block, whatever is pending: one read (by hash, deep enough, past validity, each on its
    // index) and one write of the new states with their changes (on SQLite an update and an insert,
    // and the read made once more outside the transaction first, which tells whether one is needed).
    expect(statements.length).toBeLessThanOrEqual(app.db.client.config.client === 'pg' ? 4 : 8);
    const states = await app.db('tracked_txs').whereIn('tx_hash', hashes.slice(0, 60)).select('state');
    expect(states.filter((r) => r.state === 'confirmed')).toHaveLength(50);
    expect(states.filter((r) => r.state === 'in_block')).toHaveLength(10);
    expect(await app.db('tracked_txs').whereIn('tx_hash', hashes.slice(60)).where({ state: 'pending' }).count({ n: '*' }).first().then((r) => Number(r?.n))).toBe(340);
  });

  it('advances a batch of blocks: lands, confirms in the same batch, expires, and leaves alone what is not yet due', async () => {
    const projectId = Number((await app.db('projects').where({ project_id: key }).first('id')).id);
    const otherId = Number((await app.db('projects').where({ project_id: otherKey }).first('id')).id);
    const network = 9001;
    const now = Date.now();
    const h = () => crypto.randomBytes(32).toString('hex');
    const [fast, slow, back, shallow, deep, late, lateButLands, valid, shared] = Array.from({ length: 9 }, h);
    const row = (tx_hash: string, state: string, extra: Record<string, unknown> = {}, project_id = projectId) => ({ project_id, network, tx_hash, state, confirmations_needed: 3, submitted_at: now, updated_at: now, ...extra });
    await app.db('tracked_txs').insert([
      row(fast!, 'pending', { confirmations_needed: 1 }),
      row(slow!, 'pending'),
      row(back!, 'rolled_back'),
      // Landed at 101: 2 deep at 102, not yet confirmed although a block repeats its hash.
      row(shallow!, 'in_block', { block_height: 101, block_hash: 'b'.repeat(64) }),
      row(deep!, 'in_block', { block_height: 100, block_hash: 'a'.repeat(64) }),
      row(late!, 'pending', { ttl_slot: 50 }),
      row(lateButLands!, 'pending', { ttl_slot: 50 }),
      row(valid!, 'pending', { ttl_slot: 500 }),
      row(shared!, 'pending'),
      row(shared!, 'pending', {}, otherId),
    ]);
    const blocks = [
      { height: 101, hash: 'c'.repeat(64), slot: 40, txHashes: [fast!, h()] },
      { height: 102, hash: 'd'.repeat(64), slot: 60, txHashes: [slow!, back!, shallow!, lateButLands!, shared!] },
    ];
    const changes = await app.db.transaction((trx) => advanceTracked(trx, network, blocks, now));
    const summary = changes.map((c) => `${c.txHash === shared ? `shared:${c.projectId === otherId ? 'other' : 'own'}` : c.txHash.slice(0, 8)} ${c.from}→${c.state}@${c.blockHeight}`).sort();
    const name = (x: string) => x.slice(0, 8);
    expect(summary).toEqual(
      [
        `${name(fast!)} pending→in_block@101`,
        `${name(fast!)} in_block→confirmed@101`,
        `${name(slow!)} pending→in_block@102`,
        `${name(back!)} rolled_back→in_block@102`,
        `${name(deep!)} in_block→confirmed@100`,
        `${name(late!)} pending→expired@null`,
        `${name(lateButLands!)} pending→in_block@102`,
        'shared:own pending→in_block@102',
        'shared:other pending→in_block@102',
      ].sort(),
    );
    const rows = await app.db('tracked_txs').where({ network }).select('tx_hash', 'project_id', 'state', 'block_height', 'block_hash', 'settled_at');
    const of = (tx: string) => rows.find((r) => r.tx_hash === tx)!;
    expect(of(fast!)).toMatchObject({ state: 'confirmed', block_hash: 'c'.repeat(64) });
    expect(Number(of(fast!).settled_at)).toBe(now);
    expect(of(slow!)).toMatchObject({ state: 'in_block', block_hash: 'd'.repeat(64), settled_at: null });
    expect(Number(of(slow!).block_height)).toBe(102);
    expect(of(shallow!)).toMatchObject({ state: 'in_block', block_hash: 'b'.repeat(64) });
    expect(of(deep!)).toMatchObject({ state: 'confirmed', block_hash: 'a'.repeat(64) });
    expect(of(late!)).toMatchObject({ state: 'expired', block_height: null });
    expect(Number(of(late!).settled_at)).toBe(now);
    expect(of(valid!)).toMatchObject({ state: 'pending', settled_at: null });
    expect(rows.filter((r) => r.tx_hash === shared).map((r) => r.state)).toEqual(['in_block', 'in_block']);
    // Each change recorded once, in the order made (landed before confirmed).
    const history = await app.db('tracked_tx_changes').join('tracked_txs', 'tracked_txs.id', 'tracked_tx_changes.tracked_id').where('tracked_txs.network', network).orderBy('tracked_tx_changes.id').select('tracked_txs.tx_hash', 'tracked_tx_changes.state', 'tracked_tx_changes.block_height', 'tracked_tx_changes.at');
    expect(history).toHaveLength(changes.length);
    expect(history.filter((c) => c.tx_hash === fast).map((c) => [c.state, Number(c.block_height)])).toEqual([['in_block', 101], ['confirmed', 101]]);
    expect(history.every((c) => Number(c.at) === now)).toBe(true);
    await app.db('tracked_txs').where({ network }).delete();
  });

  it("fires 'tx_status' webhooks for what a submit through the gateway records: pending, and invalid with the ledger's reason", async () => {
    const receiver = await startReceiver();
    try {
      const created = await client.post(`/api/workspaces/${ws}/webhooks`, { name: 'submits', description: '', network: PREPROD, type: 'tx_status', target_url: receiver.url, confirmations: 0, status: 'enabled', conditions: [], api_version: 1 });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const [recipient, sender] = chain.devWallets();
      const input = chain.addressUtxos(sender!.address)!.find((u) => BigInt(u.amount[0]!.quantity) > 100_000_000n)!;
      const refused = payment({ inputs: [input], to: recipient!.address, lovelace: 4_000_000n, change: sender!.address, signers: [keysOf(recipient!.mnemonic).payment] });
      const refusal = await submit(refused);
      expect(refusal.status).toBe(400);
      const reason = ((await refusal.json()) as { message: string }).message;
      const refusedHash = CSL.FixedTransaction.from_bytes(refused).transaction_hash().to_hex();
      await recorded(refusedHash, 'invalid');
      const accepted = await submit(payment({ inputs: [input], to: recipient!.address, lovelace: 4_000_000n, change: sender!.address, signers: [keysOf(sender!.mnemonic).payment] }));
      expect(accepted.status, await accepted.clone().text()).toBe(200);
      const acceptedHash = (await accepted.json()) as string;
      await recorded(acceptedHash, 'pending');
      const dispatcher = new Dispatcher(app.db, logger, app.mailer, { allowlist: parseAllowlist('127.0.0.1'), timeoutMs: 2000, retrySchedule: [0, 100], publicUrl: app.url });
      while ((await dispatcher.runOnce()) > 0);
      const got = receiver.received.filter((r) => r.body?.webhook_id === created.body.data.id).map((r) => r.body.payload);
      expect(got).toEqual([
        expect.objectContaining({ tx_hash: refusedHash, project: projectUuid, previous_state: null, state: 'invalid', block_height: null, depth: 0 }),
        // The same body signed by the right key: the same transaction, refused before, accepted now.
        expect.objectContaining({ tx_hash: acceptedHash, project: projectUuid, previous_state: 'invalid', state: 'pending', block_height: null, depth: 0 }),
      ]);
      expect(acceptedHash).toBe(refusedHash);
      expect(reason.length).toBeGreaterThan(0);
    } finally {
      await receiver.close();
    }
  });

  it("fires 'tx_status' webhooks on each change from the chain, signed and logged like other deliveries, filtered by their JSONPath conditions", async () => {
    const receiver = await startReceiver();
    try {
      const hook = (name: string, conditions: unknown[]) =>
        client.post(`/api/workspaces/${ws}/webhooks`, { name, description: '', network: 2, type: 'tx_status', target_url: receiver.url, confirmations: 0, status: 'enabled', conditions, api_version: 1 });
      const every = await hook('every change', []);
      expect(every.status, JSON.stringify(every.body)).toBe(201);
      const confirmedOnly = await hook('confirmed', [{ type: 'jsonPath', selector: '$.state', operator: '=', value: 'confirmed' }]);
      expect(confirmedOnly.status, JSON.stringify(confirmedOnly.body)).toBe(201);
      const projectId = Number((await app.db('projects').where({ project_id: key }).first('id')).id);
      const fork = new ForkingChain(3);
      const follower = new ChainFollower(app.db, logger, fork, { network: 2, trackTxs: true });
      await follower.tick();
      const tx = crypto.randomBytes(32).toString('hex');
      await recordSubmission(app.db, { projectId, network: 2, txHash: tx, ttlSlot: null });
      fork.append('a', [tx]);
      await follower.tick();
      fork.append();
      fork.append();
      await follower.tick();
      const dispatcher = new Dispatcher(app.db, logger, app.mailer, { allowlist: parseAllowlist('127.0.0.1'), timeoutMs: 2000, retrySchedule: [0, 100], publicUrl: app.url });
      while ((await dispatcher.runOnce()) > 0);
      const of = (id: string) => receiver.received.filter((r) => r.body?.webhook_id === id);
      const all = of(every.body.data.id);
      expect(all.map((r) => [r.body.type, r.body.payload.tx_hash, r.body.payload.previous_state, r.body.payload.state])).toEqual([
        ['tx_status', tx, 'pending', 'in_block'],
        ['tx_status', tx, 'in_block', 'confirmed'],
      ]);
      expect(all[1]!.body.payload).toMatchObject({ project: projectUuid, block_height: 3, depth: 3, confirmations_needed: 3 });
      expect(all[0]!.headers['blockfrost-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(of(confirmedOnly.body.data.id).map((r) => r.body.payload.state)).toEqual(['confirmed']);
      // The delivery log holds them as for any webhook.
      const log = await client.get(`/api/workspaces/${ws}/webhooks/${every.body.data.id}/events`);
      expect(log.status, JSON.stringify(log.body)).toBe(200);
      expect(JSON.stringify(log.body.data)).toContain(all[0]!.body.id);
    } finally {
      await receiver.close();
    }
  });
});
