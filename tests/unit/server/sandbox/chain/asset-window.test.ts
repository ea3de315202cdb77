// The rows of each asset within the address window (asset-window.ts), kept as the tip moves, against
// the rows gathered from the window's blocks at every tip.
import { describe, expect, it } from 'vitest';
import { AssetWindow, type WindowTx } from '../../../../../server/sandbox/chain/asset-window';
import { poolBook } from '../../../../../server/sandbox/chain/pools';
import { PROTOCOL } from '../../../../../server/sandbox/chain/protocol';
import { backgroundContext } from '../../../../../server/sandbox/chain/tx-cbor';
import type { LiveOutput, LiveTx } from '../../../../../server/sandbox/chain/ledger';
import { derive } from '../../../../../server/sandbox/chain/rng';
import { simulateSegment, type Segment, type SimBlock } from '../../../../../server/sandbox/chain/simulate';
import { buildWorld } from '../../../../../server/sandbox/chain/world';

const SEGMENT = 12;
const WINDOW = 40;
const key = new Uint8Array(derive(new TextEncoder().encode('cairn-sandbox-chain/v1'), 'asset-window-test', 'preprod'));
const world = buildWorld(key, 'preprod');
const ctx = backgroundContext({
  key, world, book: poolBook(key, 'preprod', world.pools, 30, SEGMENT), protocol: PROTOCOL, network: 'preprod', segmentLength: SEGMENT,
  slotOf: (h: number) => h * 20, epochOf: (h: number) => Math.floor(h / 30), auxData: () => null,
});

function blocks(): (height: number) => SimBlock {
  const cache = new Map<number, Segment>();
  return (height) => {
    const s = Math.floor(height / SEGMENT);
    let seg = cache.get(s);
    if (!seg) {
      seg = simulateSegment(ctx, s);
      cache.set(s, seg);
      if (cache.size > 2) cache.delete(cache.keys().next().value!);
    }
    return seg.blocks[height - s * SEGMENT]!;
  };
}

const unit = world.assets[0]!.unit;
const minted = 'ab'.repeat(28) + '544f4b';
const liveOutputs = new Map<string, LiveOutput>([['f0'.repeat(32), { assets: new Map([[unit, 3n]]) } as unknown as LiveOutput]]);
const liveTxs: LiveTx[] = [
  { hash: 'f0'.repeat(32), height: 3, mint: new Map([[minted, 10n]]), inputs: [], outputs: [{ assets: new Map([[unit, 3n]]) }] },
  { hash: 'f1'.repeat(32), height: 5, mint: new Map(), inputs: [{ txHash: 'f0'.repeat(32), outputIndex: 0 }], outputs: [{ assets: new Map() }] },
] as unknown as LiveTx[];

/** Every unit's rows gathered from the window's blocks, then the live rows. */
function gathered(tip: number, live: LiveTx[]): Map<string, WindowTx[]> {
  const block = blocks();
  const out = new Map<string, WindowTx[]>();
  const add = (units: Set<string>, row: WindowTx): void => {
    for (const u of units) out.set(u, [...(out.get(u) ?? []), row]);
  };
  for (let h = Math.max(0, tip - WINDOW + 1); h <= tip; h++) {
    for (const tx of block(h).txs) {
      const units = new Set<string>();
      for (const i of tx.inputs) for (const [u] of i.output.assets) units.add(u);
      for (const o of tx.outputs) for (const [u] of o.assets) units.add(u);
      add(units, { hash: tx.hash, height: tx.height, index: tx.index });
    }
  }
  for (const t of live) {
    const units = new Set<string>([...t.mint.keys()]);
    for (const i of t.inputs) for (const u of liveOutputs.get(i.txHash)?.assets.keys() ?? []) units.add(u);
    for (const o of t.outputs) for (const u of o.assets.keys()) units.add(u);
    add(units, { hash: t.hash, height: t.height, index: 100 + t.height });
  }
  return out;
}

describe('AssetWindow', () => {
  it('equals the rows gathered from the window at every tip: steps, jumps, a jump over the window, backwards', () => {
    const block = blocks();
    let visible = 0;
    const index = new AssetWindow({
      window: WINDOW,
      block,
      live: () => liveTxs.slice(0, visible),
      liveIndex: (t) => 100 + t.height,
      outputOf: (h) => liveOutputs.get(h) ?? null,
    });
    const tips = [0, 1, 2, 5, 12, 13, 39, 40, 41, 47, 60, 61, 62, 63, 64, 65, 66, 80, 125, 126, 170, 171, 160, 9, 10, 52];
    const units = [...new Set(world.assets.map((a) => a.unit)), minted, '00'.repeat(28)];
    tips.forEach((tip, step) => {
      visible = Math.min(liveTxs.length, step % 3);
      const view = index.at(tip);
      const expected = gathered(tip, liveTxs.slice(0, visible));
      for (const u of units) expect(view.get(u), `tip ${tip}, ${u}`).toEqual(expected.get(u));
      expect([...expected.keys()].every((u) => units.includes(u))).toBe(true);
    });
  });
});
