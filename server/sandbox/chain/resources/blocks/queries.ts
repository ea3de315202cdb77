// /blocks: the tip, a block by height, hash or slot, its neighbours, transactions (with CBOR)
// and addresses.
import type { ChainContext } from '../../context';
import { fillPage, paginate, virtualPage } from '../../paging';
import type { PoolModel } from '../pools/queries';
import type { TxModel } from '../txs/queries';
import type { BlockAddress } from '../../txs';
import type { Block, Pagination, TxDetails } from '../../../../../shared/chain';

/** The chain's queries behind /blocks. */
export interface BlockQueries {
  /** The tip block; the same frozen object until the next block. */
  latestBlock(): Readonly<Block>;
  /** A height (number or decimal string) or a block hash; null when unknown or above the tip. */
  blockAt(hashOrHeight: string | number): Block | null;
  blockNext(hashOrHeight: string | number, page?: Pagination): Block[] | null;
  blockPrevious(hashOrHeight: string | number, page?: Pagination): Block[] | null;
  /** Transaction hashes of a block, all of them unless a page is asked for. */
  blockTxs(hashOrHeight: string | number, page?: Pagination): string[] | null;
  /** Every transaction of a block in full: tx, inputs, outputs and delegations with their pools. */
  blockTxDetails(hashOrHeight: string | number): TxDetails[] | null;
  /** The block of an absolute slot; null when no block has that slot (or it is above the tip). */
  blockAtSlot(slot: number): Block | null;
  /** The block of a slot within an epoch. */
  blockAtEpochSlot(epoch: number, epochSlot: number): Block | null;
  /** Addresses in a block's transactions' inputs and outputs, by bech32, each with its transactions. */
  blockAddresses(hashOrHeight: string | number, page?: Pagination): BlockAddress[] | null;
  /** A block's transactions that have CBOR (the live ledger's; background transactions have none). */
  blockTxsCbor(hashOrHeight: string | number, page?: Pagination): Array<{ tx_hash: string; cbor: string }> | null;
}

