// The transactions moving each asset within the address window (background and live), kept as the
// tip moves rather than gathered again from the window's blocks at every new tip: a new block adds
// its rows at the high end, and the rows of the blocks leaving the window go at the low end. A
// jump of a whole window or more, or a tip that moves backwards, gathers them again. The live rows
// follow, gathered again whenever the live ledger's visible transactions change.
import type { LiveOutput, LiveTx } from './ledger';
import type { SimBlock } from './simulate';

export interface WindowTx {
  hash: string;
  height: number;
  index: number;
}

export interface AssetWindowSource {
  /** How many blocks up to the tip the window covers. */
  window: number;
  block: (height: number) => SimBlock;
  /** Visible live transactions, in chain order. */
  live: () => LiveTx[];
  liveIndex: (t: LiveTx) => number;
  outputOf: (txHash: string, outputIndex: number) => LiveOutput | null;
}

/** Rows of each asset: the window's background transactions in chain order, then the live ones. */
export interface AssetWindowView {
  get(unit: string): WindowTx[] | undefined;
}

export class AssetWindow {
  private tip = -1;
  /** Background rows by unit, ascending. */
  private readonly rows = new Map<string, WindowTx[]>();
  /** The units each block of the window has rows for, to drop them when the block leaves. */
  private readonly unitsAt = new Map<number, string[]>();
  private live: { count: number; byUnit: Map<string, WindowTx[]> } | undefined;

  constructor(private readonly source: AssetWindowSource) {}

  at(tip: number): AssetWindowView {
    this.moveTo(tip);
    const live = this.livePart();
    const rows = this.rows;
    return {
      get(unit: string): WindowTx[] | undefined {
        const b = rows.get(unit);
        const l = live.get(unit);
        if (!b && !l) return undefined;
        return [...(b ?? []), ...(l ?? [])];
      },
    };
  }

  private moveTo(tip: number): void {
    if (tip === this.tip) return;
    const low = Math.max(0, tip - this.source.window + 1);
    if (this.tip < 0 || tip < this.tip || tip - this.tip >= this.source.window) {
      this.rows.clear();
      this.unitsAt.clear();
      for (let h = low; h <= tip; h++) this.add(h);
    } else {
      const oldLow = Math.max(0, this.tip - this.source.window + 1);
      for (let h = this.tip + 1; h <= tip; h++) this.add(h);
      for (let h = oldLow; h < low; h++) this.drop(h);
    }
    this.tip = tip;
  }

  private add(height: number): void {
    const touched: string[] = [];
    for (const tx of this.source.block(height).txs) {
      const units = new Set<string>();
      for (const i of tx.inputs) for (const [u] of i.output.assets) units.add(u);
      for (const o of tx.outputs) for (const [u] of o.assets) units.add(u);
      const row = { hash: tx.hash, height: tx.height, index: tx.index };
      for (const unit of units) {
        let list = this.rows.get(unit);
        if (!list) this.rows.set(unit, (list = []));
        if (list.length === 0 || list[list.length - 1]!.height !== height) touched.push(unit);
        list.push(row);
      }
    }
    if (touched.length) this.unitsAt.set(height, touched);
  }

  private drop(height: number): void {
    for (const unit of this.unitsAt.get(height) ?? []) {
      const list = this.rows.get(unit)!;
      let n = 0;
      while (n < list.length && list[n]!.height <= height) n++;
      if (n === list.length) this.rows.delete(unit);
      else list.splice(0, n);
    }
    this.unitsAt.delete(height);
  }

  private livePart(): Map<string, WindowTx[]> {
    const txs = this.source.live();
    // The visible live transactions are a prefix of an append-only list: their count says which.
    if (this.live?.count === txs.length) return this.live.byUnit;
    const byUnit = new Map<string, WindowTx[]>();
    for (const t of txs) {
      const units = new Set<string>(t.mint.keys());
      for (const i of t.inputs) for (const u of this.source.outputOf(i.txHash, i.outputIndex)?.assets.keys() ?? []) units.add(u);
      for (const o of t.outputs) for (const u of o.assets.keys()) units.add(u);
      const row = { hash: t.hash, height: t.height, index: this.source.liveIndex(t) };
      for (const unit of units) {
        let list = byUnit.get(unit);
        if (!list) byUnit.set(unit, (list = []));
        list.push(row);
      }
    }
    this.live = { count: txs.length, byUnit };
    return byUnit;
  }
}
