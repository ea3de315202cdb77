import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockFrostAPI, BlockfrostServerError } from '@blockfrost/blockfrost-js';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, startTestGateway } from '../helpers/gateway';
import type { RunningGateway } from '../../server/gateway-app';

const app = useTestApp();
let gw: RunningGateway;
let key: string;

// The official SDK, pointed at Cairn with customBackend, exactly as a customer would use it.
const sdk = (projectId: string) =>
  new BlockFrostAPI({ projectId, customBackend: `${gw.url}/api/v0`, rateLimiter: false, retrySettings: { limit: 0 } as never, requestTimeout: 10_000 });

beforeAll(async () => {
  const c = new Client(app.url);
  await signIn(c, app.mailer, 'sdk@example.com');
  const ws = (await c.get('/api/workspaces')).body.data[0].id;
  key = (await c.post(`/api/workspaces/${ws}/projects`, { projectName: 'sdk', networkId: 0 })).body.data.project.project_id;
  gw = await startTestGateway(app);
});
afterAll(async () => {
  await gw.close();
});

describe('@blockfrost/blockfrost-js against Cairn on the sandbox chain', () => {
  it('reads blocks, transactions, epochs, addresses and pools', async () => {
    const api = sdk(key);
    const step = <T,>(name: string, p: Promise<T>) => p.catch((e: Error) => { throw new Error(`${name}: ${e.message}`); });
    const latest = await api.blocksLatest();
    expect(latest.hash).toMatch(/^[0-9a-f]{64}$/);
    const byNumber = await step('api.blocks', api.blocks(latest.height!));
    expect(byNumber.hash).toBe(latest.hash);
    const withTxs = await step('api.blocks', api.blocks(latest.height! - 1));
    const txs = await step('api.blocksTxs', api.blocksTxs(withTxs.hash));
    expect(Array.isArray(txs)).toBe(true);
    const epoch = await step('api.epochsLatest', api.epochsLatest());
    expect(epoch.epoch).toBe(latest.epoch);
    expect((await step('api.network', api.network())).supply).toBeTruthy();

    // Walk back to a block with transactions, then follow a transaction to its address and pool.
    let hashes: string[] = txs;
    for (let h = latest.height! - 2; hashes.length === 0; h--) hashes = await api.blocksTxs(String(h));
    const tx = await step('api.txs', api.txs(hashes[0]!));
    expect(tx.hash).toBe(hashes[0]);
    const utxos = await step('api.txsUtxos', api.txsUtxos(tx.hash));
    const address = utxos.outputs[0]!.address;
    const info = await step('api.addresses', api.addresses(address));
    expect(info.address).toBe(address);
    const history = await step('api.addressesTransactions', api.addressesTransactions(address, { count: 5, order: 'desc' }));
    expect(history.length).toBeGreaterThan(0);
    const pool = await step('api.poolsById', api.poolsById(latest.slot_leader));
    expect(pool.pool_id).toBe(latest.slot_leader);
  });

  it("surfaces Cairn's 403 as it does Blockfrost's", async () => {
    const err = await sdk('mainnetNotARealKeyNotARealKeyNotARealKey').blocksLatest().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockfrostServerError);
    expect(err).toMatchObject({ status_code: 403, error: 'Forbidden', message: 'Invalid project token.' });
  });

  it("surfaces Cairn's 429 as it does Blockfrost's", async () => {
    // Empty the project's bucket (burst 500, refilled at 10/s): keep asking until the gateway says 429
    // (on a busy machine 600 requests can take long enough for the bucket to refill), then ask through
    // the SDK. The bucket refills a token every 100 ms, so on a slow machine the SDK's call can find
    // one: empty it again and ask again until the SDK's call is the one refused.
    let err: unknown;
    for (let attempt = 0; attempt < 20 && !(err instanceof BlockfrostServerError); attempt++) {
      for (let i = 0; i < 30; i++) {
        const statuses = (await Promise.all(Array.from({ length: 100 }, () => call(gw.url + '/api/v0/network', key)))).map((r) => r.status);
        if ((attempt > 0 || i >= 4) && statuses.includes(429)) break;
      }
      err = await sdk(key).blocksLatest().catch((e: unknown) => e);
    }
    expect(err).toBeInstanceOf(BlockfrostServerError);
    expect(err).toMatchObject({ status_code: 429, error: 'Project Over Limit', message: 'Usage is over limit.' });
  });
});
