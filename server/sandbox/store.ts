import type { Db } from '../db/index';
import type { HistorySumsStore, LedgerEntry, LedgerStore } from './chain/index';
import type { EvmChainEntry, EvmChainStore } from './evm-chain';

/** The sandbox ledger's accepted transactions in the database (table sandbox_ledger). */
export function dbLedgerStore(db: Db): LedgerStore {
  return {
    async entriesAfter(network, after) {
      const rows = await db('sandbox_ledger').where({ network }).andWhere('seq', '>', after).orderBy('seq', 'asc');
      return rows.map((r: Record<string, unknown>): LedgerEntry => ({
        seq: Number(r.seq),
        height: Number(r.height),
        hash: String(r.hash),
        cbor: String(r.cbor),
        origin: r.origin as LedgerEntry['origin'],
      }));
    },
    async append(network, entry) {
      // The primary key (network, seq) makes a concurrent append by another process fail here.
      const inserted = await db('sandbox_ledger')
        .insert({ network, seq: entry.seq, height: entry.height, hash: entry.hash, cbor: entry.cbor, origin: entry.origin, created_at: Date.now() })
        .onConflict(['network', 'seq'])
        .ignore()
        .returning('seq');
      return inserted.length > 0;
    },
    async truncate(network, fromSeq) {
      await db('sandbox_ledger').where({ network }).andWhere('seq', '>=', fromSeq).delete();
    },
    async replace(network, entries) {
      await db.transaction(async (trx) => {
        await trx('sandbox_ledger').where({ network }).delete();
        const now = Date.now();
        const rows = entries.map((e) => ({ network, seq: e.seq, height: e.height, hash: e.hash, cbor: e.cbor, origin: e.origin, created_at: now }));
        // In chunks: SQLite binds at most a few thousand values a statement.
        for (let i = 0; i < rows.length; i += 100) await trx('sandbox_ledger').insert(rows.slice(i, i + 100));
      });
    },
  };
}

/** A devnet's history's whole epochs' sums in the database (table devnet_history_sums), one row a devnet. */
export function dbHistorySumsStore(db: Db, devnetId: number): HistorySumsStore {
  return {
    async load() {
      const row = (await db('devnet_history_sums').where({ devnet_id: devnetId }).first()) as { identity: string; sums: Uint8Array } | undefined;
      return row ? { identity: row.identity, sums: new Uint8Array(row.sums) } : null;
    },
    async save(identity, sums) {
      await db('devnet_history_sums')
        .insert({ devnet_id: devnetId, identity, sums: Buffer.from(sums.buffer, sums.byteOffset, sums.byteLength), updated_at: Date.now() })
        .onConflict('devnet_id')
        .merge(['identity', 'sums', 'updated_at']);
    },
  };
}

/** The EVM development chain's history in the database (table evm_dev_chain). */
export function dbEvmChainStore(db: Db): EvmChainStore {
  return {
    async entries() {
      const rows = await db('evm_dev_chain').orderBy('seq', 'asc');
      return rows.map((r: Record<string, unknown>): EvmChainEntry => ({
        seq: Number(r.seq),
        blockNumber: Number(r.block_number),
        blockTime: Number(r.block_time),
        txHash: (r.tx_hash as string | null) ?? null,
        rawTx: (r.raw_tx as string | null) ?? null,
      }));
    },
    async append(e) {
      await db('evm_dev_chain')
        .insert({ seq: e.seq, block_number: e.blockNumber, block_time: e.blockTime, tx_hash: e.txHash, raw_tx: e.rawTx, created_at: Date.now() })
        .onConflict(['seq'])
        .ignore();
    },
  };
}
