// The sandbox chain's UTXO set as of a tip: background outputs created within the address window
// (the last `window` blocks up to the tip) and not spent by a block up to the tip, plus the live
// ledger's unspent outputs. Every address, account, asset and DRep answer derives from it.
//
// The background part is kept up to date block by block instead of being rebuilt at every tip:
// when the tip moves from t to t + k, the blocks t + 1 … t + k are applied in chain order (each
// transaction removes the outputs its inputs spend, then adds its own outputs) and the outputs
// created below the new window's first block are dropped. Outputs are keyed by their coordinates
// (height, transaction index, output index), never by object identity, so a segment simulated
// again after the segment cache let it go fits the set as well as the first simulation did. A jump
// of a whole window or more, or a tip that moves backwards, rebuilds the set from the window's
// first block. Background outputs are inserted in chain order and JavaScript's Map and Set keep
// insertion order, so every list comes out in chain order without sorting.
//
// The live part is small and changes only when a live transaction becomes visible: it is
// recomputed when the source's version of it changes. Answers merge both parts in chain order
// (height, then transaction index, then output index; a block's live transactions follow its
// background ones).
import type { SimBlock } from './simulate';

export interface Utxo {
  txHash: string;
  outputIndex: number;
  height: number;
  txIndex: number;
  address: string;
  lovelace: bigint;
  assets: Map<string, bigint>;
  dataHash: string | null;
  inlineDatum: string | null;
  referenceScriptHash: string | null;
}

export interface UnspentSource {
  /** How many blocks up to the tip the background part covers (the address window). */
  window: number;
  /** The simulated block at a height. */
  block: (height: number) => SimBlock;
  /** The bech32 text of a world address. */
  addressText: (index: number) => string;
  /** The stake address an address belongs to, if any. */
  stakeOf: (address: string) => string | null;
  /** A number that changes whenever the live ledger's unspent outputs do. */
  liveVersion: () => number;
  /** The live ledger's unspent outputs as of the tip, in chain order. */
  liveUnspent: () => Utxo[];
}

/** The UTXO set as of one tip. Read it at once: a later `at()` with another tip moves the set. */
export interface UnspentView {
  readonly tip: number;
  /** Every unspent output, in chain order. */
  readonly all: Utxo[];
  /** An address's unspent outputs, in chain order (undefined when it has none). */
  readonly byAddress: { get(address: string): Utxo[] | undefined };
  /** The unspent outputs of several addresses, in chain order. */
  ofAddresses(addresses: Iterable<string>): Utxo[];
  /** The unspent outputs holding an asset, in chain order. */
  ofAsset(unit: string): Utxo[];
  /** The unspent outputs carrying a reference script of this hash, in chain order. */
  withReferenceScript(hash: string): Utxo[];
  /** Lovelace of the unspent outputs of each stake address. */
  lovelaceByStake(): Map<string, bigint>;
}

const keyOf = (height: number, txIndex: number, outputIndex: number): string => `${height}:${txIndex}:${outputIndex}`;

export const byChainOrder = (a: Utxo, b: Utxo): number => a.height - b.height || a.txIndex - b.txIndex || a.outputIndex - b.outputIndex;

/** Merges two lists already in chain order. */
function merge(a: readonly Utxo[], b: readonly Utxo[]): Utxo[] {
  if (b.length === 0) return a.slice();
  if (a.length === 0) return b.slice();
  const out: Utxo[] = new Array<Utxo>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = byChainOrder(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

function addTo<K>(index: Map<K, Set<Utxo>>, key: K, u: Utxo): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(u);
}

function removeFrom<K>(index: Map<K, Set<Utxo>>, key: K, u: Utxo): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(u);
  if (set.size === 0) index.delete(key);
}

function listIndex<K>(utxos: readonly Utxo[], keys: (u: Utxo) => Iterable<K>): Map<K, Utxo[]> {
  const out = new Map<K, Utxo[]>();
  for (const u of utxos) {
    for (const k of keys(u)) {
      let list = out.get(k);
      if (!list) out.set(k, (list = []));
      list.push(u);
    }
  }
  return out;
}

