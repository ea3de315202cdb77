import type { Config } from '../config';
import type { Db } from '../db/index';
import { createSandboxChain, type SandboxChain, type SandboxNetwork } from './chain/index';
import { dbLedgerStore } from './store';
import { evmNetwork, sandboxNetworks } from '../../shared/networks';

/**
 * One sandbox chain per Cardano network without a configured upstream, shared by every part of the
 * process. With a database, accepted transactions (faucet, /tx/submit) are kept in it, so they
 * survive restarts and every process sees them; without one they live in memory (tests).
 */
export function createSandboxChains(config: Config, db?: Db): Partial<Record<SandboxNetwork, SandboxChain>> {
  const store = db ? dbLedgerStore(db) : undefined;
  const chains: Partial<Record<SandboxNetwork, SandboxChain>> = {};
  for (const { slug, sandbox: network } of sandboxNetworks) {
    if (!config.gateway.upstreams[slug]) {
      chains[network] = createSandboxChain({ network, blockIntervalMs: config.gateway.sandboxBlockIntervalMs, devAids: !config.isProduction, ...(store ? { store } : {}) });
    }
  }
  return chains;
}

/**
 * Milkomeda mainnet without UPSTREAM_MILKOMEDA_MAINNET_URL runs on the embedded EVM development chain,
 * except in production or when the operator turned it off (DISABLED_NETWORKS).
 */
export const usesEvmDevChain = (config: Config): boolean =>
  !config.gateway.milkomeda && !config.isProduction && !config.disabledNetworks.includes(evmNetwork.slug);

/** Gateway slugs answered by simulated data (the sandbox chain, the EVM development chain): their projects show 'Sandbox data'. */
export const sandboxedSlugs = (config: Config): string[] => [
  ...sandboxNetworks.filter(({ slug }) => !config.gateway.upstreams[slug] && !config.disabledNetworks.includes(slug)).map(({ slug }) => slug),
  ...(usesEvmDevChain(config) ? [evmNetwork.slug] : []),
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
