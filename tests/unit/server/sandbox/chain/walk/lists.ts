// The lists of Blockfrost's OpenAPI document and the sandbox paths that fill them with data:
// list-pages.test.ts and bench:sandbox read each at its last page and past it.
import { createRequire } from 'node:module';
import type { WalkFixture } from './types';
import { GROUPS } from './groups';

const require = createRequire(import.meta.url);
/** Blockfrost's largest page number. */
export const LAST_PAGE = 21_474_836;
/** Lists the gateway answers itself (tests/integration/ipfs.test.ts), not the chain. */
const GATEWAY_LISTS = new Set(['/ipfs/pin/list']);

export interface ListPath {
  template: string;
  ordered: boolean;
}

/** The document's list paths: a 200 answer that is an array, and a `page` parameter. */
export function listPaths(): ListPath[] {
  const endpoints = require('@blockfrost/openapi/json-schema.json') as Record<string, { querystring?: { properties?: Record<string, unknown> }; response?: Record<string, { type?: string }> }>;
  return Object.entries(endpoints)
    .filter(([template, e]) => e.response?.['200']?.type === 'array' && e.querystring?.properties && 'page' in e.querystring.properties && !GATEWAY_LISTS.has(template))
    .map(([template, e]) => ({ template, ordered: 'order' in e.querystring!.properties! }));
}

/**
 * A concrete path (no query) for each list: the world's accounts, pools and assets from
 * chain.catalog(), the chain's first block and epoch, and the OpenAPI walk's requests for the rest.
 */
export function catalogPaths(f: WalkFixture): Map<string, string> {
  const catalog = f.chain.catalog();
  const epoch = f.chain.latestEpoch().epoch;
  const stake = catalog.stakeAddresses[1]!;
  const pool = catalog.pools.find((id) => f.chain.pool(id)!.retirement.length === 0) ?? catalog.pools[0]!;
  const asset = catalog.assets[0]!.unit;
  const address = catalog.addresses[1]!.address;
  const out = new Map(GROUPS.flatMap((g) => Object.entries(g.requests).map(([template, r]) => [template, r.path(f).split('?')[0]!] as [string, string])));
  const set = (template: string, path: string) => out.set(template, path);
  set('/blocks/{hash_or_number}/next', '/blocks/0/next');
  set('/blocks/{hash_or_number}/previous', `/blocks/${f.chain.tipHeight()}/previous`);
  set('/epochs/{number}/next', '/epochs/0/next');
  set('/epochs/{number}/previous', `/epochs/${epoch}/previous`);
  set('/epochs/{number}/stakes', `/epochs/${epoch}/stakes`);
  set('/epochs/{number}/stakes/{pool_id}', `/epochs/${epoch}/stakes/${pool}`);
  set('/epochs/{number}/blocks', `/epochs/${epoch - 1}/blocks`);
  set('/epochs/{number}/blocks/{pool_id}', `/epochs/${epoch - 1}/blocks/${pool}`);
  for (const sub of ['utxos', 'txs', 'transactions']) set(`/addresses/{address}/${sub}`, `/addresses/${address}/${sub}`);
  set('/assets/policy/{policy_id}', `/assets/policy/${catalog.assets[0]!.policyId}`);
  set('/metadata/txs/labels/{label}', '/metadata/txs/labels/1968');
  set('/nutlink/tickers/{ticker}', '/nutlink/tickers/ADAUSD');
  for (const sub of ['rewards', 'history', 'delegations', 'registrations', 'withdrawals', 'mirs', 'addresses', 'addresses/assets', 'utxos', 'transactions']) set(`/accounts/{stake_address}/${sub}`, `/accounts/${stake}/${sub}`);
  for (const sub of ['history', 'delegators', 'blocks', 'updates', 'votes']) set(`/pools/{pool_id}/${sub}`, `/pools/${pool}/${sub}`);
  for (const sub of ['history', 'txs', 'transactions', 'addresses', 'utxos']) set(`/assets/{asset}/${sub}`, `/assets/${asset}/${sub}`);
  return out;
}

/**
 * Reads a list past its end, then finds its last page holding data (doubling while pages are full,
 * then halving), with `count` 100; `get` answers a page's length. Answers that page (0 for an empty list).
 */
export async function lastPages(get: (page: number) => Promise<number>): Promise<number> {
  if ((await get(LAST_PAGE)) !== 0) throw new Error('a page past the end holds data');
  // full: a page known full (0: none); empty: a page known to hold less than a full page.
  let [full, empty] = [0, 1];
  let items: number;
  while ((items = await get(empty)) === 100) [full, empty] = [empty, empty * 2];
  if (items > 0) return empty;
  while (empty - full > 1) {
    const mid = Math.floor((full + empty) / 2);
    items = await get(mid);
    if (items > 0 && items < 100) return mid;
    if (items === 100) full = mid;
    else empty = mid;
  }
  return full;
}
