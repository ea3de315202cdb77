// A devnet: a sandbox chain of its own genesis that its owner steers. Each test builds one on a
// clock the test moves, and reads it as a client does (the chain's queries, and HTTP through the
// sandbox router for what an SDK reads first).
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { afterEach, describe, expect, it } from 'vitest';
import { BlockfrostProvider, MeshTxBuilder, MeshWallet, slotToBeginUnixTime, unixTimeToEnclosingSlot } from '@meshsdk/core';
import { createDevnet, DevnetRefusal, LedgerRefusal, memoryLedgerStore, newDevnetState, type DevnetGenesisInput, type LedgerStore, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { devnetGenesisSchema } from '../../../../../shared/devnet';
import { enterpriseAddress } from '../../../../../shared/cardano/address';
import { keysOf, payment } from './tx-builder';
import { adaOnlyUtxo, producingPool, stakeTx } from './stake-builder';
import { drepVote, govKeysOf, govTx, keyHashOf } from './gov-builder';
import { drepId } from '../../../../../server/sandbox/chain/gov';
import { assertSchema, serve, type TestServer } from './support';

const T0 = Date.UTC(2026, 10, 2, 9);
const lovelaceOf = (amount: Array<{ unit: string; quantity: string }>): bigint => BigInt(amount.find((a) => a.unit === 'lovelace')?.quantity ?? '0');

function devnet(o: { genesis?: DevnetGenesisInput; store?: LedgerStore; seed?: string } = {}) {
  const clock = { now: T0 };
  const store = o.store ?? memoryLedgerStore();
  const state = newDevnetState({ now: clock.now, seed: o.seed ?? 'devnet-test', ...(o.genesis ? { genesis: o.genesis } : {}) });
  const { chain, control } = createDevnet({ id: 'p1', state, store, now: () => clock.now });
  const [alice, bob] = chain.devWallets();
  return { clock, store, chain, control, alice: alice!, bob: bob!, aliceKeys: keysOf(alice!.mnemonic) };
}

/** A payment of 5 ada from a development wallet to another address, with the ledger's minimum fee for the default parameters. */
function pay(chain: SandboxChain, from: { address: string; mnemonic: string }, to: string, lovelace = 5_000_000n): Uint8Array {
  return payment({ inputs: [adaOnlyUtxo(chain, from.address)], to, lovelace, change: from.address, signers: [keysOf(from.mnemonic).payment] });
}

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe("a devnet's genesis and clock", () => {
  it('answers its own network identity, and /genesis, /network/eras and /epochs agree with its slots', async () => {
    const d = devnet({ genesis: { slotLengthMs: 200, blockIntervalMs: 400, epochLength: 100, securityParam: 20 } });
    await d.chain.ready();
    const http = await serve(d.chain);
    servers.push(http);
    d.clock.now += 30_000; // 75 blocks: epoch 1 (50 blocks an epoch)
    // Sub-second slots make slot_length and the eras' times fractions, where Blockfrost's schema has whole seconds.
    const genesis = (await http.get('/genesis')).body;
    expect(genesis).toMatchObject({ network_magic: 42, slot_length: 0.2, epoch_length: 100, security_param: 20, system_start: T0 / 1000, active_slots_coefficient: 0.5 });
    const tip = (await http.get('/blocks/latest')).body;
    expect(tip).toMatchObject({ height: 75, slot: 150, epoch: 1, epoch_slot: 50, time: T0 / 1000 + 30 });
    // Mesh's slot arithmetic with a custom slot configuration read from /genesis: the current slot is the tip's.
    const slotConfig = { zeroTime: genesis.system_start * 1000, zeroSlot: 0, slotLength: genesis.slot_length * 1000, startEpoch: 0, epochLength: genesis.epoch_length };
    expect(unixTimeToEnclosingSlot(d.clock.now, slotConfig)).toBe(tip.slot);
    expect(slotToBeginUnixTime(tip.slot, slotConfig)).toBe(tip.time * 1000);
    const eras = (await http.get('/network/eras')).body;
    const conway = eras[eras.length - 1];
    expect(conway.start).toEqual({ time: 0, slot: 0, epoch: 0 });
    expect(conway.parameters).toEqual({ epoch_length: 100, slot_length: 0.2, safe_zone: 3 * 20 * 2 });
    // Slot → time through the era summary is the block's time.
    expect(conway.start.time + (tip.slot - conway.start.slot) * conway.parameters.slot_length).toBeCloseTo(tip.time - genesis.system_start);
    const epoch = (await http.get('/epochs/latest')).body;
    expect(epoch).toMatchObject({ epoch: 1, start_time: T0 / 1000 + 20, end_time: T0 / 1000 + 40 });
    // Testnet addresses (network id 0).
    expect(d.alice.address).toMatch(/^addr_test1/);
    expect(d.chain.faucetInfo().address).toMatch(/^addr_test1/);
  });

  it("with whole-second slots, its answers match Blockfrost's schemas", async () => {
    const d = devnet();
    await d.chain.ready();
    const http = await serve(d.chain);
    servers.push(http);
    d.clock.now += 700_000;
    for (const path of ['/genesis', '/network/eras', '/epochs/latest', '/epochs/latest/parameters', '/blocks/latest', '/network']) {
      const res = await http.get(path);
      expect(res.status).toBe(200);
      assertSchema(path, res.body);
    }
    expect((await http.get('/genesis')).body).toMatchObject({ network_magic: 42, slot_length: 1, epoch_length: 600, security_param: 100 });
    expect((await http.get('/epochs/latest')).body).toMatchObject({ epoch: 1, start_time: T0 / 1000 + 600 });
  });

  it('refuses a genesis whose block interval is no multiple of its slot length, and fills the defaults', () => {
    expect(devnetGenesisSchema.safeParse({ slotLengthMs: 300, blockIntervalMs: 1000 }).success).toBe(false);
    expect(devnetGenesisSchema.safeParse({ slotLengthMs: 150 }).success).toBe(false);
    expect(devnetGenesisSchema.safeParse({ epochLength: 601, blockIntervalMs: 2000 }).success).toBe(false);
    expect(devnetGenesisSchema.safeParse({ initialFunds: [{ address: 'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x', lovelace: '5000000' }] }).success).toBe(false);
    expect(devnetGenesisSchema.parse({})).toMatchObject({ slotLengthMs: 1000, blockIntervalMs: 1000, epochLength: 600, securityParam: 100, protocolParams: {}, initialFunds: [] });
  });

  it('produce makes n blocks at once; pause holds the tip; resume goes on from there', async () => {
    const d = devnet();
    await d.chain.ready();
    d.clock.now += 5_000;
    expect(d.chain.tipHeight()).toBe(5);
    const produced = await d.control.produce(20);
    expect(produced.height).toBe(25);
    // The chain's clock (/health/clock's server_time) is 20 blocks ahead of the wall clock.
    expect(d.chain.now()).toBe(produced.chainTime);
    expect(produced.chainTime - d.clock.now).toBe(20_000);
    expect(d.chain.blockAt(25)!.slot).toBe(25);
    d.control.pause();
    d.clock.now += 60_000;
    expect(d.chain.tipHeight()).toBe(25);
    // Producing while paused makes blocks and leaves the clock stopped.
    expect((await d.control.produce(3)).height).toBe(28);
    d.clock.now += 10_000;
    expect(d.chain.tipHeight()).toBe(28);
    d.control.resume();
    expect(d.chain.tipHeight()).toBe(28);
    d.clock.now += 2_000;
    expect(d.chain.tipHeight()).toBe(30);
    await expect(d.control.produce(0)).rejects.toBeInstanceOf(DevnetRefusal);
    await expect(d.control.produce(10_001)).rejects.toBeInstanceOf(DevnetRefusal);
  });

  it('setBlockInterval changes the rate from the tip on; the blocks made keep their times and slots', async () => {
    const d = devnet();
    await d.chain.ready();
    d.clock.now += 10_000;
    const placed = (h: number) => {
      const b = d.chain.blockAt(h)!;
      return { hash: b.hash, slot: b.slot, time: b.time };
    };
    const before = placed(10);
    d.control.setBlockInterval(5_000);
    d.clock.now += 10_000;
    expect(d.chain.tipHeight()).toBe(12);
    expect(placed(10)).toEqual(before);
    expect(placed(12)).toMatchObject({ slot: 12, time: before.time + 2 });
    d.control.setBlockInterval(100);
    d.clock.now += 1_000;
    expect(d.chain.tipHeight()).toBe(22);
    expect(d.chain.blockAt(22)!.slot).toBe(22);
    expect(() => d.control.setBlockInterval(150)).toThrow(DevnetRefusal);
    expect(() => d.control.setBlockInterval(50)).toThrow(DevnetRefusal);
  });
});

describe('funding, rollback and forks', () => {
  it('fund pays ada and mints tokens under the faucet policy in the next block', async () => {
    const d = devnet();
    await d.chain.ready();
    d.clock.now += 3_000;
    const to = enterpriseAddress('preview', new Uint8Array(28).fill(7));
    const paid = await d.control.fund(to, 25_000_000n, [{ assetName: Buffer.from('DEV').toString('hex'), quantity: 1000n }]);
    expect(paid.height).toBe(4);
    expect(paid.policyId).toBe(d.chain.faucetInfo().policyId);
    expect(d.chain.addressUtxos(to)).toBeNull();
    d.clock.now += 1_000;
    const utxos = d.chain.addressUtxos(to)!;
    expect(utxos).toHaveLength(1);
    expect(utxos[0]!.amount).toEqual([
      { unit: 'lovelace', quantity: '25000000' },
      { unit: `${paid.policyId}${Buffer.from('DEV').toString('hex')}`, quantity: '1000' },
    ]);
    await expect(d.control.fund('addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x', 5_000_000n)).rejects.toThrow(RangeError);
  });

  it('rollback: the chain grows a different branch; its transactions return to the mempool or are dropped', async () => {
    const d = devnet();
    await d.chain.ready();
    d.clock.now += 120_000;
    // A live payment in block 121, then the chain runs on to 130.
    const txHash = await d.chain.submit(pay(d.chain, d.alice, d.bob.address));
    d.clock.now += 9_000;
    expect(d.chain.tipHeight()).toBe(129);
    expect(d.chain.tx(txHash)!.block_height).toBe(121);
    const abandoned = new Map<number, { hash: string; txs: string[] }>();
    for (let h = 100; h <= 129; h++) abandoned.set(h, { hash: d.chain.blockAt(h)!.hash, txs: d.chain.blockTxs(h)! });
    const bgTx = [...abandoned.entries()].filter(([h]) => h > 110).flatMap(([, b]) => b.txs).find((t) => t !== txHash)!;
    expect(bgTx).toBeDefined();

    // A router mounted before the rollback answers from the new branch after it.
    const http = await serve(d.chain);
    servers.push(http);
    const { tip, requeued, dropped } = await d.control.rollback(19, 'mempool');
    expect((await http.get('/blocks/latest')).body).toMatchObject({ height: 110, hash: abandoned.get(110)!.hash });
    expect((await http.get(`/blocks/${abandoned.get(115)!.hash}`)).status).toBe(404);
    expect((await http.get(`/txs/${txHash}`)).status).toBe(404);
    expect(tip.height).toBe(110);
    expect(d.chain.tipHeight()).toBe(110);
    expect(requeued).toEqual([txHash]);
    expect(dropped).toEqual([]);
    // Below the fork nothing changed; the transaction is back in the mempool, for block 111.
    for (let h = 100; h <= 110; h++) expect(d.chain.blockAt(h)!.hash).toBe(abandoned.get(h)!.hash);
    expect(d.chain.tx(txHash)).toBeNull();
    expect(d.chain.blockAt(abandoned.get(120)!.hash)).toBeNull();
    d.clock.now += 19_000;
    expect(d.chain.tipHeight()).toBe(129);
    expect(d.chain.tx(txHash)!.block_height).toBe(111);
    // Above it, another branch: other block hashes, other background transactions; the old ones are unknown.
    for (let h = 111; h <= 129; h++) {
      expect(d.chain.blockAt(h)!.hash).not.toBe(abandoned.get(h)!.hash);
      expect(d.chain.blockAt(abandoned.get(h)!.hash)).toBeNull();
    }
    expect(d.chain.tx(bgTx)).toBeNull();
    const newTxs = Array.from({ length: 19 }, (_, i) => d.chain.blockTxs(111 + i)!).flat();
    expect(newTxs.filter((t) => t !== txHash).every((t) => ![...abandoned.values()].some((b) => b.txs.includes(t)))).toBe(true);
    expect(d.chain.blockAt(111)!.previous_block).toBe(abandoned.get(110)!.hash);
    // The UTXO set is the new branch's: the payment's output exists once, and every address's utxos sum to its amount.
    const bobUtxos = d.chain.addressUtxos(d.bob.address)!;
    expect(bobUtxos.filter((u) => u.tx_hash === txHash)).toHaveLength(1);
    expect(bobUtxos.reduce((n, u) => n + lovelaceOf(u.amount), 0n)).toBe(lovelaceOf(d.chain.address(d.bob.address)!.amount));

    // Dropped: the transaction leaves the chain for good, and its input is unspent again.
    const spent = d.chain.txUtxos(txHash)!.inputs[0]!;
    const again = await d.control.rollback(20, 'drop');
    expect(again.dropped).toEqual([txHash]);
    expect(again.requeued).toEqual([]);
    d.clock.now += 30_000;
    expect(d.chain.tx(txHash)).toBeNull();
    expect(d.chain.addressUtxos(d.alice.address)!.some((u) => u.tx_hash === spent.tx_hash && u.output_index === spent.output_index)).toBe(true);
    await expect(d.control.rollback(0, 'drop')).rejects.toBeInstanceOf(DevnetRefusal);
    await expect(d.control.rollback(d.chain.tipHeight() + 1, 'drop')).rejects.toBeInstanceOf(DevnetRefusal);
  });

  it('a transaction waiting for the next block stays in the mempool, and is dropped once what it spends is rolled back', async () => {
    const d = devnet();
    await d.chain.ready();
    d.clock.now += 10_000;
    const first = await d.chain.submit(pay(d.chain, d.alice, d.bob.address));
    d.clock.now += 1_000;
    expect(d.chain.tx(first)!.block_height).toBe(11);
    // The second spends the first's change and waits for block 12.
    const change = d.chain.txUtxos(first)!.outputs.find((o) => o.address === d.alice.address)!;
    const second = await d.chain.submit(payment({ inputs: [{ ...change, tx_hash: first, tx_index: change.output_index } as never], to: d.bob.address, lovelace: 3_000_000n, change: d.alice.address, signers: [d.aliceKeys.payment] }));
    const kept = await d.control.rollback(1, 'mempool');
    expect(kept).toMatchObject({ requeued: [first, second], dropped: [] });
    d.clock.now += 1_000;
    expect(d.chain.tx(first)!.block_height).toBe(11);
    expect(d.chain.tx(second)!.block_height).toBe(11);
    d.clock.now += 1_000;
    const gone = await d.control.rollback(2, 'drop');
    expect(gone.tip.height).toBe(10);
    expect(gone.requeued).toEqual([]);
    expect(gone.dropped.sort()).toEqual([first, second].sort());
    d.clock.now += 5_000;
    expect(d.chain.tx(first)).toBeNull();
    expect(d.chain.tx(second)).toBeNull();
  });

  it('rolls back 100 blocks, its transactions back to the mempool', async () => {
    const d = devnet();
    await d.chain.ready();
    d.clock.now += 600_000;
    for (let i = 0; i < 5; i++) {
      await d.chain.submit(pay(d.chain, d.alice, d.bob.address, 2_000_000n));
      d.clock.now += 5_000;
    }
    d.chain.latestBlock();
    // What it costs is npm run bench:devnet's to measure (100-block rollback, ≤ 200 ms).
    const r = await d.control.rollback(100, 'mempool');
    d.chain.latestBlock();
    expect(r.requeued).toHaveLength(5);
  });
});

describe('snapshots, reset and restarts', () => {
  it('restore brings back the tip, the ledger and the utxos of a snapshot; what grows after it is new', async () => {
    const d = devnet();
    await d.chain.ready();
    d.clock.now += 20_000;
    const snap = await d.control.snapshot();
    expect(snap.tip).toBe(20);
    const utxo = adaOnlyUtxo(d.chain, d.alice.address);
    const spend = await d.chain.submit(payment({ inputs: [utxo], to: d.bob.address, lovelace: 5_000_000n, change: d.alice.address, signers: [d.aliceKeys.payment] }));
    d.clock.now += 10_000;
    const abandoned = d.chain.blockAt(25)!.hash;
    expect(d.chain.addressUtxos(d.alice.address)!.some((u) => u.tx_hash === utxo.tx_hash && u.output_index === utxo.output_index)).toBe(false);
    const restored = await d.control.restore(JSON.parse(JSON.stringify(snap)));
    expect(restored.height).toBe(20);
    expect(d.chain.tx(spend)).toBeNull();
    expect(d.chain.addressUtxos(d.alice.address)!.some((u) => u.tx_hash === utxo.tx_hash && u.output_index === utxo.output_index)).toBe(true);
    d.clock.now += 5_000;
    expect(d.chain.blockAt(25)!.hash).not.toBe(abandoned);
    expect(d.chain.tx(spend)).toBeNull();
    // The same output can be spent again on the new branch.
    await d.chain.submit(payment({ inputs: [utxo], to: d.bob.address, lovelace: 6_000_000n, change: d.alice.address, signers: [d.aliceKeys.payment] }));
    await expect(d.control.restore({ ...snap, state: { ...snap.state, seed: 'other' } })).rejects.toBeInstanceOf(DevnetRefusal);
    await expect(d.control.restore({ nonsense: true } as never)).rejects.toBeInstanceOf(DevnetRefusal);
  });

  it('reset is genesis again: block 0 onwards differ, only the genesis funds exist', async () => {
    const d = devnet();
    await d.chain.ready();
    d.clock.now += 10_000;
    const to = enterpriseAddress('preview', new Uint8Array(28).fill(9));
    await d.control.fund(to, 5_000_000n);
    d.clock.now += 5_000;
    const old = [0, 1, 5].map((h) => d.chain.blockAt(h)!.hash);
    const tip = await d.control.reset();
    expect(tip.height).toBe(0);
    expect(d.chain.genesis().system_start).toBe((T0 + 15_000) / 1000);
    d.clock.now += 10_000;
    expect([0, 1, 5].map((h) => d.chain.blockAt(h)!.hash).some((h, i) => h === old[i])).toBe(false);
    expect(d.chain.addressUtxos(to)).toBeNull();
    expect(lovelaceOf(d.chain.address(d.alice.address)!.amount)).toBe(11_000_000_000n);
  });

  it('a saved state and the same store rebuild the same chain after a restart', async () => {
    const d = devnet();
    await d.chain.ready();
    d.clock.now += 50_000;
    await d.chain.submit(pay(d.chain, d.alice, d.bob.address));
    await d.control.produce(10);
    await d.control.rollback(5, 'mempool');
    d.control.pause();
    d.control.setBlockInterval(2_000);
    d.control.resume();
    d.clock.now += 8_000;
    const saved = JSON.parse(JSON.stringify(d.control.state()));
    const again = createDevnet({ id: 'p1', state: saved, store: d.store, now: () => d.clock.now });
    await again.chain.ready();
    expect(again.chain.tipHeight()).toBe(d.chain.tipHeight());
    for (let h = 0; h <= d.chain.tipHeight(); h += 7) expect(again.chain.blockAt(h)).toEqual(d.chain.blockAt(h));
    expect(again.chain.latestBlock()).toEqual(d.chain.latestBlock());
    expect(again.chain.addressUtxos(d.bob.address)).toEqual(d.chain.addressUtxos(d.bob.address));
    d.clock.now += 20_000;
    expect(again.chain.tipHeight()).toBe(d.chain.tipHeight());
  });

  it('a second process on the same store follows the first by reloading its saved state', async () => {
    const d = devnet();
    await d.chain.ready();
    const other = createDevnet({ id: 'p1', state: d.control.state(), store: d.store, now: () => d.clock.now });
    await other.chain.ready();
    d.clock.now += 30_000;
    const paid = await d.control.fund(d.bob.address, 3_000_000n);
    d.clock.now += 2_000;
    await d.control.rollback(2, 'mempool');
    await d.control.produce(4);
    expect(other.chain.latestBlock().hash).not.toBe(d.chain.latestBlock().hash);
    await other.control.reload(d.control.state());
    expect(other.chain.latestBlock()).toEqual(d.chain.latestBlock());
    expect(other.chain.tx(paid.txHash)).toEqual(d.chain.tx(paid.txHash));
    await expect(other.control.reload({ ...d.control.state(), seed: 'another' })).rejects.toBeInstanceOf(DevnetRefusal);
  });
});

describe('time travel and the genesis parameters', () => {
  it('advance moves by slots or to the next epoch; a delegation earns its rewards across a 10-epoch jump', async () => {
    const d = devnet();
    await d.chain.ready();
    d.clock.now += 5_000;
    expect((await d.control.advance({ slots: 7 })).height).toBe(12);
    expect((await d.control.advance({ toNextEpoch: true })).height).toBe(600);
    expect(d.chain.latestEpoch().epoch).toBe(1);
    d.clock.now += 2_000;
    const pool = producingPool(d.chain);
    const stake = d.alice.stakeAddress;
    await d.chain.submit(stakeTx({ inputs: [adaOnlyUtxo(d.chain, d.alice.address)], change: d.alice.address, keys: d.aliceKeys, networkId: 0, certs: [{ kind: 'register' }, { kind: 'delegate', pool }] }));
    await d.control.produce(1);
    expect(d.chain.accountRewards(stake)).toEqual([]);
    // What it costs is npm run bench:devnet's to measure (10-epoch jump, ≤ 1 s).
    for (let i = 0; i < 10; i++) await d.control.advance({ toNextEpoch: true });
    const rewards = d.chain.accountRewards(stake)!;
    const epoch = d.chain.latestEpoch();
    expect(epoch.epoch).toBe(11);
    expect(d.chain.tipHeight()).toBe(11 * 600);
    // Delegated in epoch 1, active in 3; rewards for epochs 3 to 9 are credited by the start of 11.
    expect(rewards.map((r) => r.epoch)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(BigInt(d.chain.account(stake)!.withdrawable_amount)).toBeGreaterThan(0n);
  });

  it('protocol parameter overrides show in /epochs/latest/parameters and the ledger enforces them', async () => {
    const d = devnet({ genesis: { protocolParams: { min_fee_a: 100, key_deposit: '5000000', coins_per_utxo_size: '4310', gov_action_lifetime: 2, drep_deposit: '10000000' } } });
    await d.chain.ready();
    d.clock.now += 5_000;
    const params = d.chain.parameters(d.chain.latestEpoch().epoch)!;
    expect(params).toMatchObject({ min_fee_a: 100, key_deposit: '5000000', min_fee_b: 155_381, gov_action_lifetime: '2', drep_deposit: '10000000' });
    // A payment paying the default network's fee is short of 100 × size + 155381.
    const err = await d.chain.submit(pay(d.chain, d.alice, d.bob.address)).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerRefusal);
    expect((err as Error).message).toMatch(/100 × size \+ 155381/);
    const fee = 200_000n + 100n * 400n;
    const ok = await d.chain.submit(payment({ inputs: [adaOnlyUtxo(d.chain, d.alice.address)], to: d.bob.address, lovelace: 5_000_000n, change: d.alice.address, signers: [d.aliceKeys.payment], fee }));
    expect(ok).toMatch(/^[0-9a-f]{64}$/);
    // The stake key deposit is the genesis' 5 ada.
    d.clock.now += 1_000;
    // stakeTx pays the default 2 ada: the ledger counts the genesis' 5 ada, so 3 ada are missing.
    const depositErr = await d.chain.submit(stakeTx({ inputs: [adaOnlyUtxo(d.chain, d.bob.address)], change: d.bob.address, keys: keysOf(d.bob.mnemonic), networkId: 0, certs: [{ kind: 'register' }] })).then(() => null, (e: unknown) => e);
    const [, held, owed] = /hold (\d+) lovelace, outputs \+ fee \+ deposits (\d+)/.exec((depositErr as Error).message)!;
    expect(BigInt(owed!) - BigInt(held!)).toBe(3_000_000n);
    // The faucet pays the devnet's fees.
    await d.control.fund(d.bob.address, 2_000_000n);
  });

  it('Mesh SDK reads the overrides and the slot configuration from the devnet and builds what its ledger accepts', async () => {
    const d = devnet({ genesis: { slotLengthMs: 200, blockIntervalMs: 200, epochLength: 300, protocolParams: { min_fee_a: 60, min_fee_b: 200_000 } } });
    await d.chain.ready();
    const http = await serve(d.chain);
    servers.push(http);
    d.clock.now += 20_000;
    const provider = new BlockfrostProvider(http.base);
    const params = await provider.fetchProtocolParameters();
    expect(params).toMatchObject({ minFeeA: 60, minFeeB: 200_000 });
    const genesis = (await http.get('/genesis')).body;
    const slotConfig = { zeroTime: genesis.system_start * 1000, zeroSlot: 0, slotLength: genesis.slot_length * 1000, startEpoch: 0, epochLength: genesis.epoch_length };
    const wallet = new MeshWallet({ networkId: 0, fetcher: provider, submitter: provider, key: { type: 'mnemonic', words: d.alice.mnemonic.split(' ') } });
    await wallet.init();
    const now = unixTimeToEnclosingSlot(d.clock.now, slotConfig);
    const unsigned = await new MeshTxBuilder({ fetcher: provider, params })
      .txOut(d.bob.address, [{ unit: 'lovelace', quantity: '7654321' }])
      .invalidBefore(now)
      .invalidHereafter(now + 50)
      .changeAddress(d.alice.address)
      .selectUtxosFrom(await wallet.getUtxos())
      .complete();
    const hash = await wallet.submitTx(await wallet.signTx(unsigned));
    d.clock.now += 200;
    const tx = d.chain.tx(hash)!;
    expect(tx).toMatchObject({ block_height: 101, invalid_before: String(now), invalid_hereafter: String(now + 50) });
    expect(BigInt(tx.fees)).toBeGreaterThanOrEqual(60n * BigInt(tx.size) + 200_000n);
  });

  it('initial funds are paid in the genesis transaction and are spendable', async () => {
    const key = CSL.PrivateKey.from_normal_bytes(new Uint8Array(32).fill(3));
    const address = CSL.EnterpriseAddress.new(0, CSL.Credential.from_keyhash(key.to_public().hash())).to_address().to_bech32(undefined);
    const d = devnet({ genesis: { initialFunds: [{ address, lovelace: '1234000000' }] } });
    await d.chain.ready();
    d.clock.now += 2_000;
    const utxos = d.chain.addressUtxos(address)!;
    expect(utxos.map((u) => u.amount)).toEqual([[{ unit: 'lovelace', quantity: '1234000000' }]]);
    expect(utxos[0]!.block).toBe(d.chain.blockAt(0)!.hash);
    const spent = await d.chain.submit(payment({ inputs: utxos, to: d.bob.address, lovelace: 1_000_000_000n, change: address, signers: [key] }));
    d.clock.now += 1_000;
    expect(d.chain.tx(spent)).not.toBeNull();
    expect(lovelaceOf(d.chain.address(address)!.amount)).toBeLessThan(234_000_000n);
  });

  it('initial DReps are registered by the genesis transaction and vote with their key', async () => {
    const clock0 = devnet();
    const keys = govKeysOf(clock0.alice.mnemonic);
    const hex = keyHashOf(keys.drep);
    const d = devnet({ genesis: { epochLength: 60, protocolParams: { drep_deposit: '2000000' }, initialDReps: [{ credential: hex }] } });
    await d.chain.ready();
    const http = await serve(d.chain);
    servers.push(http);
    d.clock.now += 200_000;
    const id = drepId(hex, false);
    const drep = (await http.get(`/governance/dreps/${id}`)).body;
    expect(drep).toMatchObject({ drep_id: id, hex, active: true, active_epoch: 0, retired: false });
    assertSchema('/governance/dreps/{drep_id}', drep);
    // An open proposal of the chain's world takes the DRep's vote.
    const proposals = (await http.get('/governance/proposals?order=desc&count=20')).body as Array<{ tx_hash: string; cert_index: number }>;
    const open = [];
    for (const p of proposals) {
      const full = (await http.get(`/governance/proposals/${p.tx_hash}/${p.cert_index}`)).body;
      if (full.expired_epoch === null && full.ratified_epoch === null && full.dropped_epoch === null && full.enacted_epoch === null) open.push(p);
    }
    expect(open.length).toBeGreaterThan(0);
    const voted = await d.chain.submit(govTx({ inputs: [adaOnlyUtxo(d.chain, d.alice.address)], change: d.alice.address, signers: [keys.payment, keys.drep], votes: drepVote(CSL.VotingProcedures.new(), keys.drep, open[0]!.tx_hash, open[0]!.cert_index, CSL.VoteKind.Yes) }));
    d.clock.now += 1_000;
    const votes = (await http.get(`/governance/proposals/${open[0]!.tx_hash}/${open[0]!.cert_index}/votes`)).body;
    expect(votes).toContainEqual(expect.objectContaining({ tx_hash: voted, voter_role: 'drep', voter: id, vote: 'yes' }));
    expect(devnetGenesisSchema.safeParse({ initialDReps: [{ credential: hex }, { credential: hex.toUpperCase() }] }).success).toBe(false);
  });
});