interface LivePart {
  version: number;
  all: Utxo[];
  byAddress: Map<string, Utxo[]>;
  byUnit: Map<string, Utxo[]>;
  lovelaceByStake: Map<string, bigint>;
}

/** Background outputs of the address window, kept as the tip moves. */
class BackgroundUnspent {
  /** The tip the set is as of; -1 before the first one. */
  tip = -1;
  /** Changes at every move, so views know when they were taken. */
  stamp = 0;
  /** Every output by its coordinates, in chain order (insertion order). */
  readonly byKey = new Map<string, Utxo>();
  readonly byAddress = new Map<string, Set<Utxo>>();
  readonly byUnit = new Map<string, Set<Utxo>>();
  readonly lovelaceByStake = new Map<string, bigint>();
  private readonly stakes = new Map<string, string | null>();

  constructor(private readonly source: UnspentSource) {}

  /** Moves the set to a tip. */
  moveTo(tip: number): void {
    if (tip === this.tip) return;
    const low = Math.max(0, tip - this.source.window + 1);
    if (this.tip < 0 || tip < this.tip || tip - this.tip >= this.source.window) {
      this.clear();
      this.tip = low - 1;
    }
    this.stamp++;
    // The set is at this.tip after every block applied: a move cut short by a time slice's end (a
    // block's segment simulated: budget.ts) goes on from there the next time, never applying a block twice.
    for (let h = this.tip + 1; h <= tip; h++) {
      this.apply(h);
      this.tip = h;
    }
    // Outputs created below the window leave it (the oldest come first).
    for (const [key, u] of this.byKey) {
      if (u.height >= low) break;
      this.remove(key, u);
    }
    this.stamp++;
  }

  private clear(): void {
    this.byKey.clear();
    this.byAddress.clear();
    this.byUnit.clear();
    this.lovelaceByStake.clear();
  }

  /** Applies a block: each transaction in order spends its inputs, then creates its outputs. */
  private apply(height: number): void {
    for (const tx of this.source.block(height).txs) {
      for (const i of tx.inputs) {
        const key = keyOf(i.height, i.index, i.outputIndex);
        const u = this.byKey.get(key);
        if (u) this.remove(key, u);
      }
      tx.outputs.forEach((o, outputIndex) => {
        const u: Utxo = {
          txHash: tx.hash, outputIndex, height, txIndex: tx.index, address: this.source.addressText(o.address), lovelace: BigInt(o.lovelace),
          assets: new Map(o.assets.map(([unit, q]) => [unit, BigInt(q)])), dataHash: o.dataHash, inlineDatum: o.inlineDatum, referenceScriptHash: null,
        };
        this.add(keyOf(height, tx.index, outputIndex), u);
      });
    }
  }

  private stakeOf(address: string): string | null {
    let s = this.stakes.get(address);
    if (s === undefined) this.stakes.set(address, (s = this.source.stakeOf(address)));
    return s;
  }

  private add(key: string, u: Utxo): void {
    this.byKey.set(key, u);
    addTo(this.byAddress, u.address, u);
    for (const unit of u.assets.keys()) addTo(this.byUnit, unit, u);
    const stake = this.stakeOf(u.address);
    if (stake) this.lovelaceByStake.set(stake, (this.lovelaceByStake.get(stake) ?? 0n) + u.lovelace);
  }

  private remove(key: string, u: Utxo): void {
    this.byKey.delete(key);
    removeFrom(this.byAddress, u.address, u);
    for (const unit of u.assets.keys()) removeFrom(this.byUnit, unit, u);
    const stake = this.stakeOf(u.address);
    if (stake) {
      const left = this.lovelaceByStake.get(stake)! - u.lovelace;
      if (left === 0n) this.lovelaceByStake.delete(stake);
      else this.lovelaceByStake.set(stake, left);
    }
  }
}

