import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseShelleyAddress, stakeAddressOf } from '../../../../../shared/cardano/address';
import { assetFingerprint } from '../../../../../shared/cardano/fingerprint';
import {
  createSandboxChain,
  DEFAULT_ADDRESS_WINDOW_BLOCKS,
  DEFAULT_BLOCKS_PER_EPOCH,
  DEFAULT_GENESIS_TIME,
  type SandboxChain,
  type TxDetails,
} from '../../../../../server/sandbox/chain/index';
import { chainDigest } from '../../../../fixtures/chain/digest';
import { keysOf } from './tx-builder';
import { devWallets } from '../../../../../server/sandbox/chain/wallets';
import { assertSchema, testChain, TEST_NOW } from './support';

const INTERVAL = 20_000;

function details(chain: SandboxChain, from: number, to: number): TxDetails[][] {
  const out: TxDetails[][] = [];
  for (let h = from; h <= to; h++) out.push(chain.blockTxDetails(h)!);
  return out;
}

describe('determinism', () => {
  it('two instances with the same options serve identical blocks and transactions', () => {
    const a = testChain().chain;
    const b = testChain().chain;
    const tip = a.tipHeight();
    // b is asked in another order and starts far away, so caches differ
    expect(b.blockAt(7)).toEqual(a.blockAt(7));
    for (let h = tip; h > tip - 90; h -= 3) expect(JSON.stringify(b.blockTxDetails(h))).toBe(JSON.stringify(a.blockTxDetails(h)));
    expect(JSON.stringify(details(b, tip - 90, tip))).toBe(JSON.stringify(details(a, tip - 90, tip)));
    expect(b.latestEpoch()).toEqual(a.latestEpoch());
    expect(b.catalog()).toEqual(a.catalog());
    const pool = a.catalog().pools[2]!;
    expect(b.pool(pool)).toEqual(a.pool(pool));
  });

  it('answers the blocks of the segment the tip is in as the whole segment does', () => {
    // The tip half-way through a segment: one chain answers its blocks first (the segment simulated
    // through the tip only), the other reads an address first (the segment simulated whole).
    const now = DEFAULT_GENESIS_TIME + (60 * 300 + 37) * INTERVAL;
    const partly = testChain({ now: () => now }).chain;
    const whole = testChain({ now: () => now }).chain;
    const tip = partly.tipHeight();
    expect(tip % 60).toBe(37);
    whole.addressTransactions(whole.catalog().addresses[0]!.address);
    expect(JSON.stringify(partly.latestBlock())).toBe(JSON.stringify(whole.latestBlock()));
    const ours = details(partly, tip - 37, tip);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(details(whole, tip - 37, tip)));
    for (const tx of ours.flat().slice(0, 40)) expect(partly.txUtxos(tx.tx.hash)).toEqual(whole.txUtxos(tx.tx.hash));
  });

  it('another process computes the same chain', () => {
    const script = fileURLToPath(new URL('../../../../fixtures/chain/digest.ts', import.meta.url));
    const args = [String(TEST_NOW), 'preview', '0', '40'];
    const child = execFileSync(process.execPath, ['--import', 'tsx', script, 'print', ...args], { encoding: 'utf8', timeout: 60_000 });
    expect(child).toMatch(/^[0-9a-f]{64}$/);
    expect(child).toBe(chainDigest(TEST_NOW, 'preview', 0, 40));
  });

  it('seed and network change everything', () => {
    const base = testChain().chain;
    const seeded = testChain({ seed: 'other' }).chain;
    const preview = testChain({ network: 'preview' }).chain;
    const h = base.tipHeight() - 4;
    expect(seeded.blockAt(h)!.hash).not.toBe(base.blockAt(h)!.hash);
    expect(preview.blockAt(h)!.hash).not.toBe(base.blockAt(h)!.hash);
    expect(seeded.catalog().pools[0]).not.toBe(base.catalog().pools[0]);
  });

  it('uses the documented defaults', () => {
    const chain = createSandboxChain({ network: 'mainnet', now: () => TEST_NOW });
    expect(chain.params).toMatchObject({
      genesisTime: DEFAULT_GENESIS_TIME,
      blockIntervalMs: 20_000,
      blocksPerEpoch: 30,
      addressWindowBlocks: 720,
      slotsPerBlock: 20,
      networkMagic: 764824073,
    });
    expect(DEFAULT_GENESIS_TIME).toBe(Date.UTC(2025, 0, 1));
    expect(chain.tipHeight()).toBe(Math.floor((TEST_NOW - DEFAULT_GENESIS_TIME) / 20_000));
    // an epoch switch every 10 minutes at 20 s blocks
    expect(DEFAULT_BLOCKS_PER_EPOCH * 20).toBe(600);
    expect(chain.epochOfHeight(chain.tipHeight())).toBeGreaterThan(3);
  });
});

