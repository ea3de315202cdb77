import type { Config, UpstreamNetwork } from '../config';
import { createSandboxChain, type SandboxChain, type SandboxNetwork } from './sandbox/index';

const SLUGS: Record<SandboxNetwork, UpstreamNetwork> = {
  mainnet: 'cardano-mainnet',
  preprod: 'cardano-preprod',
  preview: 'cardano-preview',
};

/** One sandbox chain per Cardano network without a configured upstream, shared by every part of the process. */
export function createSandboxChains(config: Config): Partial<Record<SandboxNetwork, SandboxChain>> {
  const chains: Partial<Record<SandboxNetwork, SandboxChain>> = {};
  for (const network of Object.keys(SLUGS) as SandboxNetwork[]) {
    if (!config.gateway.upstreams[SLUGS[network]]) {
      chains[network] = createSandboxChain({ network, blockIntervalMs: config.gateway.sandboxBlockIntervalMs });
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