export class UnspentIndex {
  private readonly background: BackgroundUnspent;
  private live: LivePart | undefined;
  private view: UnspentView | undefined;
  private viewStamp = -1;
  private viewLive: LivePart | undefined;

  constructor(private readonly source: UnspentSource) {
    this.background = new BackgroundUnspent(source);
  }

  /** Whether the set was built (some answer read it): then keeping it at the tip is a block's work at a time. */
  get built(): boolean {
    return this.background.tip >= 0;
  }

  /** The UTXO set as of a tip. */
  at(tip: number): UnspentView {
    const live = this.livePart();
    this.background.moveTo(tip);
    if (this.view && this.view.tip === tip && this.viewStamp === this.background.stamp && this.viewLive === live) return this.view;
    this.view = this.makeView(tip, live, this.background.stamp);
    this.viewStamp = this.background.stamp;
    this.viewLive = live;
    return this.view;
  }

  private livePart(): LivePart {
    const version = this.source.liveVersion();
    if (this.live?.version === version) return this.live;
    const all = this.source.liveUnspent();
    const lovelaceByStake = new Map<string, bigint>();
    for (const u of all) {
      const stake = this.source.stakeOf(u.address);
      if (stake) lovelaceByStake.set(stake, (lovelaceByStake.get(stake) ?? 0n) + u.lovelace);
    }
    this.live = {
      version,
      all,
      byAddress: listIndex(all, (u) => [u.address]),
      byUnit: listIndex(all, (u) => u.assets.keys()),
      lovelaceByStake,
    };
    return this.live;
  }

  private makeView(tip: number, live: LivePart, stamp: number): UnspentView {
    const bg = this.background;
    // A view taken before the set moved asks again for its own tip rather than read the moved set.
    const current = (): UnspentView | null => (bg.stamp === stamp ? null : this.at(tip));
    let all: Utxo[] | undefined;
    let stakes: Map<string, bigint> | undefined;
    const addresses = new Map<string, Utxo[] | undefined>();
    const units = new Map<string, Utxo[]>();
    const view: UnspentView = {
      tip,
      get all(): Utxo[] {
        const moved = current();
        if (moved) return moved.all;
        return (all ??= merge([...bg.byKey.values()], live.all));
      },
      byAddress: {
        get(address: string): Utxo[] | undefined {
          const moved = current();
          if (moved) return moved.byAddress.get(address);
          if (addresses.has(address)) return addresses.get(address);
          const b = bg.byAddress.get(address);
          const l = live.byAddress.get(address);
          const list = b || l ? merge(b ? [...b] : [], l ?? []) : undefined;
          addresses.set(address, list);
          return list;
        },
      },
      ofAddresses(list: Iterable<string>): Utxo[] {
        const moved = current();
        if (moved) return moved.ofAddresses(list);
        const out: Utxo[] = [];
        for (const address of new Set(list)) out.push(...(view.byAddress.get(address) ?? []));
        return out.sort(byChainOrder);
      },
      ofAsset(unit: string): Utxo[] {
        const moved = current();
        if (moved) return moved.ofAsset(unit);
        let list = units.get(unit);
        if (!list) {
          const b = bg.byUnit.get(unit);
          list = merge(b ? [...b] : [], live.byUnit.get(unit) ?? []);
          units.set(unit, list);
        }
        return list;
      },
      withReferenceScript(hash: string): Utxo[] {
        // Background outputs carry no reference script.
        return live.all.filter((u) => u.referenceScriptHash === hash);
      },
      lovelaceByStake(): Map<string, bigint> {
        const moved = current();
        if (moved) return moved.lovelaceByStake();
        if (!stakes) {
          stakes = new Map(bg.lovelaceByStake);
          for (const [stake, q] of live.lovelaceByStake) stakes.set(stake, (stakes.get(stake) ?? 0n) + q);
        }
        return stakes;
      },
    };
    return view;
  }
}
