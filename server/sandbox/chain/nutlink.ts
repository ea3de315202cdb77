// nut.link metadata oracles on the sandbox chain. An oracle registers with transaction metadata
// under label 1967 ({"metadata": <url of its description>, "hash": <its hash>}) and publishes data
// points under label 1968, keyed by ticker ({"ADAUSD": [...], ...}); an address is an oracle's when
// a transaction carrying the metadata pays it (as Blockfrost reads it from db-sync).
//
// The world has one oracle: the background faucet's address, which every segment's opening
// distribution transaction pays (its reserve output). The distribution of segment 0 carries the
// registration, every later one a data point, so the oracle's records are formulas of the segment
// index. Live transactions with label 1967/1968 metadata add their own records.
import { blake2b } from '@noble/hashes/blake2.js';
import { toHex } from '../../../shared/cardano/bech32';
import { deriveFloat } from './rng';
import { overdue, spent } from './budget';
import { mergedPage } from './merged-page';
import type { LiveTx } from './ledger';
import { isDistributionAt } from './simulate';
import { jsonMetadatumCbor } from './tx-cbor';

export const NUTLINK_REGISTRY_LABEL = '1967';
export const NUTLINK_DATA_LABEL = '1968';

export interface NutlinkContext {
  key: Uint8Array;
  segmentLength: number;
  tip: () => number;
  /** The transaction hash of (height, index) in the background chain. */
  txHash: (height: number, index: number) => string;
  /** The world oracle's address (paid by every distribution transaction). */
  oracleAddress: string;
  live: () => LiveTx[];
  liveIndex: (t: LiveTx) => number;
}

export interface NutlinkRecord {
  txHash: string;
  height: number;
  txIndex: number;
  /** The addresses the transaction pays (each is a publisher of the record). */
  addresses: string[];
  json: Record<string, unknown>;
}

type Page = { count: number; page: number; order: 'asc' | 'desc' };

const TICKERS = ['ADAUSD', 'ADAEUR', 'ADABTC'] as const;

