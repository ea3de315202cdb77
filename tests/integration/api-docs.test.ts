// The API reference's documents cover every service a key can call (the Cardano API, IPFS and
// Milkomeda's JSON-RPC) and the dashboard's, each valid OpenAPI by a standard validator.
import { describe, expect, it } from 'vitest';
import { validate } from '@scalar/openapi-parser';
import { useTestApp } from '../helpers/use-test-app';
import { ALLOWED_EVM_METHODS } from '../../shared/milkomeda';
import { clientExamples } from '../../shared/client-examples';
import { DEFAULT_BLOCKS_PER_EPOCH } from '../../server/sandbox/chain/params';

const app = useTestApp();

const get = async (path: string) => {
  const res = await fetch(app.url + path);
  expect(res.status, path).toBe(200);
  return res;
};

describe('the API reference', () => {
  it.each(['/docs/data-api.json', '/docs/milkomeda-api.json', '/docs/devnets-api.json', '/api/openapi.json'])('%s is valid OpenAPI', { timeout: 60_000 }, async (path) => {
    const doc = await (await get(path)).json();
    const result = await validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('covers the Cardano API and IPFS (add, pin, list, remove, gateway) with their servers', async () => {
    const doc = (await (await get('/docs/data-api.json')).json()) as { paths: Record<string, Record<string, unknown>>; servers: Array<{ url: string }>; info: { description: string } };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/blocks/latest', '/ipfs/add', '/ipfs/pin/add/{IPFS_path}', '/ipfs/pin/list', '/ipfs/pin/list/{IPFS_path}', '/ipfs/pin/remove/{IPFS_path}', '/ipfs/gateway/{IPFS_path}']));
    expect(doc.servers.map((s) => s.url.replace(/^.*?\/\/[^/]+/, ''))).toEqual(expect.arrayContaining(['/cardano-mainnet/api/v0', '/ipfs/api/v0']));
    expect(doc.info.description).toContain('/<key>/api/v0/');
  });

  it("offers first the server URL the project page shows, and tells a new user about the sandbox and webhooks", async () => {
    const doc = (await (await get('/docs/data-api.json')).json()) as { servers: Array<{ url: string }>; info: { description: string } };
    // The project page's examples call the gateway's /api/v0 and let the key's prefix pick the network.
    const projectPageBase = `${clientExamples(app.config.site.gatewayUrl, 'preprodAbc')[0]!.code.match(/(http\S+?\/api\/v0)\//)![1]}`;
    expect(doc.servers[0]!.url).toBe(projectPageBase);
    const text = doc.info.description;
    expect(text).toContain('`POST /dev/faucet`');
    expect(text).toContain('`GET /dev/wallets`');
    const blockSeconds = app.config.gateway.sandboxBlockIntervalMs / 1000;
    expect(text).toContain(`a block every ${blockSeconds} s and an epoch every ${DEFAULT_BLOCKS_PER_EPOCH} blocks, so an epoch lasts ${(DEFAULT_BLOCKS_PER_EPOCH * blockSeconds) / 60} minutes`);
    expect(text).toContain('`/network/eras`');
    expect(text).toContain('"type": "transaction" | "block" | "delegation" | "epoch"');
    expect(text).toContain('`Blockfrost-Signature: t=<unix seconds>,v1=<signature>`');
  });

  it("covers Milkomeda's JSON-RPC with exactly the allowed methods", async () => {
    const doc = (await (await get('/docs/milkomeda-api.json')).json()) as { paths: Record<string, any>; servers: Array<{ url: string }> };
    const call = doc.paths['/'].post.requestBody.content['application/json'].schema.oneOf[0];
    expect(new Set(call.properties.method.enum)).toEqual(ALLOWED_EVM_METHODS);
    expect(doc.servers.map((s) => s.url)).toEqual([expect.stringMatching(/\/milkomeda-mainnet\/api\/v0$/)]);
  });

  it('has a Devnets page: every steering call, with request and answer examples', async () => {
    const doc = (await (await get('/docs/devnets-api.json')).json()) as { paths: Record<string, Record<string, any>>; info: { description: string } };
    expect(Object.keys(doc.paths)).toEqual([
      '/cairn/v1/devnet',
      '/cairn/v1/devnet/blocks',
      '/cairn/v1/devnet/pause',
      '/cairn/v1/devnet/resume',
      '/cairn/v1/devnet/interval',
      '/cairn/v1/devnet/rollback',
      '/cairn/v1/devnet/time',
      '/cairn/v1/devnet/snapshots',
      '/cairn/v1/devnet/snapshots/{name}/restore',
      '/cairn/v1/devnet/snapshots/{name}',
      '/cairn/v1/devnet/reset',
      '/cairn/v1/devnet/fund',
    ]);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const op of Object.values(item)) {
        const ok = op.responses['200'] ?? op.responses['201'];
        expect(ok.content['application/json'].example, path).toBeDefined();
        if (op.requestBody) expect(op.requestBody.content['application/json'].example, path).toBeDefined();
      }
    }
    expect(doc.info.description).toContain('/cairn/v1/devnet/blocks');
    const init = await (await get('/docs/init.js')).text();
    expect(init).toContain('/docs/devnets-api.json');
  });

  it('links back to the site and the dashboard', async () => {
    const html = await (await fetch(app.url + '/docs')).text();
    if (html.includes('not built yet')) return; // the page needs the web build; the e2e test covers it in the browser
    expect(html).toContain('<a href="/" ');
    expect(html).toContain('<a href="/dashboard">Dashboard</a>');
    const init = await (await get('/docs/init.js')).text();
    expect(init).toContain('/docs/milkomeda-api.json');
  });
});
