// /metadata/txs/labels: the labels in use (the world oracle's and the live ledger's) and each
// label's transactions.
import type { ChainContext } from '../../context';
import { byChainOrder, fillPage, paginate } from '../../paging';
import { mergedPage } from '../../merged-page';
import type { MetadataLabel, Pagination } from '../../../../../shared/chain';

/** The chain's queries behind /metadata. */
export interface MetadataQueries {
  metadataLabels(page?: Pagination): MetadataLabel[];
  metadataLabel(label: string, page?: Pagination): Array<{ tx_hash: string; json_metadata: unknown }> | null;
  metadataLabelCbor(label: string, page?: Pagination): Array<{ tx_hash: string; cbor_metadata: string | null; metadata: string | null }>;
}

export function metadataPaths(ctx: ChainContext): MetadataQueries {
  const { ledger, nutlink, liveIndex } = ctx;
  const CIP10: Record<string, string> = {
    '0': 'No Purpose', '1': 'Reserved', '674': 'Message (CIP-20)', '721': 'NFT Metadata (CIP-25)', '1967': 'nut.link metadata oracles registry', '1968': 'nut.link metadata oracles data points',
  };
  const paths: MetadataQueries = {
    metadataLabels(page) {
      const counts = new Map<string, number>();
      for (const label of ['1967', '1968']) {
        const w = nutlink.worldLabel(label)!;
        if (w.count > 0) counts.set(label, w.count);
      }
      for (const t of ledger.all()) for (const m of t.metadata) counts.set(m.label, (counts.get(m.label) ?? 0) + 1);
      const rows = [...counts.entries()].sort((a, b) => Number(BigInt(a[0]) - BigInt(b[0]))).map(([label, n]) => ({ label, cip10: CIP10[label] ?? null, count: String(n) }));
      return paginate(rows, page);
    },
    metadataLabel(label, page) {
      // The world oracle's records (one a segment) are merged in by index, without listing them.
      const world = nutlink.worldLabel(label);
      type Row = { tx_hash: string; json_metadata: unknown; height: number; index: number };
      const worldRow = (i: number): Row => {
        const r = world!.at(i);
        return { tx_hash: r.txHash, json_metadata: r.json, height: r.height, index: r.txIndex };
      };
      const live: Row[] = [];
      for (const t of ledger.all()) for (const m of t.metadata) if (m.label === label) live.push({ tx_hash: t.hash, json_metadata: m.json, height: t.height, index: liveIndex(t) });
      return mergedPage(world?.count ?? 0, worldRow, live, fillPage(page, 100), byChainOrder).map(({ tx_hash, json_metadata }) => ({ tx_hash, json_metadata }));
    },
    metadataLabelCbor(label, page) {
      const rows: Array<{ tx_hash: string; cbor_metadata: string | null; metadata: string | null }> = [];
      for (const t of ledger.all()) for (const m of t.metadata) if (m.label === label) rows.push({ tx_hash: t.hash, cbor_metadata: `\\x${m.cbor}`, metadata: m.cbor });
      return paginate(rows, page);
    },
  };
  return paths;
}