export function createNutlink(ctx: NutlinkContext) {
  const { key, segmentLength } = ctx;
  const description = {
    name: 'Cairn sandbox oracle',
    description: 'Prices of test ada published every segment of the sandbox chain.',
    tickers: [...TICKERS],
  };
  const descriptionUrl = 'https://oracle.sandbox.cairn.invalid/metadata.json';
  const descriptionHash = Buffer.from(blake2b(Buffer.from(JSON.stringify(description)), { dkLen: 32 })).toString('hex');

  /** The world oracle's metadata on the distribution transaction of segment s (labels in order). */
  const worldMetadata = (s: number): Array<{ label: string; json: Record<string, unknown> }> => {
    if (s === 0) return [{ label: NUTLINK_REGISTRY_LABEL, json: { metadata: descriptionUrl, hash: descriptionHash } }];
    const point = (ticker: string, base: number): unknown[] => [{ source: 'cairn-sandbox', value: (base * (0.8 + 0.4 * deriveFloat(key, 'oracle', ticker, s))).toFixed(6) }];
    const json: Record<string, unknown> = { ADAUSD: point('ADAUSD', 0.45), ADAEUR: point('ADAEUR', 0.41) };
    if (s % 3 === 0) json.ADABTC = point('ADABTC', 0.0000052);
    return [{ label: NUTLINK_DATA_LABEL, json }];
  };
  const records = new Map<number, NutlinkRecord>();
  const worldRecord = (s: number): NutlinkRecord => {
    const hit = records.get(s);
    if (hit) return hit;
    const height = s * segmentLength;
    const made = { txHash: ctx.txHash(height, 0), height, txIndex: 0, addresses: [ctx.oracleAddress], json: worldMetadata(s)[0]!.json };
    records.set(s, made);
    if (records.size > 16384) records.delete(records.keys().next().value!);
    // A record made (its distribution's hash: a few distributions hashed) is a unit of a sliced page's work (budget.ts), kept above.
    if (overdue()) spent();
    return made;
  };
  const lastSegment = (): number => Math.floor(ctx.tip() / segmentLength);

  const liveRecords = (label: string): NutlinkRecord[] => {
    const out: NutlinkRecord[] = [];
    for (const t of ctx.live()) {
      for (const m of t.metadata) {
        if (m.label !== label || !m.json || typeof m.json !== 'object' || Array.isArray(m.json)) continue;
        out.push({ txHash: t.hash, height: t.height, txIndex: ctx.liveIndex(t), addresses: [...new Set(t.outputs.map((o) => o.address))], json: m.json as Record<string, unknown> });
      }
    }
    return out;
  };

  /**
   * A page of a ticker's data points (the world oracle's when `worldToo`, and the live ones that
   * pass `keep`), in chain order; the world's are reached by index, never listed.
   */
  const dataPage = (page: Page, worldToo: boolean, ticker: string, keep: (r: NutlinkRecord) => boolean): NutlinkRecord[] => {
    const count = worldToo ? worldCount(ticker, lastSegment()) : 0;
    const byOrder = (a: NutlinkRecord, b: NutlinkRecord): number => a.height - b.height || a.txIndex - b.txIndex;
    return mergedPage(count, (i) => worldRecord(worldSegment(ticker, i)), liveRecords(NUTLINK_DATA_LABEL).filter(keep), page, byOrder);
  };
  /** The segment of a ticker's i-th world data point (ADABTC is published every third segment). */
  const worldSegment = (ticker: string, i: number): number => (ticker === 'ADABTC' ? 3 * (i + 1) : i + 1);
  /** How many world data points hold a ticker up to segment `last`. */
  const worldCount = (ticker: string, last: number): number => {
    if (ticker === 'ADAUSD' || ticker === 'ADAEUR') return last;
    return ticker === 'ADABTC' ? Math.floor(last / 3) : 0;
  };
  const worldLatest = (ticker: string, last: number): number | null => {
    const n = worldCount(ticker, last);
    if (n === 0) return null;
    return (ticker === 'ADABTC' ? last - (last % 3) : last) * segmentLength;
  };

  const isWorldOracle = (address: string): boolean => address === ctx.oracleAddress;

  return {
    /** Metadata of a background transaction (the distributions carry the world oracle's). */
    worldMetadata(height: number, index: number): Array<{ label: string; json: Record<string, unknown> }> {
      return isDistributionAt(height, index, segmentLength) ? worldMetadata(height / segmentLength) : [];
    },
    /** The label's metadatum in CBOR hex, as the ledger would serialise it (the bytes a distribution's auxiliary data holds). */
    cborOf(json: unknown): string {
      return toHex(jsonMetadatumCbor(json));
    },
    /** World records of a label up to the tip: count and a page (1967 once, 1968 once a segment). */
    worldLabel(label: string): { count: number; at: (i: number) => NutlinkRecord } | null {
      if (label === NUTLINK_REGISTRY_LABEL) return { count: 1, at: () => ({ ...worldRecord(0), json: worldMetadata(0)[0]!.json }) };
      if (label === NUTLINK_DATA_LABEL) return { count: lastSegment(), at: (i) => worldRecord(i + 1) };
      return null;
    },
    address(address: string) {
      if (isWorldOracle(address)) return { address, metadata_url: descriptionUrl, metadata_hash: descriptionHash, metadata: description };
      const reg = liveRecords(NUTLINK_REGISTRY_LABEL).filter((r) => r.addresses.includes(address) && typeof r.json.metadata === 'string' && typeof r.json.hash === 'string').pop();
      return reg ? { address, metadata_url: reg.json.metadata as string, metadata_hash: reg.json.hash as string, metadata: null } : null;
    },
    tickers(address: string, page: Page) {
      const rows = new Map<string, { name: string; count: number; latest_block: number; first: number }>();
      if (isWorldOracle(address)) {
        const last = lastSegment();
        TICKERS.forEach((name, i) => {
          const latest = worldLatest(name, last);
          if (latest !== null) rows.set(name, { name, count: worldCount(name, last), latest_block: latest, first: i });
        });
      }
      const live = liveRecords(NUTLINK_DATA_LABEL).filter((r) => r.addresses.includes(address));
      if (!isWorldOracle(address) && live.length === 0 && !this.address(address)) return null;
      for (const r of live) {
        for (const name of Object.keys(r.json)) {
          const row = rows.get(name) ?? { name, count: 0, latest_block: r.height, first: Number.MAX_SAFE_INTEGER - 1 + r.height };
          row.count++;
          row.latest_block = Math.max(row.latest_block, r.height);
          rows.set(name, row);
        }
      }
      // Ordered by each ticker's first record (ties by name), as Blockfrost does.
      const list = [...rows.values()].sort((a, b) => a.first - b.first || (a.name < b.name ? -1 : 1));
      if (page.order === 'desc') list.reverse();
      return list.slice((page.page - 1) * page.count, page.page * page.count).map(({ name, count, latest_block }) => ({ name, count, latest_block }));
    },
    addressTicker(address: string, ticker: string, page: Page) {
      if (!isWorldOracle(address) && !this.address(address) && !liveRecords(NUTLINK_DATA_LABEL).some((r) => r.addresses.includes(address))) return null;
      return dataPage(page, isWorldOracle(address), ticker, (r) => r.addresses.includes(address) && ticker in r.json).map((r) => ({ tx_hash: r.txHash, block_height: r.height, tx_index: r.txIndex, payload: r.json[ticker] }));
    },
    ticker(ticker: string, page: Page) {
      const rows = dataPage(page, true, ticker, (r) => ticker in r.json);
      const out = rows.flatMap((r) => r.addresses.map((address) => ({ address, tx_hash: r.txHash, block_height: r.height, tx_index: r.txIndex, payload: r.json[ticker] })));
      if (out.length === 0 && page.page === 1) return null;
      return out;
    },
  };
}

export type Nutlink = ReturnType<typeof createNutlink>;
