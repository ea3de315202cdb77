import type { UpstreamConfig } from '../../config';
import { landedOn } from '../txs/index';
import type { ChainSource, LocalChain } from '../../blockfrost/chain';
import type { Block, Epoch, Pool, Tx, TxDelegation, TxDetails, TxUtxos } from '../../../shared/chain';

/** What the follower reads from a chain (server/blockfrost/chain.ts): the sandbox in process, or any Blockfrost-compatible backend. */
export type { ChainSource };

/** A chain served in process (the sandbox chain) as a ChainSource; with its submit, it can take a rolled-back transaction again. */
export function sandboxSource(chain: LocalChain & { submit?(cbor: Uint8Array): Promise<string> }): ChainSource {
  return {
    // Reads what other processes accepted into the sandbox first, so the follower sees every
    // submitted and faucet transaction of a block before it matches the block.
    tipHeight: async () => {
      await chain.sync();
      return chain.tipHeight();
    },
    blockAt: async (h) => chain.blockAt(h),
    blockTxDetails: async (hash) => chain.blockTxDetails(hash) ?? [],
    blockTxHashes: async (hash) => (chain.blockTxDetails(hash) ?? []).map((d) => d.tx.hash),
    epoch: async (n) => chain.epoch(n),
    epochStart: async (n) => (chain.epoch(n) ? chain.epochBounds(n) : null),
    ...(chain.submit ? { resubmit: (cbor: Uint8Array) => chain.submit!(cbor).then(() => true, () => false) } : {}),
    txBlock: landedOn(chain),
  };
}

/** A Blockfrost-compatible HTTP backend (e.g. a self-hosted Blockfrost backend, or Dolos). */
export function httpSource(upstream: UpstreamConfig, timeoutMs = 15_000): ChainSource {
  const get = async <T>(path: string): Promise<T | null> => {
    const res = await fetch(`${upstream.url}${path}`, {
      headers: upstream.auth ? { [upstream.auth.name]: upstream.auth.value } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`upstream answered ${res.status} for ${path}`);
    return (await res.json()) as T;
  };
  const pools = new Map<string, Pool>();
  const poolOf = async (id: string): Promise<Pool> => {
    const cached = pools.get(id);
    if (cached) return cached;
    const pool = await get<Pool>(`/pools/${id}`);
    if (!pool) throw new Error(`pool ${id} not found upstream`);
    if (pools.size > 5000) pools.clear();
    pools.set(id, pool);
    return pool;
  };
  const txHashesOf = async (hash: string): Promise<string[]> => {
    const hashes: string[] = [];
    for (let page = 1; ; page++) {
      const batch = (await get<string[]>(`/blocks/${hash}/txs?count=100&page=${page}`)) ?? [];
      hashes.push(...batch);
      if (batch.length < 100) break;
    }
    return hashes;
  };
  return {
    tipHeight: async () => (await get<Block>('/blocks/latest'))?.height ?? 0,
    blockAt: (h) => get<Block>(`/blocks/${h}`),
    blockTxHashes: txHashesOf,
    async resubmit(cbor) {
      const res = await fetch(`${upstream.url}/tx/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/cbor', ...(upstream.auth ? { [upstream.auth.name]: upstream.auth.value } : {}) },
        body: Buffer.from(cbor),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.ok;
    },
    async inMempool(hashes) {
      const found = await Promise.all(hashes.map(async (h) => ((await get<unknown>(`/mempool/${h}`)) ? h : null)));
      return new Set(found.filter((h): h is string => h !== null));
    },
    async blockTxDetails(hash) {
      const hashes = await txHashesOf(hash);
      const out: TxDetails[] = [];
      for (const h of hashes) {
        const [tx, utxos] = await Promise.all([get<Tx>(`/txs/${h}`), get<TxUtxos>(`/txs/${h}/utxos`)]);
        if (!tx || !utxos) continue;
        const delegations = tx.delegation_count > 0 ? ((await get<TxDelegation[]>(`/txs/${h}/delegations`)) ?? []) : [];
        out.push({ tx, inputs: utxos.inputs, outputs: utxos.outputs, delegations: await Promise.all(delegations.map(async (d) => ({ ...d, pool: await poolOf(d.pool_id) }))) });
      }
      return out;
    },
    epoch: (n) => get<Epoch>(`/epochs/${n}`),
    async epochStart(n) {
      const e = await get<Epoch>(`/epochs/${n}`);
      return e ? { epoch: e.epoch, start_time: e.start_time, end_time: e.end_time } : null;
    },
  };
}
