// /assets: the world's assets (background) and those minted by live transactions: lists, an
// asset, its holders, history, transactions and utxos.
import type { ChainContext } from '../../context';
import type { Utxo } from '../../unspent';
import { AssetWindow, type AssetWindowView } from '../../asset-window';
import { fillPage, amounts, paginate, withinBounds, byChainOrder, type AddressTxQuery } from '../../paging';
import { assetFingerprint } from '../../../../../shared/cardano/fingerprint';
import { deriveBytes } from '../../rng';
import { overdue, spent } from '../../budget';
import { remintCount } from '../../simulate';
import type { WorldAsset } from '../../world';
import type { LiveTx } from '../../ledger';
import { datumJson, remintSegment, worldMintCount, type AssetAction, type AssetUtxo } from '../../txs';
import type { Asset, AssetListItem, AddressTransaction, AssetHolder, Pagination } from '../../../../../shared/chain';
import { cip68Reference, onchainMetadata, type Cip25Source, type OnchainMetadata } from '../../../../blockfrost/onchain-metadata';

/**
 * A live asset's on-chain metadata from what submitted transactions say, read as Blockfrost reads
 * db-sync: the label-721 metadata of the latest transaction minting the asset that carries any, and
 * for a CIP-68 user token the datum of an output holding its reference token, the datum that
 * appeared last (an inline datum, or one a witness set supplied for a datum hash).
 */
function liveOnchainMetadata(txs: readonly LiveTx[], unit: string): OnchainMetadata {
  let cip25: Cip25Source | null = null;
  for (let i = txs.length - 1; i >= 0 && !cip25; i--) {
    const t = txs[i]!;
    if ((t.mint.get(unit) ?? 0n) <= 0n) continue;
    const m = t.metadata.find((x) => x.label === '721');
    if (m) cip25 = { json: m.json, cbor: m.cbor };
  }
  const ref = cip68Reference(unit);
  let referenceDatum: string | null = null;
  if (ref) {
    const firstSeen = new Map<string, { order: number; cbor: string }>();
    let latest = -1;
    txs.forEach((t, order) => {
      for (const d of t.datums) if (!firstSeen.has(d.hash)) firstSeen.set(d.hash, { order, cbor: d.cbor });
      for (const o of t.outputs) {
        if (!o.assets.has(ref.reference)) continue;
        const hash = o.dataHash ?? (o.inlineDatum !== null ? t.datums.find((d) => d.cbor === o.inlineDatum)?.hash : undefined);
        const seen = hash === undefined ? undefined : firstSeen.get(hash);
        if (seen && seen.order >= latest) {
          latest = seen.order;
          referenceDatum = seen.cbor;
        }
      }
    });
  }
  return onchainMetadata(unit, { referenceDatum, cip25 });
}

/** The chain's queries behind /assets. */
export interface AssetQueries {
  assets(page?: Pagination): AssetListItem[];
  assetAddresses(unit: string, page?: Pagination): AssetHolder[] | null;
  assetsOfPolicy(policyId: string, page?: Pagination): AssetListItem[] | null;
  asset(unit: string): Asset | null;
  assetHistory(unit: string, page?: Pagination): AssetAction[] | null;
  assetTransactions(unit: string, query?: AddressTxQuery): AddressTransaction[] | null;
  /** Unspent outputs holding an asset; from/to bound the block height (inclusive). */
  assetUtxos(unit: string, query?: Pagination & { from?: number; to?: number }): AssetUtxo[] | null;
}

