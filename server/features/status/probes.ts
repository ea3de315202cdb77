import { usesEvmDevChain, type Config } from '../../config';
import type { Db } from '../../db/index';
import type { BackendKind } from '../../../shared/status';
import { HEARTBEAT_STALE_MS, latestHeartbeats } from './heartbeats';

/** What a network's backend says when asked: whether it answers, and its latest block's time (epoch ms). */
export interface ProbeResult {
  ok: boolean;
  latestBlockAt: number | null;
}

/** One network's check on the status page, and which kind of backend it asks. */
export interface NetworkProbe {
  backend: BackendKind;
  probe(): Promise<ProbeResult>;
}

const PROBE_TIMEOUT_MS = 3_000;

/**
 * The status page's probe of Milkomeda mainnet: a configured RPC is asked for its latest block
 * (JSON-RPC eth_getBlockByNumber); the embedded development chain runs inside the gateway, so it
 * answers exactly while the gateway's heartbeat is fresh, and its latest block is the newest of the
 * history it keeps in the database (it mines a block per transaction, so the age grows between them).
 * Null when Milkomeda has no backend (production without an upstream).
 */
export function milkomedaProbe(config: Config, db: Db | undefined, now: () => number = Date.now): NetworkProbe | null {
  const upstream = config.gateway.milkomeda;
  if (upstream) {
    return {
      backend: 'upstream',
      async probe() {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (upstream.auth) headers[upstream.auth.name] = upstream.auth.value;
        const res = await fetch(upstream.url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] }),
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        });
        const body = (await res.json().catch(() => null)) as { result?: { timestamp?: unknown } } | null;
        const ts = typeof body?.result?.timestamp === 'string' ? Number.parseInt(body.result.timestamp, 16) : NaN;
        if (!res.ok || !body?.result) return { ok: false, latestBlockAt: null };
        return { ok: true, latestBlockAt: Number.isFinite(ts) ? ts * 1000 : null };
      },
    };
  }
  if (!usesEvmDevChain(config) || !db) return null;
  return {
    backend: 'development',
    async probe() {
      const beat = (await latestHeartbeats(db)).gateway;
      const latest = (await db('evm_dev_chain').max({ t: 'block_time' }).first()) as { t: number | string | null } | undefined;
      const t = latest?.t === null || latest?.t === undefined ? null : Number(latest.t);
      return { ok: beat !== null && now() - beat < HEARTBEAT_STALE_MS, latestBlockAt: t === null ? null : t * 1000 };
    },
  };
}
