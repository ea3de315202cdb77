import type { Config, UpstreamNetwork } from '../config';
import type { Db } from '../db/index';
import { createSandboxChain, type SandboxChain, type SandboxNetwork } from './sandbox/index';
import { dbLedgerStore } from './sandbox-store';

const SLUGS: Record<SandboxNetwork, UpstreamNetwork> = {
  mainnet: 'cardano-mainnet',
  preprod: 'cardano-preprod',
  preview: 'cardano-preview',
};

/**
 * One sandbox chain per Cardano network without a configured upstream, shared by every part of the
 * process. With a database, accepted transactions (faucet, /tx/submit) are kept in it, so they
 * survive restarts and every process sees them; without one they live in memory (tests).
 */
export function createSandboxChains(config: Config, db?: Db): Partial<Record<SandboxNetwork, SandboxChain>> {
  const store = db ? dbLedgerStore(db) : undefined;
  const chains: Partial<Record<SandboxNetwork, SandboxChain>> = {};
  for (const network of Object.keys(SLUGS) as SandboxNetwork[]) {
    if (!config.gateway.upstreams[SLUGS[network]]) {
      chains[network] = createSandboxChain({ network, blockIntervalMs: config.gateway.sandboxBlockIntervalMs, devAids: !config.isProduction, ...(store ? { store } : {}) });
    }
  }
  return chains;
}

/** Milkomeda mainnet without UPSTREAM_MILKOMEDA_MAINNET_URL runs on the embedded EVM development chain, except in production. */
export const usesEvmDevChain = (config: Config): boolean => !config.gateway.milkomeda && !config.isProduction;

export const sandboxedSlugs = (config: Config): string[] => [
  ...(Object.keys(SLUGS) as SandboxNetwork[]).filter((n) => !config.gateway.upstreams[SLUGS[n]]).map((n) => SLUGS[n]),
  ...(usesEvmDevChain(config) ? ['milkomeda-mainnet'] : []),
];

/**
 * Loads every chain's accepted transactions, then keeps reading what other processes accept
 * (every 250 ms, well inside a block interval). Answers the function that stops the reading.
 */
export async function startSandboxSync(chains: Partial<Record<SandboxNetwork, SandboxChain>>, onError: (err: unknown) => void, intervalMs = 250): Promise<() => void> {
  const list = Object.values(chains);
  await Promise.all(list.map((c) => c.ready()));
  const timer = setInterval(() => {
    for (const c of list) c.sync().catch(onError);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
