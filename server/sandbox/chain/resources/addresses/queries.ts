// /addresses/{address}: balance, extended amounts, utxos, transactions and totals, from the UTXO
// set as of the tip and the address window's history.
import type { ChainContext } from '../../context';
import { amounts, parseBound, paginate, type AddressTxQuery } from '../../paging';
import type { AddressTotal } from '../../txs';
import { parseShelleyAddress, stakeAddressOf } from '../../../../../shared/cardano/address';
import type { World } from '../../world';
import type { AddressExtended, AddressInfo, AddressTransaction, AddressUtxo, Pagination } from '../../../../../shared/chain';

/** The chain's queries behind /addresses. */
export interface AddressQueries {
  address(address: string): AddressInfo | null;
  addressExtended(address: string): AddressExtended | null;
  /** Unspent outputs at an address (optionally holding one asset), in chain order; null when the address was never seen. */
  addressUtxos(address: string, page?: Pagination, asset?: string): AddressUtxo[] | null;
  addressTransactions(address: string, query?: AddressTxQuery): AddressTransaction[] | null;
  addressTotal(address: string): AddressTotal | null;
}

export function addressPaths(ctx: ChainContext): AddressQueries {
  const { world, ledger, tipHeight, timeOf, liveIndex, addressHistory, unspentAt, utxoObject, sumOf, knownAddress } = ctx;
  const worldAddress = (text: string): World['addresses'][number] | null => {
    if (typeof text !== 'string') return null;
    return world.addressByBech32.get(text) ?? null;
  };
  const decimalsOf = (unit: string): number | null => (unit === 'lovelace' ? 6 : (world.assetByUnit.get(unit)?.decimals ?? null));
  const nftMetadata = (unit: string): boolean => {
    const a = world.assetByUnit.get(unit);
    return !!a && a.nft;
  };
  const paths: AddressQueries = {
    address(text) {
      if (!knownAddress(text)) return null;
      const sum = sumOf(unspentAt(tipHeight()).byAddress.get(text) ?? []);
      const entry = worldAddress(text);
      const parsed = parseShelleyAddress(text);
      return {
        address: text,
        amount: amounts(sum.lovelace, sum.assets),
        stake_address: entry ? entry.stakeAddress : stakeAddressOf(text),
        type: text.startsWith('addr') ? 'shelley' : 'byron',
        script: entry ? entry.script : parsed?.paymentIsScript === true,
      };
    },
    addressExtended(text) {
      const info = paths.address(text);
      if (!info) return null;
      return { ...info, amount: info.amount.map((a) => ({ ...a, decimals: decimalsOf(a.unit), has_nft_onchain_metadata: nftMetadata(a.unit) })) };
    },
    addressUtxos(text, page, asset) {
      if (!knownAddress(text)) return null;
      let rows = unspentAt(tipHeight()).byAddress.get(text) ?? [];
      if (asset !== undefined) rows = rows.filter((u) => (asset === 'lovelace' ? true : u.assets.has(asset.toLowerCase())));
      return paginate(rows, page).map(utxoObject);
    },
    addressTransactions(text, query) {
      if (!knownAddress(text)) return null;
      const entry = worldAddress(text);
      const tip = tipHeight();
      const from = parseBound(query?.from);
      const to = parseBound(query?.to);
      const all: Array<{ hash: string; height: number; index: number }> = [
        ...(entry ? addressHistory(entry.index, tip).map((tx) => ({ hash: tx.hash, height: tx.height, index: tx.index })) : []),
        ...ledger.txsOf(text).map((t) => ({ hash: t.hash, height: t.height, index: liveIndex(t) })),
      ].sort((a, b) => a.height - b.height || a.index - b.index);
      const rows = all.filter((tx) => {
        if (from && (tx.height < from[0] || (tx.height === from[0] && from[1] >= 0 && tx.index < from[1]))) return false;
        if (to && (tx.height > to[0] || (tx.height === to[0] && to[1] >= 0 && tx.index > to[1]))) return false;
        return true;
      });
      return paginate(rows, query).map((tx) => ({ tx_hash: tx.hash, tx_index: tx.index, block_height: tx.height, block_time: timeOf(tx.height) }));
    },
    addressTotal(text) {
      if (!knownAddress(text)) return null;
      const tip = tipHeight();
      const received = { lovelace: 0n, assets: new Map<string, bigint>() };
      const sent = { lovelace: 0n, assets: new Map<string, bigint>() };
      const add = (into: typeof received, lovelace: bigint, assets: Iterable<[string, bigint]>): void => {
        into.lovelace += lovelace;
        for (const [u, q] of assets) into.assets.set(u, (into.assets.get(u) ?? 0n) + q);
      };
      let count = 0;
      // Received: the outputs the address's transactions paid it; sent: those of them spent since.
      const entry = worldAddress(text);
      if (entry) {
        for (const tx of addressHistory(entry.index, tip)) {
          count++;
          for (const o of tx.outputs) {
            if (o.address !== entry.index) continue;
            const assets = o.assets.map(([u, q]): [string, bigint] => [u, BigInt(q)]);
            add(received, BigInt(o.lovelace), assets);
            if (o.consumedBy && o.consumedBy.height <= tip) add(sent, BigInt(o.lovelace), assets);
          }
        }
      }
      for (const t of ledger.txsOf(text)) {
        count++;
        t.outputs.forEach((o, i) => {
          if (o.address !== text) return;
          add(received, o.lovelace, o.assets);
          if (ledger.spentBy(t.hash, t.outputOffset + i)) add(sent, o.lovelace, o.assets);
        });
      }
      const sorted = (m: Map<string, bigint>): Array<[string, bigint]> => [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
      return { address: text, received_sum: amounts(received.lovelace, sorted(received.assets)), sent_sum: amounts(sent.lovelace, sorted(sent.assets)), tx_count: count };
    },
  };
  return paths;
}