/** A world asset as of the tip: its supply grows with each re-mint. */
function worldAssetObject(ctx: ChainContext, asset: WorldAsset, tip: number): Asset {
  const { key } = ctx;
  const { segmentLength } = ctx.params;
  const remints = remintCount(asset, Math.floor(tip / segmentLength));
  const image = `ipfs://bafkrei${Buffer.from(deriveBytes(key, 32, 'asset-image', asset.unit)).toString('base64url').toLowerCase().replace(/[^a-z2-7]/g, 'a').slice(0, 52)}`;
  let onchain: Asset['onchain_metadata'] = null;
  if (asset.nft) onchain = { name: asset.name, image, mediaType: 'image/png', description: 'A stone of the Cairn sandbox chain' };
  else if (asset.standard === 'CIP68v1') onchain = { name: asset.name, ticker: asset.ticker, decimals: asset.decimals, description: 'A sandbox token' };
  return {
    asset: asset.unit,
    policy_id: asset.policyId,
    asset_name: asset.assetNameHex === '' ? null : asset.assetNameHex,
    fingerprint: asset.fingerprint,
    quantity: String(BigInt(asset.genesisSupply) + BigInt(remints) * BigInt(asset.mintAmount)),
    initial_mint_tx_hash: ctx.txHash(0, 0),
    mint_or_burn_count: 1 + remints,
    onchain_metadata: onchain,
    onchain_metadata_standard: asset.standard,
    onchain_metadata_extra: null,
    metadata:
      asset.nft || asset.standard
        ? null
        : { name: asset.name, description: `${asset.name}, a token of the Cairn sandbox chain`, ticker: asset.ticker, url: null, logo: null, decimals: asset.decimals },
  };
  }