describe('time', () => {
  it('advancing the clock by one interval makes exactly one more block', () => {
    const { chain, clock } = testChain();
    const before = chain.latestBlock();
    clock.now += INTERVAL - 1;
    expect(chain.latestBlock()).toEqual(before);
    clock.now += 1;
    const after = chain.latestBlock();
    expect(after.height).toBe(before.height! + 1);
    expect(after.time - before.time).toBe(INTERVAL / 1000);
    expect(after.slot! - before.slot!).toBe(INTERVAL / 1000);
    expect(after.previous_block).toBe(before.hash);
    const old = chain.blockAt(before.hash)!;
    expect(old.next_block).toBe(after.hash);
    expect(old.confirmations).toBe(1);
    clock.now += 5 * INTERVAL;
    expect(chain.latestBlock().height).toBe(before.height! + 6);
    expect(chain.blockAt(before.height!)!.confirmations).toBe(6);
    expect(chain.now()).toBe(clock.now);
  });

  it('honours a custom interval and genesis', () => {
    let now = Date.UTC(2026, 5, 1);
    const chain = createSandboxChain({ network: 'preview', blockIntervalMs: 1000, genesisTime: now - 10_500, now: () => now });
    expect(chain.tipHeight()).toBe(10);
    now += 1000;
    expect(chain.latestBlock().height).toBe(11);
    expect(chain.blockAt(0)!.time).toBe(Math.floor((Date.UTC(2026, 5, 1) - 10_500) / 1000));
  });

  // What a fresh chain costs to its first answers is bench:devnet's to measure (creation to first answer).
  it('a fresh chain answers any height at once: blocks are made per segment, not from genesis', () => {
    const chain = createSandboxChain({ network: 'mainnet', now: () => TEST_NOW });
    const tip = chain.latestBlock();
    expect(tip.height).toBe(chain.tipHeight());
    expect(chain.blockAt(chain.tipHeight() - 5000)).toMatchObject({ height: chain.tipHeight() - 5000 });
    expect(chain.blockAt(12)).toMatchObject({ height: 12 });
  });
});

describe('hash linkage and confirmations', () => {
  it('previous_block and next_block chain consecutive blocks', () => {
    const { chain } = testChain();
    const tip = chain.tipHeight();
    const blocks = [];
    for (let h = tip - 150; h <= tip; h++) blocks.push(chain.blockAt(h)!);
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i]!;
      expect(b.confirmations).toBe(tip - b.height!);
      expect(b.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(chain.blockAt(b.hash)).toEqual(b);
      expect(chain.blockAt(String(b.height))).toEqual(b);
      if (i > 0) expect(b.previous_block).toBe(blocks[i - 1]!.hash);
      if (i < blocks.length - 1) expect(b.next_block).toBe(blocks[i + 1]!.hash);
    }
    expect(blocks[blocks.length - 1]!.next_block).toBeNull();
    expect(chain.blockAt(0)!.previous_block).toBeNull();
    expect(chain.blockAt(1)!.previous_block).toBe(chain.blockAt(0)!.hash);
    expect(new Set(blocks.map((b) => b.hash)).size).toBe(blocks.length);
  });

  it('transactions point at their block and are found by hash', () => {
    const { chain } = testChain();
    const h = chain.tipHeight() - 12;
    const block = chain.blockAt(h)!;
    const all = chain.blockTxDetails(h)!;
    expect(all.map((d) => d.tx.hash)).toEqual(chain.blockTxs(block.hash));
    all.forEach((d, i) => {
      expect(d.tx).toMatchObject({ block: block.hash, block_height: h, block_time: block.time, slot: block.slot, index: i });
      expect(chain.tx(d.tx.hash)).toEqual(d.tx);
      expect(chain.txUtxos(d.tx.hash)).toEqual({ hash: d.tx.hash, inputs: d.inputs, outputs: d.outputs });
      expect(chain.txDetails(d.tx.hash)).toEqual(d);
    });
  });
});

