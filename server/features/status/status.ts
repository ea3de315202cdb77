import type { Config } from '../../config';
import type { Db } from '../../db/index';
import type { LocalChains } from '../../blockfrost/chain';
import { offeredNetworks, sandboxOf, type Network, type UpstreamNetwork } from '../../../shared/networks';
import { STATUS_CACHE_MS, type ComponentState, type NetworkStatus, type StatusReport } from '../../../shared/status';
import { HEARTBEAT_STALE_MS, latestHeartbeats } from './heartbeats';
import { COMPONENT_ROLES, componentStates } from './components';
import { milkomedaProbe, type NetworkProbe, type ProbeResult } from './probes';

export type { NetworkProbe, ProbeResult } from './probes';

const PROBE_TIMEOUT_MS = 3_000;


/** A Blockfrost-compatible upstream answers GET /health, and Cardano ones /blocks/latest. */
function upstreamProbe(config: Config, n: Network): NetworkProbe | null {
  const upstream = config.gateway.upstreams[n.slug as UpstreamNetwork];
  if (!upstream) return null;
  const headers = upstream.auth ? { [upstream.auth.name]: upstream.auth.value } : undefined;
  const isCardano = n.family === 'cardano';
  return {
    backend: 'upstream',
    async probe() {
      const res = await fetch(`${upstream.url}${isCardano ? '/blocks/latest' : '/health'}`, { headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      const body = (await res.json().catch(() => null)) as { time?: unknown } | null;
      if (!res.ok) return { ok: false, latestBlockAt: null };
      return { ok: true, latestBlockAt: isCardano && typeof body?.time === 'number' ? body.time * 1000 : null };
    },
  };
}

/**
 * IPFS without a Blockfrost-compatible upstream: a Kubo node answers its RPC's version call; the
 * embedded store lives inside the gateway, so it answers exactly while the gateway's heartbeat is fresh.
 */
function ipfsProbe(config: Config, db: Db | undefined): NetworkProbe {
  const kubo = config.ipfs.kuboApiUrl;
  if (kubo) {
    return {
      backend: 'upstream',
      async probe() {
        const res = await fetch(`${kubo}/api/v0/version`, { method: 'POST', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
        return { ok: res.ok, latestBlockAt: null };
      },
    };
  }
  return embeddedProbe(db);
}

/** A backend inside the gateway (the embedded IPFS store, the devnets): it answers exactly while the gateway's heartbeat is fresh. */
function embeddedProbe(db: Db | undefined): NetworkProbe {
  return {
    backend: 'embedded',
    async probe() {
      const beat = db ? (await latestHeartbeats(db)).gateway : null;
      return { ok: beat !== null && Date.now() - beat < HEARTBEAT_STALE_MS, latestBlockAt: null };
    },
  };
}

/**
 * The default probes: each network's configured upstream, else the sandbox chain for Cardano networks
 * (and the EVM development chain for Milkomeda, the gateway itself for the devnets). A network the operator turned off (DISABLED_NETWORKS)
 * has none: nothing serves it.
 */
export function defaultProbes(config: Config, chains: LocalChains, db?: Db): Map<string, NetworkProbe> {
  const probes = new Map<string, NetworkProbe>();
  for (const n of offeredNetworks(config.disabledNetworks)) {
    if (n.family === 'evm') {
      const evm = milkomedaProbe(config, db);
      if (evm) probes.set(n.slug, evm);
      continue;
    }
    const upstream = upstreamProbe(config, n);
    if (upstream) {
      probes.set(n.slug, upstream);
      continue;
    }
    if (n.family === 'ipfs') {
      probes.set(n.slug, ipfsProbe(config, db));
      continue;
    }
    // Each devnet project's chain runs in the gateway that serves it.
    if (n.devnet) {
      probes.set(n.slug, embeddedProbe(db));
      continue;
    }
    const sandbox = sandboxOf(n.slug);
    const chain = sandbox ? chains[sandbox] : undefined;
    if (chain) probes.set(n.slug, { backend: 'sandbox', probe: async () => ({ ok: true, latestBlockAt: chain.latestBlock().time * 1000 }) });
  }
  return probes;
}

export interface StatusReporterDeps {
  db: Db;
  probes: Map<string, NetworkProbe>;
  /** The networks the page lists (offeredNetworks(config.disabledNetworks): one turned off by the operator is left off); default: every offered network. */
  networks?: ReadonlyArray<Network & { slug: string }>;
  now?: () => number;
}

/** Builds the status report, at most once per STATUS_CACHE_MS however many visitors ask. */
export function statusReporter({ db, probes, networks: listed = offeredNetworks(), now = Date.now }: StatusReporterDeps): () => Promise<StatusReport> {
  let cached: { at: number; report: Promise<StatusReport> } | null = null;

  const check = async (): Promise<StatusReport> => {
    const at = now();
    const dbState: ComponentState = await db
      .raw('select 1')
      .then(() => 'operational' as const)
      .catch(() => 'down' as const);
    const beats = dbState === 'operational' ? await latestHeartbeats(db).catch(() => null) : null;
    const alive = (beat: number | null | undefined): ComponentState => (beat != null && at - beat < HEARTBEAT_STALE_MS ? 'operational' : 'down');
    const networkStates: NetworkStatus[] = await Promise.all(
      listed.map(async (n): Promise<NetworkStatus> => {
        const probe = probes.get(n.slug);
        if (!probe) return { slug: n.slug, label: n.label, backend: 'none', state: 'not_available', latestBlockAgeSeconds: null };
        const result = await probe.probe().catch((): ProbeResult => ({ ok: false, latestBlockAt: null }));
        return {
          slug: n.slug,
          label: n.label,
          backend: probe.backend,
          state: result.ok ? 'operational' : 'down',
          latestBlockAgeSeconds: result.ok && result.latestBlockAt !== null ? Math.max(0, Math.round((at - result.latestBlockAt) / 1000)) : null,
        };
      }),
    );
    const services: StatusReport['services'] = [
      { name: 'Gateway', state: alive(beats?.gateway) },
      { name: 'Webhook worker', state: alive(beats?.worker) },
      { name: 'Database', state: dbState },
    ];
    // Parts that say whether they can do their work (the worker's payment watcher, where pay as you go
    // is on; the gateways' shared rate limits, where Redis is configured); while the process they run
    // in is not answering, neither are they.
    const parts = dbState === 'operational' ? await componentStates(db).catch(() => []) : [];
    for (const part of parts) {
      const roleUp = alive(beats?.[COMPONENT_ROLES[part.name]]) === 'operational';
      services.push(roleUp ? { name: part.name, state: part.state, since: part.since } : { name: part.name, state: 'down' });
    }
    const anyDown = services.some((s) => s.state === 'down') || networkStates.some((n) => n.state === 'down');
    return { checkedAt: at, overall: anyDown ? 'degraded' : 'operational', services, networks: networkStates };
  };

  return () => {
    if (!cached || now() - cached.at >= STATUS_CACHE_MS) {
      const report = check();
      cached = { at: now(), report };
      report.catch(() => (cached = null));
    }
    return cached.report;
  };
}