export function assetPaths(ctx: ChainContext): AssetQueries {
  const { world, hashes, ledger, tipHeight, timeOf, simBlock, liveIndex, unspentAt } = ctx;
  const { segmentLength, addressWindowBlocks } = ctx.params;
  const assetObject = (asset: WorldAsset, tip: number): Asset => worldAssetObject(ctx, asset, tip);
  interface LiveAsset { unit: string; quantity: bigint; mints: number; firstTx: string }
  const liveAssets = (): Map<string, LiveAsset> => {
    const out = new Map<string, LiveAsset>();
    for (const t of ledger.all()) {
      for (const [unit, q] of t.mint) {
        const a = out.get(unit) ?? { unit, quantity: 0n, mints: 0, firstTx: t.hash };
        a.quantity += q;
        a.mints++;
        out.set(unit, a);
      }
    }
    return out;
  };
  const assetList = (tip: number): AssetListItem[] => {
    const out: AssetListItem[] = world.assets.map((a) => ({ asset: a.unit, quantity: assetObject(a, tip).quantity }));
    for (const a of liveAssets().values()) out.push({ asset: a.unit, quantity: String(a.quantity) });
    return out;
  };
  const liveAssetObject = (a: LiveAsset): Asset => ({
    asset: a.unit,
    policy_id: a.unit.slice(0, 56),
    asset_name: a.unit.length > 56 ? a.unit.slice(56) : null,
    fingerprint: assetFingerprint(a.unit.slice(0, 56), a.unit.slice(56)),
    quantity: String(a.quantity),
    initial_mint_tx_hash: a.firstTx,
    mint_or_burn_count: a.mints,
    ...liveOnchainMetadata(ledger.all(), a.unit),
    metadata: null,
  });
  /** Transactions moving each asset within the address window (background and live), kept as the tip moves. */
  const assetWindow = new AssetWindow({ window: addressWindowBlocks, block: simBlock, live: () => ledger.all(), liveIndex, outputOf: (h, i) => ledger.outputOf(h, i) });
  const assetWindowTxs = (tip: number): AssetWindowView => assetWindow.at(tip);
  /** The unspent outputs holding an asset. */
  const unspentOfAsset = (tip: number, unit: string): Utxo[] => unspentAt(tip).ofAsset(unit);

  const knownAsset = (unit: string): boolean => world.assetByUnit.has(unit) || liveAssets().has(unit);
  const paths: AssetQueries = {
    assets(page) {
      return paginate(assetList(tipHeight()), page);
    },
    assetAddresses(unit, page) {
      if (typeof unit !== 'string') return null;
      const u = unit.toLowerCase();
      if (!world.assetByUnit.has(u) && !liveAssets().has(u)) return null;
      const holders = new Map<string, bigint>();
      for (const row of unspentOfAsset(tipHeight(), u)) {
        const q = row.assets.get(u);
        if (q) holders.set(row.address, (holders.get(row.address) ?? 0n) + q);
      }
      return paginate([...holders.entries()].map(([address, q]) => ({ address, quantity: String(q) })), page);
    },
    assetsOfPolicy(policyId, page) {
      if (typeof policyId !== 'string') return null;
      const p = policyId.toLowerCase();
      const rows = assetList(tipHeight()).filter((a) => a.asset.startsWith(p));
      return rows.length === 0 ? null : paginate(rows, page);
    },
    asset(unit) {
      if (typeof unit !== 'string') return null;
      const asset = world.assetByUnit.get(unit.toLowerCase());
      if (asset) return assetObject(asset, tipHeight());
      const live = liveAssets().get(unit.toLowerCase());
      return live ? liveAssetObject(live) : null;
    },
    assetHistory(unit, page) {
      if (typeof unit !== 'string') return null;
      const u = unit.toLowerCase();
      const asset = world.assetByUnit.get(u);
      if (asset) {
        // The genesis supply, then one re-mint per due segment's distribution: computed, never scanned.
        const total = worldMintCount(asset, Math.floor(tipHeight() / segmentLength));
        const p = fillPage(page, total);
        const out: AssetAction[] = [];
        for (let n = (p.page - 1) * p.count; n < Math.min(total, p.page * p.count); n++) {
          const k = p.order === 'desc' ? total - 1 - n : n;
          out.push(k === 0
            ? { tx_hash: ctx.txHash(0, 0), action: 'minted', amount: String(asset.genesisSupply) }
            : { tx_hash: ctx.txHash(remintSegment(asset, k) * segmentLength, 0), action: 'minted', amount: String(asset.mintAmount) });
          // A distribution hashed is a unit of the sliced page's work (budget.ts): its hash is kept for the next slice.
          if (overdue()) spent();
        }
        return out;
      }
      if (!liveAssets().has(u)) return null;
      const rows: AssetAction[] = [];
      for (const t of ledger.all()) {
        const q = t.mint.get(u);
        if (q) rows.push({ tx_hash: t.hash, action: q > 0n ? 'minted' : 'burned', amount: String(q > 0n ? q : -q) });
      }
      return paginate(rows, page);
    },
    assetTransactions(unit, query) {
      if (typeof unit !== 'string') return null;
      const u = unit.toLowerCase();
      if (!knownAsset(u)) return null;
      const tip = tipHeight();
      const low = Math.max(0, tip - addressWindowBlocks + 1);
      // Its mints before the address window, then every transaction moving it within the window.
      // A distribution's hash is made only for the rows of the page (a long-lived token has thousands of mints).
      const rows: Array<{ hash: string | null; height: number; index: number }> = [];
      const asset = world.assetByUnit.get(u);
      if (asset) {
        if (low > 0) rows.push({ hash: null, height: 0, index: 0 });
        const remints = worldMintCount(asset, Math.floor(tip / segmentLength)) - 1;
        for (let k = 1; k <= remints; k++) {
          const height = remintSegment(asset, k) * segmentLength;
          if (height >= low) break;
          rows.push({ hash: null, height, index: 0 });
        }
      }
      rows.push(...(assetWindowTxs(tip).get(u) ?? []));
      rows.sort(byChainOrder);
      return paginate(withinBounds(rows, query), query).map((tx) => ({
        tx_hash: tx.hash ?? ctx.txHash(tx.height, tx.index), tx_index: tx.index, block_height: tx.height, block_time: timeOf(tx.height),
      }));
    },
    assetUtxos(unit, query) {
      if (typeof unit !== 'string') return null;
      const u = unit.toLowerCase();
      if (!knownAsset(u)) return null;
      const rows = unspentOfAsset(tipHeight(), u).filter((x) => (query?.from === undefined || x.height >= query.from) && (query?.to === undefined || x.height <= query.to));
      return paginate(rows, query).map((x): AssetUtxo => ({
        address: x.address, tx_hash: x.txHash, output_index: x.outputIndex, amount: amounts(x.lovelace, x.assets), block: hashes.block(x.height),
        block_height: x.height, block_time: timeOf(x.height), data_hash: x.dataHash, inline_datum: x.inlineDatum, inline_datum_json: datumJson(x.inlineDatum),
        reference_script_hash: x.referenceScriptHash,
      }));
    },
  };
  return paths;
}