describe('ledger consistency', () => {
  it('inputs spend real earlier outputs once, and every transaction balances', () => {
    const { chain } = testChain();
    const tip = chain.tipHeight();
    const spent = new Set<string>();
    let checked = 0;
    for (let h = tip - 130; h <= tip; h++) {
      for (const d of chain.blockTxDetails(h)!) {
        const sums = (rows: Array<{ amount: Array<{ unit: string; quantity: string }> }>) => {
          const m = new Map<string, bigint>();
          for (const r of rows) for (const a of r.amount) m.set(a.unit, (m.get(a.unit) ?? 0n) + BigInt(a.quantity));
          return m;
        };
        const ins = sums(d.inputs);
        const outs = sums(d.outputs);
        const fee = BigInt(d.tx.fees);
        const deposit = BigInt(d.tx.deposit);
        expect(fee).toBeGreaterThan(0n);
        if (d.tx.withdrawal_count === 0) expect(ins.get('lovelace')).toBe(outs.get('lovelace')! + fee + deposit);
        else expect(ins.get('lovelace') ?? 0n).toBeLessThan(outs.get('lovelace')! + fee + deposit);
        if (d.tx.asset_mint_or_burn_count === 0) {
          for (const [unit, q] of outs) if (unit !== 'lovelace') expect(ins.get(unit)).toBe(q);
        }
        expect(d.tx.output_amount).toEqual([...outs.entries()].sort(([a], [b]) => (a === 'lovelace' ? -1 : b === 'lovelace' ? 1 : a < b ? -1 : 1)).map(([unit, q]) => ({ unit, quantity: String(q) })));
        for (const input of d.inputs) {
          const key = `${input.tx_hash}#${input.output_index}`;
          expect(spent.has(key)).toBe(false);
          spent.add(key);
          const source = chain.txUtxos(input.tx_hash)!;
          const output = source.outputs[input.output_index]!;
          expect(output.address).toBe(input.address);
          expect(output.amount).toEqual(input.amount);
          expect(output.consumed_by_tx).toBe(d.tx.hash);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('consumed_by_tx appears only once the spending block is made', () => {
    const { chain, clock } = testChain();
    const tip = chain.tipHeight();
    // find an output that exists now and is spent by one of the next blocks
    const ahead = testChain({ now: () => TEST_NOW + 10 * INTERVAL }).chain;
    let target: { tx: string; index: number; spender: string; height: number } | null = null;
    for (let h = tip + 1; h <= tip + 10 && !target; h++) {
      for (const d of ahead.blockTxDetails(h)!) {
        const input = d.inputs.find((i) => chain.tx(i.tx_hash) !== null);
        if (input) {
          target = { tx: input.tx_hash, index: input.output_index, spender: d.tx.hash, height: h };
          break;
        }
      }
    }
    expect(target).not.toBeNull();
    clock.now = TEST_NOW + (target!.height - tip - 1) * INTERVAL;
    expect(chain.txUtxos(target!.tx)!.outputs[target!.index]!.consumed_by_tx).toBeNull();
    clock.now += INTERVAL;
    expect(chain.txUtxos(target!.tx)!.outputs[target!.index]!.consumed_by_tx).toBe(target!.spender);
  });
});

describe('epochs', () => {
  it('switch every blocksPerEpoch blocks with consistent boundaries and sums', () => {
    const { chain } = testChain();
    const tip = chain.tipHeight();
    const E = chain.params.blocksPerEpoch;
    const current = chain.epochOfHeight(tip);
    const boundary = current * E;
    const first = chain.blockAt(boundary)!;
    const last = chain.blockAt(boundary - 1)!;
    expect(first.epoch).toBe(current);
    expect(first.epoch_slot).toBe(0);
    expect(last.epoch).toBe(current - 1);
    expect(last.epoch_slot).toBe((E - 1) * chain.params.slotsPerBlock);

    const done = chain.epoch(current - 1)!;
    assertSchema('/epochs/{number}', done);
    expect(done.block_count).toBe(E);
    expect(done.first_block_time).toBe(chain.blockAt(boundary - E)!.time);
    expect(done.last_block_time).toBe(last.time);
    expect(done.end_time - done.start_time).toBe((E * INTERVAL) / 1000);
    expect(done.end_time).toBe(first.time);
    let txs = 0;
    let output = 0n;
    let fees = 0n;
    for (let h = boundary - E; h < boundary; h++) {
      const b = chain.blockAt(h)!;
      txs += b.tx_count;
      output += BigInt(b.output ?? 0);
      fees += BigInt(b.fees ?? 0);
    }
    expect(done).toMatchObject({ tx_count: txs, output: String(output), fees: String(fees) });

    const latest = chain.latestEpoch();
    expect(latest.epoch).toBe(current);
    expect(latest.block_count).toBe(tip - boundary + 1);
    expect(latest.last_block_time).toBe(chain.latestBlock().time);
    expect(chain.epoch(current + 1)).toBeNull();
    expect(chain.epochBounds(current + 1).start_time).toBe(latest.end_time);
  });

  it('the latest epoch changes when the clock crosses the boundary', () => {
    const E = DEFAULT_BLOCKS_PER_EPOCH;
    const start = DEFAULT_GENESIS_TIME + 5000 * E * INTERVAL;
    let now = start - INTERVAL;
    const chain = createSandboxChain({ network: 'preview', now: () => now });
    expect(chain.latestEpoch().epoch).toBe(4999);
    expect(chain.latestEpoch().block_count).toBe(E);
    now = start;
    expect(chain.latestEpoch().epoch).toBe(5000);
    expect(chain.latestEpoch().block_count).toBe(1);
    expect(chain.latestBlock().epoch_slot).toBe(0);
  });

  it('short test epochs', () => {
    const chain = createSandboxChain({ network: 'preprod', blocksPerEpoch: 10, now: () => TEST_NOW });
    const tip = chain.tipHeight();
    expect(chain.latestEpoch().epoch).toBe(Math.floor(tip / 10));
    expect(chain.epoch(3)!.block_count).toBe(10);
  });
});

describe('pools and slot leaders', () => {
  it('blocks_epoch counts the blocks each pool led in the current epoch', () => {
    const E = DEFAULT_BLOCKS_PER_EPOCH;
    const chain = createSandboxChain({ network: 'preprod', now: () => DEFAULT_GENESIS_TIME + (4000 * E + E - 1) * INTERVAL });
    const tip = chain.tipHeight();
    const led = new Map<string, number>();
    for (let h = tip - E + 1; h <= tip; h++) {
      const leader = chain.blockAt(h)!.slot_leader;
      led.set(leader, (led.get(leader) ?? 0) + 1);
    }
    expect(led.size).toBeGreaterThanOrEqual(5);
    let total = 0;
    for (const id of chain.catalog().pools) {
      const pool = chain.pool(id)!;
      expect(pool.blocks_epoch).toBe(led.get(id) ?? 0);
      expect(pool.blocks_minted).toBeGreaterThanOrEqual(pool.blocks_epoch);
      total += pool.blocks_epoch;
    }
    expect(total).toBe(E);
  });

  it('blocks_minted grows by one for the leader of each new block', () => {
    const { chain, clock } = testChain();
    for (let step = 0; step < 5; step++) {
      const before = new Map(chain.catalog().pools.map((id) => [id, chain.pool(id)!.blocks_minted]));
      clock.now += INTERVAL;
      const leader = chain.latestBlock().slot_leader;
      for (const id of chain.catalog().pools) expect(chain.pool(id)!.blocks_minted - before.get(id)!).toBe(id === leader ? 1 : 0);
    }
  });

  it('delegations embed the pool object and become active two epochs later', () => {
    const { chain } = testChain();
    const tip = chain.tipHeight();
    let seen = 0;
    for (let h = tip - 60; h <= tip; h++) {
      for (const d of chain.blockTxDetails(h)!) {
        for (const del of d.delegations) {
          const { pool, ...plain } = del;
          expect(pool).toEqual(chain.pool(del.pool_id));
          expect(chain.txDelegations(d.tx.hash)).toContainEqual(plain);
          expect(del.active_epoch).toBe(chain.epochOfHeight(h) + 2);
          expect(chain.addressesOfStake(del.address).length).toBeGreaterThan(0);
          seen++;
        }
        expect(d.delegations.length).toBe(d.tx.delegation_count);
      }
    }
    expect(seen).toBeGreaterThan(5);
  });
});

describe('addresses, prefixes and assets', () => {
  it("gives each development wallet the keys a wallet derives from its mnemonic", () => {
    const wallets = devWallets(new Uint8Array(32).fill(7), 'preview');
    expect(wallets).toHaveLength(3);
    for (const w of wallets) {
      const keys = keysOf(w.mnemonic);
      expect(Buffer.from(w.paymentKey.as_bytes()).toString('hex')).toBe(Buffer.from(keys.payment.as_bytes()).toString('hex'));
      expect(Buffer.from(w.stakeKey.as_bytes()).toString('hex')).toBe(Buffer.from(keys.stake.as_bytes()).toString('hex'));
    }
  });

  it.each([
    ['mainnet', 'addr1', 'stake1', 'mainnet'],
    ['preprod', 'addr_test1', 'stake_test1', 'testnet'],
    ['preview', 'addr_test1', 'stake_test1', 'testnet'],
  ] as const)('%s uses %s… and %s…', (network, addr, stake, headerNetwork) => {
    const chain = createSandboxChain({ network, now: () => TEST_NOW });
    const catalog = chain.catalog();
    expect(catalog.addresses.length).toBeGreaterThan(300);
    for (const a of catalog.addresses) {
      expect(a.address.startsWith(addr)).toBe(true);
      expect(parseShelleyAddress(a.address)!.network).toBe(headerNetwork);
      expect(stakeAddressOf(a.address)).toBe(a.stakeAddress);
    }
    for (const s of catalog.stakeAddresses) expect(s.startsWith(stake)).toBe(true);
    for (const p of catalog.pools) expect(p).toMatch(/^pool1[02-9ac-hj-np-z]{51}$/);
    const block = chain.latestBlock();
    expect(block.slot_leader).toMatch(/^pool1/);
    expect(block.block_vrf).toMatch(/^vrf_vk1/);
    for (const d of chain.blockTxDetails(chain.tipHeight() - 1)!) {
      for (const o of [...d.inputs, ...d.outputs]) expect(o.address.startsWith(addr)).toBe(true);
    }
  });

  it('fingerprints are CIP-14 fingerprints of the policy and name', () => {
    const { chain } = testChain();
    const assets = chain.catalog().assets;
    expect(new Set(assets.map((a) => a.policyId)).size).toBeGreaterThanOrEqual(5);
    for (const a of assets) {
      expect(a.fingerprint).toBe(assetFingerprint(a.policyId, a.assetName));
      expect(a.unit).toBe(a.policyId + a.assetName);
      expect(chain.asset(a.unit)!.fingerprint).toBe(a.fingerprint);
    }
  });

  it('the faucet distribution mints what the asset counters say', () => {
    const { chain, clock } = testChain();
    const L = chain.params.segmentLength;
    // move the clock to the block before the next segment start
    const next = (Math.floor(chain.tipHeight() / L) + 1) * L;
    clock.now = chain.params.genesisTime + (next - 1) * INTERVAL;
    let segmentStart = next;
    const counts = () => new Map(chain.catalog().assets.map((a) => [a.unit, chain.asset(a.unit)!]));
    for (let tries = 0; tries < 30; tries++) {
      const before = counts();
      clock.now += INTERVAL;
      const dist = chain.blockTxDetails(segmentStart)![0]!;
      const after = counts();
      const grown = [...after.values()].filter((a) => a.mint_or_burn_count === before.get(a.asset)!.mint_or_burn_count + 1);
      expect(dist.tx.asset_mint_or_burn_count).toBe(grown.length);
      for (const a of grown) {
        const minted = BigInt(a.quantity) - BigInt(before.get(a.asset)!.quantity);
        const out = dist.outputs.flatMap((o) => o.amount).find((x) => x.unit === a.asset)!;
        expect(BigInt(out.quantity)).toBe(minted);
      }
      if (grown.length > 0) return;
      clock.now += (L - 1) * INTERVAL;
      segmentStart += L;
    }
    throw new Error('no asset was minted again within 30 segments');
  });

  it('address history covers the address window only, and balances are its unspent outputs', () => {
    const { chain } = testChain();
    const tip = chain.tipHeight();
    const low = tip - DEFAULT_ADDRESS_WINDOW_BLOCKS + 1;
    const busiest = chain
      .catalog()
      .addresses.slice(0, 120)
      .map((a) => ({ a: a.address, rows: chain.addressTransactions(a.address)! }))
      .sort((x, y) => y.rows.length - x.rows.length)[0]!;
    expect(busiest.rows.length).toBeGreaterThan(5);
    let lovelace = 0n;
    for (const row of busiest.rows) {
      expect(row.block_height).toBeGreaterThanOrEqual(low);
      expect(row.block_height).toBeLessThanOrEqual(tip);
      const utxos = chain.txUtxos(row.tx_hash)!;
      expect([...utxos.inputs, ...utxos.outputs].some((x) => x.address === busiest.a)).toBe(true);
      for (const o of utxos.outputs) if (o.address === busiest.a && o.consumed_by_tx === null) lovelace += BigInt(o.amount[0]!.quantity);
    }
    expect(chain.address(busiest.a)!.amount[0]).toEqual({ unit: 'lovelace', quantity: String(lovelace) });
  });
});

describe('variety over 200 blocks', () => {
  it('has what every webhook condition needs', () => {
    const { chain } = testChain();
    const tip = chain.tipHeight();
    const blocks = [];
    const txs: TxDetails[] = [];
    for (let h = tip - 199; h <= tip; h++) {
      blocks.push(chain.blockAt(h)!);
      txs.push(...chain.blockTxDetails(h)!);
    }
    const counts = blocks.map((b) => b.tx_count);
    expect(counts.filter((n) => n === 0).length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(30);
    for (const b of blocks.filter((x) => x.tx_count === 0)) expect(b).toMatchObject({ output: null, fees: null });
    expect(new Set(blocks.map((b) => b.size)).size).toBeGreaterThan(100);
    expect(new Set(blocks.map((b) => b.fees)).size).toBeGreaterThan(100);
    expect(new Set(blocks.map((b) => b.slot_leader)).size).toBeGreaterThanOrEqual(8);

    expect(new Set(txs.map((t) => t.tx.fees)).size).toBeGreaterThan(200);
    expect(txs.some((t) => t.inputs.length >= 3 && t.outputs.length >= 3)).toBe(true);
    expect(txs.some((t) => t.outputs.length >= 20)).toBe(true);

    const tokenOutputs = txs.flatMap((t) => t.outputs).filter((o) => o.amount.length > 1);
    expect(tokenOutputs.length).toBeGreaterThan(20);
    const units = new Set(tokenOutputs.flatMap((o) => o.amount.slice(1).map((a) => a.unit)));
    expect(units.size).toBeGreaterThanOrEqual(5);
    expect(new Set([...units].map((u) => u.slice(0, 56))).size).toBeGreaterThanOrEqual(4);
    expect(tokenOutputs.some((o) => o.amount.length > 2)).toBe(true);

    const delegations = txs.flatMap((t) => t.delegations);
    expect(delegations.length).toBeGreaterThanOrEqual(20);
    expect(new Set(delegations.map((d) => d.pool_id)).size).toBeGreaterThanOrEqual(8);
    expect(txs.some((t) => t.tx.stake_cert_count > 0 && BigInt(t.tx.deposit) > 0n)).toBe(true);
    expect(txs.some((t) => t.tx.withdrawal_count > 0)).toBe(true);
    expect(txs.some((t) => t.tx.redeemer_count > 0)).toBe(true);
    expect(txs.some((t) => t.outputs.some((o) => o.inline_datum !== null))).toBe(true);
    expect(txs.some((t) => t.outputs.some((o) => o.data_hash !== null))).toBe(true);

    // stake keys seen with several of their base addresses, as senders and as recipients
    const byStake = new Map<string, { sent: Set<string>; received: Set<string> }>();
    for (const t of txs) {
      for (const [rows, side] of [[t.inputs, 'sent'], [t.outputs, 'received']] as const) {
        for (const r of rows) {
          const stake = stakeAddressOf(r.address);
          if (!stake) continue;
          const entry = byStake.get(stake) ?? { sent: new Set(), received: new Set() };
          entry[side].add(r.address);
          byStake.set(stake, entry);
        }
      }
    }
    const multi = [...byStake.values()].filter((e) => e.received.size >= 2);
    expect(multi.length).toBeGreaterThanOrEqual(10);
    expect([...byStake.values()].filter((e) => e.sent.size >= 2).length).toBeGreaterThanOrEqual(3);
    expect(txs.some((t) => t.outputs.some((o) => parseShelleyAddress(o.address)!.stakeHash === null))).toBe(true);
  });
});
