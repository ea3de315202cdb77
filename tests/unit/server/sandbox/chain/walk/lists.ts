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

/** Reads a page of a list with `count` items a page; answers how many items it held. */
export type PageReader = (page: number, count: number) => Promise<number>;

/**
 * Reads a list past its end, then finds its last page holding data with `count` 100, and reads the
 * page after it; answers that page (0 for an empty list). `probe` says how the end is found: 100
 * (the default) doubles the page while pages of 100 are full, then halves; 1 finds the list's length
 * from pages of one item (doubling, then halving), so of the pages of 100 only the last one and the
 * one after it are read. Either way a page that does not hold what the length says fails.
 */
export async function lastPages(get: PageReader, probe: 1 | 100 = 100): Promise<number> {
  if ((await get(LAST_PAGE, 100)) !== 0) throw new Error('a page past the end holds data');
  if (probe === 1) return lastPageFromLength(get);
  // full: a page known full (0: none); empty: a page known to hold less than a full page.
  let [full, empty] = [0, 1];
  let items: number;
  while ((items = await get(empty, 100)) === 100) [full, empty] = [empty, empty * 2];
  if (items > 0) return empty;
  while (empty - full > 1) {
    const mid = Math.floor((full + empty) / 2);
    items = await get(mid, 100);
    if (items > 0 && items < 100) return mid;
    if (items === 100) full = mid;
    else empty = mid;
  }
  return full;
}

/** The list's length from pages of one item, then its last page of 100 and the page after it. */
async function lastPageFromLength(get: PageReader): Promise<number> {
  const one = async (page: number): Promise<boolean> => {
    const items = await get(page, 1);
    if (items > 1) throw new Error(`a page of one item held ${items}`);
    return items === 1;
  };
  // held: an item known to exist (0: none); missing: one known not to.
  let [held, missing] = [0, 1];
  while (await one(missing)) [held, missing] = [missing, missing * 2];
  while (missing - held > 1) {
    const mid = Math.floor((held + missing) / 2);
    if (await one(mid)) held = mid;
    else missing = mid;
  }
  const last = Math.max(1, Math.ceil(held / 100));
  const expected = held - (last - 1) * 100;
  const items = await get(last, 100);
  if (items !== expected) throw new Error(`page ${last} of 100 held ${items} items where the list's length (${held}) says ${expected}`);
  if (held > 0 && (await get(last + 1, 100)) !== 0) throw new Error(`page ${last + 1} of 100, past the list's length (${held}), holds data`);
  return held === 0 ? 0 : last;
}
