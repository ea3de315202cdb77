import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startTestGateway } from '../helpers/gateway';
import { ipfsAdd, ipfsCall } from '../helpers/ipfs';
import { startFakeKubo, startFakePinningService } from '../helpers/fake-kubo';
import type { RunningGateway } from '../../server/gateway-app';

const HELLO = 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o';
const TOKEN = 'filecoin-provider-token';

let gw: RunningGateway;
let kubo: Awaited<ReturnType<typeof startFakeKubo>>;
let provider: Awaited<ReturnType<typeof startFakePinningService>>;
let dataDir: string;
let client: Client;
let ws: number;
let project: { key: string; uuid: string };

beforeAll(async () => {
  kubo = await startFakeKubo();
  provider = await startFakePinningService(TOKEN);
});
afterAll(async () => {
  await kubo.close();
  await provider.close();
});
// The dashboard API reads the same configuration to say where pins live.
const app = useTestApp(() => ({ env: { IPFS_KUBO_API_URL: kubo.url, FILECOIN_PINNING_SERVICE_URL: provider.url, FILECOIN_PINNING_SERVICE_TOKEN: TOKEN } }));
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-ipfs-kubo-'));
  gw = await startTestGateway(app, {
    DATA_DIR: dataDir,
    IPFS_KUBO_API_URL: kubo.url,
    FILECOIN_PINNING_SERVICE_URL: provider.url,
    FILECOIN_PINNING_SERVICE_TOKEN: TOKEN,
    IPFS_GC_GRACE_SECONDS: '1',
  });
  client = new Client(app.url);
  await signIn(client, app.mailer, 'kubo@example.com');
  ws = (await client.get('/api/workspaces')).body.data[0].id;
  const res = await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'on kubo', networkId: 2 });
  project = { key: res.body.data.project.project_id, uuid: res.body.data.project.uuid };
  await gw.keys.catchUp();
});
afterAll(async () => {
  await gw.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('IPFS on a Kubo node (IPFS_KUBO_API_URL) with a Filecoin pinning service', () => {
  it('adds through Kubo with `ipfs add` defaults and nothing stored under DATA_DIR', async () => {
    const res = await ipfsAdd(gw.url, project.key, Buffer.from('hello world\n'), 'hello.txt');
    expect(res.body).toEqual({ name: 'hello.txt', ipfs_hash: HELLO, size: '12' });
    const add = kubo.calls.find((c) => c.rpc === 'add')!;
    expect(add.args).toMatchObject({ 'cid-version': '0', 'raw-leaves': 'false', chunker: 'size-262144', pin: 'false' });
    expect(fs.existsSync(path.join(dataDir, 'ipfs'))).toBe(false);
  });

  it('reads through Kubo, by range too', async () => {
    const part = await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${HELLO}`, project.key, { range: 'bytes=0-4' });
    expect(part.status).toBe(206);
    expect(part.raw.toString()).toBe('hello');
    expect(kubo.calls.some((c) => c.rpc === 'cat' && c.args.offset === '0' && c.args.length === '5')).toBe(true);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/QmRk1rduJvo5DfEYAaLobS2za9tDszk35hzaNSDCJ74DA7`, project.key)).status).toBe(404);
  });

  it('queues a pin, pins it on Kubo, and unpins it there once no pin holds it', async () => {
    expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${HELLO}`, project.key)).body).toEqual({ ipfs_hash: HELLO, state: 'queued', filecoin: false });
    await gw.ipfs!.processQueue();
    expect(kubo.pins.has(HELLO)).toBe(true);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list/${HELLO}`, project.key)).body.state).toBe('pinned');
    expect((await client.get(`/api/workspaces/${ws}/quota`)).body.data.used.subscription.storage).toBe(12);
    await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/remove/${HELLO}`, project.key);
    const { released } = await gw.ipfs!.collect();
    expect(released).toEqual([HELLO]);
    expect(kubo.pins.has(HELLO)).toBe(false);
  });

  it('makes the Filecoin deal through the pinning service: queued until the provider says pinned', async () => {
    const added = await ipfsAdd(gw.url, project.key, Buffer.from('{"deal":true}'), 'deal.json');
    const cid = added.body.ipfs_hash as string;
    expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${cid}?filecoin=true`, project.key)).body).toEqual({ ipfs_hash: cid, state: 'queued', filecoin: true });
    // Two passes at once, as two gateways' (or the ticker's beside this one) would be: one asks the provider.
    await Promise.all([gw.ipfs!.processQueue(), gw.ipfs!.processQueue()]); // submitted
    expect([...provider.requests.values()].map((r) => r.cid)).toEqual([cid]);
    await gw.ipfs!.processQueue(); // provider: pinning
    expect(provider.requests.size).toBe(1);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list/${cid}`, project.key)).body.state).toBe('queued');
    provider.finish(cid);
    await gw.ipfs!.processQueue(); // provider: pinned
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list/${cid}`, project.key)).body).toMatchObject({ state: 'pinned', filecoin: true });
    const page = await client.get(`/api/workspaces/${ws}/projects/${project.uuid}/ipfs`);
    expect(page.body.data).toMatchObject({ store: 'kubo', filecoinProvider: provider.url, storage: { filecoinUsed: 13 } });
  });
});