export function blockPaths(ctx: ChainContext, pools: PoolModel, txs: TxModel): BlockQueries {
  const { world, hashes, schedule, ledger, tipHeight, slotOf, timeOf, epochOf, simBlock, blockTotals, liveSums, resolveHeight, addressText } = ctx;
  const { blocksPerEpoch, slotsPerBlock } = ctx.params;
  const { opCert } = pools;
  const { detailsObject, liveUtxosObject, liveDetails } = txs;
  const blockObject = (height: number, tip: number): Block => {
    const sim = blockTotals(height);
    const live = liveSums(height);
    const epoch = epochOf(height);
    const pool = world.pools[schedule.leader(epoch, height - epoch * blocksPerEpoch)]!;
    const cert = opCert(pool, epoch);
    const empty = sim.txCount + live.count === 0;
    return {
      time: timeOf(height),
      height,
      hash: hashes.block(height),
      slot: slotOf(height),
      epoch,
      epoch_slot: (height - epoch * blocksPerEpoch) * slotsPerBlock,
      slot_leader: pool.id,
      size: sim.size + live.size,
      tx_count: sim.txCount + live.count,
      output: empty ? null : String(BigInt(sim.outputLovelace) + live.output),
      fees: empty ? null : String(BigInt(sim.fees) + live.fees),
      block_vrf: pool.vrfVkey,
      op_cert: cert.hash,
      op_cert_counter: String(cert.counter),
      previous_block: height > 0 ? hashes.block(height - 1) : null,
      next_block: height < tip ? hashes.block(height + 1) : null,
      confirmations: tip - height,
    };
  };
  // The tip's block changes once per block interval and is asked for far more often than that.
  let latest: Readonly<Block> | undefined;
  const paths: BlockQueries = {
    latestBlock() {
      const tip = tipHeight();
      if (latest?.height !== tip) latest = Object.freeze(blockObject(tip, tip));
      return latest;
    },
    blockAt(ref) {
      const tip = tipHeight();
      const h = resolveHeight(ref, tip);
      return h === null ? null : blockObject(h, tip);
    },
    blockNext(ref, page) {
      const tip = tipHeight();
      const h = resolveHeight(ref, tip);
      if (h === null) return null;
      const p = fillPage(page, 100);
      const out: Block[] = [];
      const first = h + 1 + (p.page - 1) * p.count;
      for (let x = first; x <= tip && out.length < p.count; x++) out.push(blockObject(x, tip));
      return out;
    },
    blockPrevious(ref, page) {
      const tip = tipHeight();
      const h = resolveHeight(ref, tip);
      if (h === null) return null;
      const p = fillPage(page, 100);
      const end = h - 1 - (p.page - 1) * p.count;
      const out: Block[] = [];
      for (let x = Math.max(0, end - p.count + 1); x <= end; x++) out.push(blockObject(x, tip));
      return out;
    },
    blockTxs(ref, page) {
      const tip = tipHeight();
      const h = resolveHeight(ref, tip);
      if (h === null) return null;
      return paginate([...simBlock(h).txs.map((t) => t.hash), ...ledger.txsAt(h).map((t) => t.hash)], page);
    },
    blockTxDetails(ref) {
      const tip = tipHeight();
      const h = resolveHeight(ref, tip);
      if (h === null) return null;
      return [...simBlock(h).txs.map((t) => detailsObject(t, tip)), ...ledger.txsAt(h).map((t) => liveDetails(t, tip))];
    },
    blockAtSlot(slot) {
      const since = slot - ctx.params.firstSlot;
      if (!Number.isSafeInteger(slot) || since < 0 || since % slotsPerBlock !== 0) return null;
      return paths.blockAt(since / slotsPerBlock);
    },
    blockAtEpochSlot(epoch, epochSlot) {
      if (!Number.isSafeInteger(epoch) || !Number.isSafeInteger(epochSlot) || epoch < 0 || epochSlot < 0) return null;
      if (epochSlot % slotsPerBlock !== 0 || epochSlot >= blocksPerEpoch * slotsPerBlock) return null;
      return paths.blockAt(epoch * blocksPerEpoch + epochSlot / slotsPerBlock);
    },
    blockAddresses(ref, page) {
      const h = resolveHeight(ref, tipHeight());
      if (h === null) return null;
      const byAddress = new Map<string, string[]>();
      const touch = (address: string, hash: string): void => {
        const list = byAddress.get(address) ?? [];
        if (list[list.length - 1] !== hash) list.push(hash);
        byAddress.set(address, list);
      };
      for (const tx of simBlock(h).txs) {
        for (const i of tx.inputs) touch(addressText(i.output.address), tx.hash);
        for (const o of tx.outputs) touch(addressText(o.address), tx.hash);
      }
      for (const t of ledger.txsAt(h)) {
        const u = liveUtxosObject(t);
        for (const i of u.inputs) touch(i.address, t.hash);
        for (const o of u.outputs) touch(o.address, t.hash);
      }
      const rows = [...byAddress.entries()]
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .map(([address, txs]): BlockAddress => ({ address, transactions: txs.map((tx_hash) => ({ tx_hash })) }));
      return paginate(rows, page && { ...page, order: 'asc' });
    },
    blockTxsCbor(ref, page) {
      const h = resolveHeight(ref, tipHeight());
      if (h === null) return null;
      // Every transaction of the block, background ones (encoded for the page only) then live ones.
      const background = simBlock(h).txs;
      const live = ledger.txsAt(h);
      return virtualPage(background.length + live.length, page, (i) => {
        if (i < background.length) return { tx_hash: background[i]!.hash, cbor: ctx.txCbor(background[i]!) };
        const t = live[i - background.length]!;
        return { tx_hash: t.hash, cbor: t.cbor };
      });
    },
  };
  return paths;
}
