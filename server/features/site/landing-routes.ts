import type { Router } from 'express';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { LocalChains } from '../../blockfrost/chain';
import { route, type RouteDeps } from '../../http/route';
import { landingSample, type LatestBlock } from '../../../shared/landing-sample';

const CACHE_MS = 5_000;
const TIMEOUT_MS = 5_000;

const looksLikeBlock = (v: unknown): v is LatestBlock =>
  !!v && typeof v === 'object' && typeof (v as LatestBlock).hash === 'string' && typeof (v as LatestBlock).time === 'number';

/**
 * The latest mainnet block for the landing page's terminal: from the configured upstream, else the
 * sandbox chain; the built-in sample when that fails. Cached briefly so visitors do not each cost an
 * upstream call.
 */
export function latestMainnetBlock(config: Config, logger: Logger, chains: LocalChains) {
  let cached: { at: number; block: LatestBlock; source: string } | null = null;
  const upstream = config.gateway.upstreams['cardano-mainnet'];
  const fetchBlock = async (): Promise<{ block: LatestBlock; source: string }> => {
    if (upstream) {
      const res = await fetch(`${upstream.url}/blocks/latest`, {
        headers: upstream.auth ? { [upstream.auth.name]: upstream.auth.value } : {},
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const body: unknown = await res.json();
      if (!res.ok || !looksLikeBlock(body)) throw new Error(`upstream answered ${res.status}`);
      return { block: body, source: 'upstream' };
    }
    const chain = chains.mainnet;
    if (!chain) throw new Error('no mainnet source');
    return { block: chain.latestBlock() as LatestBlock, source: 'sandbox' };
  };
  return async (): Promise<{ block: LatestBlock; source: string }> => {
    if (cached && Date.now() - cached.at < CACHE_MS) return cached;
    try {
      const fresh = await fetchBlock();
      cached = { at: Date.now(), ...fresh };
      return cached;
    } catch (err) {
      logger.warn({ err: { message: (err as Error).message } }, 'landing: latest block unavailable, answering the built-in sample');
      return { block: landingSample, source: 'sample' };
    }
  };
}

export function registerLandingRoutes(router: Router, deps: RouteDeps, latest: () => Promise<{ block: LatestBlock; source: string }>): void {
  route(router, deps, {
    method: 'get',
    path: '/landing',
    permission: 'public',
    handler: async ({ res }) => {
      const { block, source } = await latest();
      res.set('X-Cairn-Source', source);
      return block;
    },
  });
}
