// Walks every GET path of Blockfrost's OpenAPI document (@blockfrost/openapi) over the sandbox chain
// of each Cardano network: each must answer 200 in the document's schema, with no undocumented
// field, and an array answer must hold something. A path a newer document adds fails here until an
// endpoint group serves it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanPathMethods } from '../../../../../server/blockfrost/methods';
import { memoryLedgerStore, type SandboxNetwork } from '../../../../../server/sandbox/chain/index';
import { assertSchema, serve, testChain } from './support';
import type { WalkFixture, WalkGroup } from './walk/types';
import { GROUPS } from './walk/groups';

const require = createRequire(import.meta.url);


/** Paths Cairn's gateway answers itself rather than the chain (each tested where it is served). */
const GATEWAY_PATHS: Record<string, string> = {
  '/ipfs/gateway/{IPFS_path}': 'tests/integration/ipfs.test.ts',
  '/ipfs/pin/list': 'tests/integration/ipfs.test.ts',
  '/ipfs/pin/list/{IPFS_path}': 'tests/integration/ipfs.test.ts',
  '/metrics': 'tests/integration/blockfrost-contract.test.ts',
  '/metrics/endpoints': 'tests/integration/blockfrost-contract.test.ts',
};

/** Paths of the document the sandbox does not serve yet; each is named in the sandbox's README. */
const NOT_YET_SERVED = new Set<string>([
]);

const DOCUMENT_GETS = [...scanPathMethods(fs.readFileSync(require.resolve('@blockfrost/openapi/openapi.yaml'), 'utf8'))]
  .filter(([, methods]) => methods.has('GET'))
  .map(([path]) => path);

const requests = new Map<string, { group: string; request: WalkGroup['requests'][string] }>();
for (const group of GROUPS) {
  for (const [path, request] of Object.entries(group.requests)) {
    if (requests.has(path)) throw new Error(`${path} is walked by both ${requests.get(path)!.group} and ${group.name}`);
    requests.set(path, { group: group.name, request });
  }
}

describe('the whole Blockfrost OpenAPI document', () => {
  it('has a walked request for every GET path (or names where else it is served)', () => {
    const missing = DOCUMENT_GETS.filter((p) => !requests.has(p) && !(p in GATEWAY_PATHS) && !NOT_YET_SERVED.has(p));
    expect(missing, 'GET paths of the document no endpoint group walks').toEqual([]);
    // A path both walked and listed as not served is served now: take it off the list.
    expect([...NOT_YET_SERVED].filter((p) => requests.has(p))).toEqual([]);
    // Every walked path is one of the document's.
    expect([...requests.keys()].filter((p) => !DOCUMENT_GETS.includes(p))).toEqual([]);
  });
});

const NETWORKS: SandboxNetwork[] = ['mainnet', 'preprod', 'preview'];

describe.each(NETWORKS)('every served GET path on the %s sandbox', (network) => {
  const f = { network, made: {} } as WalkFixture;

  beforeAll(async () => {
    const { chain, clock } = testChain({ network, store: memoryLedgerStore() });
    Object.assign(f, { chain, clock, http: await serve(chain) });
    for (const group of GROUPS) await group.prepare?.(f);
  }, 60_000);
  afterAll(async () => {
    await f.http?.close();
  });

  it.each([...requests.keys()])('%s', async (template) => {
    const { request } = requests.get(template)!;
    const path = request.path(f);
    const res = await f.http.get(path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    assertSchema(template, res.body);
    if (Array.isArray(res.body) && !request.mayBeEmpty) expect(res.body.length, `${path} answered an empty list`).toBeGreaterThan(0);
  });
});
