// The UTXO set kept block by block (unspent.ts) against the set rebuilt from nothing at every tip.
import { describe, expect, it } from 'vitest';
import { poolBook } from '../../../../../server/sandbox/chain/pools';
import { PROTOCOL } from '../../../../../server/sandbox/chain/protocol';
import { backgroundContext } from '../../../../../server/sandbox/chain/tx-cbor';
import { derive } from '../../../../../server/sandbox/chain/rng';
import { simulateSegment, type Segment, type SimBlock } from '../../../../../server/sandbox/chain/simulate';
import { UnspentIndex, byChainOrder, type UnspentSource, type UnspentView, type Utxo } from '../../../../../server/sandbox/chain/unspent';
import { buildWorld } from '../../../../../server/sandbox/chain/world';

const SEGMENT = 12;
const WINDOW = 40;

const key = new Uint8Array(derive(new TextEncoder().encode('cairn-sandbox-chain/v1'), 'unspent-test', 'preprod'));
const world = buildWorld(key, 'preprod');
const ctx = backgroundContext({
  key, world, book: poolBook(key, 'preprod', world.pools, 30, SEGMENT), protocol: PROTOCOL, network: 'preprod', segmentLength: SEGMENT,
  slotOf: (h: number) => h * 20, epochOf: (h: number) => Math.floor(h / 30), auxData: () => null,
});
const addressText = (index: number): string => world.addresses[index]!.bech32;
const stakeOf = (address: string): string | null => world.addressByBech32.get(address)?.stakeAddress ?? null;

/** A segment cache of two: the index meets segments simulated again, equal but not the same objects. */
function blocks(): { block: (height: number) => SimBlock; simulated: () => number } {
  const cache = new Map<number, Segment>();
  let simulated = 0;
  return {
    block(height) {
      const s = Math.floor(height / SEGMENT);
      let seg = cache.get(s);
      if (!seg) {
        seg = simulateSegment(ctx, s);
        simulated++;
        cache.set(s, seg);
        if (cache.size > 2) cache.delete(cache.keys().next().value!);
      }
      return seg.blocks[height - s * SEGMENT]!;
    },
    simulated: () => simulated,
  };
}

/** Live outputs: a few per tip band, at world addresses too, each after its block's background transactions. */
function liveOutputs(tip: number, block: (height: number) => SimBlock): Utxo[] {
  const out: Utxo[] = [];
  for (let h = Math.max(0, tip - 25); h <= tip; h += 7) {
    const address = h % 2 === 0 ? addressText(h % world.addresses.length) : 'addr_test1vzlivelivelive';
    out.push({
      txHash: `live${h}`, outputIndex: 0, height: h, txIndex: block(h).txs.length, address, lovelace: 5_000_000n + BigInt(h),
      assets: new Map(h % 3 === 0 ? [[world.assets[0]!.unit, 7n]] : []), dataHash: null, inlineDatum: null, referenceScriptHash: h % 5 === 0 ? 'ab'.repeat(28) : null,
    });
  }
  return out;
}

/** The set rebuilt from nothing: the window's outputs not spent by a block up to the tip, then sorted. */
function rebuilt(tip: number, live: Utxo[]): Utxo[] {
  const { block } = blocks();
  const all: Utxo[] = [];
  for (let h = Math.max(0, tip - WINDOW + 1); h <= tip; h++) {
    for (const tx of block(h).txs) {
      tx.outputs.forEach((o, outputIndex) => {
        if (o.consumedBy && o.consumedBy.height <= tip) return;
        all.push({
          txHash: tx.hash, outputIndex, height: h, txIndex: tx.index, address: addressText(o.address), lovelace: BigInt(o.lovelace),
          assets: new Map(o.assets.map(([u, q]) => [u, BigInt(q)])), dataHash: o.dataHash, inlineDatum: o.inlineDatum, referenceScriptHash: null,
        });
      });
    }
  }
  return [...all, ...live].sort(byChainOrder);
}

function expectSame(view: UnspentView, expected: Utxo[], message: string): void {
  expect(view.all, message).toEqual(expected);
  const byAddress = new Map<string, Utxo[]>();
  const byUnit = new Map<string, Utxo[]>();
  const stakes = new Map<string, bigint>();
  for (const u of expected) {
    byAddress.set(u.address, [...(byAddress.get(u.address) ?? []), u]);
    for (const unit of u.assets.keys()) byUnit.set(unit, [...(byUnit.get(unit) ?? []), u]);
    const stake = stakeOf(u.address);
    if (stake) stakes.set(stake, (stakes.get(stake) ?? 0n) + u.lovelace);
  }
  for (const [address, list] of byAddress) expect(view.byAddress.get(address), `${message}: ${address}`).toEqual(list);
  expect(view.byAddress.get(addressText(world.addresses.length - 1) + 'x'), message).toBeUndefined();
  for (const [unit, list] of byUnit) expect(view.ofAsset(unit), `${message}: ${unit}`).toEqual(list);
  expect(view.ofAsset('00'.repeat(28)), message).toEqual([]);
  expect(view.lovelaceByStake(), message).toEqual(stakes);
  for (const wallet of world.wallets.slice(0, 12)) {
    const mine = new Set(wallet.addresses.map(addressText));
    expect(view.ofAddresses([...mine, ...mine]), `${message}: wallet ${wallet.id}`).toEqual(expected.filter((u) => mine.has(u.address)));
  }
  expect(view.withReferenceScript('ab'.repeat(28)), message).toEqual(expected.filter((u) => u.referenceScriptHash === 'ab'.repeat(28)));
}

describe('UnspentIndex', () => {
  it('equals the set rebuilt from nothing at every tip: steps, jumps, a jump over the window, backwards, repeats', () => {
    const source = blocks();
    let liveTip = 0;
    let liveVersion = 0;
    const index = new UnspentIndex({
      window: WINDOW,
      block: source.block,
      addressText,
      stakeOf,
      liveVersion: () => liveVersion,
      liveUnspent: () => liveOutputs(liveTip, source.block),
    } satisfies UnspentSource);
    const tips = [
      0, 1, 2, 3, 5, 11, 12, 13, 30, 39, 40, 41, 42, 50, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73,
      // a jump of a whole window and more, then steps across segment boundaries that the small cache lets go
      112, 113, 150, 151, 152, 190, 190, 191,
      // backwards, a step, and far back
      185, 186, 160, 10, 11, 49,
    ];
    for (let step = 0; step < tips.length; step++) {
      const tip = tips[step]!;
      // The live part moves at some tips only: its version says when.
      if (step % 3 === 0) {
        liveTip = tip;
        liveVersion++;
      }
      const live = liveOutputs(liveTip, source.block);
      expectSame(index.at(tip), rebuilt(tip, live), `tip ${tip} (step ${step})`);
    }
    // Segments were let go and simulated again while the set was kept.
    expect(source.simulated()).toBeGreaterThan(Math.ceil(191 / SEGMENT) + 4);
  });

  it('keeps the same view while neither the tip nor the live part moves, and a new one when either does', () => {
    const source = blocks();
    let liveVersion = 1;
    const index = new UnspentIndex({ window: WINDOW, block: source.block, addressText, stakeOf, liveVersion: () => liveVersion, liveUnspent: () => liveOutputs(70, source.block) });
    const a = index.at(70);
    expect(index.at(70)).toBe(a);
    liveVersion++;
    const b = index.at(70);
    expect(b).not.toBe(a);
    expect(b.all).toEqual(a.all);
    expect(index.at(71)).not.toBe(b);
  });

  it('a view read after the set moved on still answers for its own tip', () => {
    const source = blocks();
    const index = new UnspentIndex({ window: WINDOW, block: source.block, addressText, stakeOf, liveVersion: () => 0, liveUnspent: () => [] });
    const old = index.at(80);
    index.at(84);
    expect(old.all).toEqual(rebuilt(80, []));
    expect(index.at(84).all).toEqual(rebuilt(84, []));
  });

  it('drops outputs that leave the window at its low end though still unspent', () => {
    const source = blocks();
    const index = new UnspentIndex({ window: WINDOW, block: source.block, addressText, stakeOf, liveVersion: () => 0, liveUnspent: () => [] });
    const first = index.at(WINDOW - 1).all.filter((u) => u.height === 0);
    expect(first.length).toBeGreaterThan(0);
    expect(index.at(WINDOW).all.some((u) => u.height === 0)).toBe(false);
    expect(index.at(WINDOW).all[0]!.height).toBeGreaterThanOrEqual(1);
  });
});
