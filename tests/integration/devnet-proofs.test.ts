// What a dApp developer does with a devnet, through the gateway with the devnet project's key and
// Mesh SDK from npm: locks ada at a Plutus V3 script with a deadline and spends it once the steering
// API moved time past it; has the block of a transaction rolled back, hears of it from its webhooks
// and sees its utxos back, then submits it again and follows its status to confirmed (the 'tx_status'
// deliveries checked with blockfrost-js's signature check); takes a snapshot, spends, restores and
// has the spent utxo back; funds a fresh address with ada and tokens and spends them. The chain is
// paused: blocks come from the steering API, the webhook follower and dispatcher run on demand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockfrostProvider, MeshTxBuilder, MeshWallet, deserializeAddress, mConStr0, serializePlutusScript, type Protocol, type UTxO } from '@meshsdk/core';
import { verifyWebhookSignature } from '@blockfrost/blockfrost-js';
import { parseUPLCText, UPLCProgram, compileUPLC } from '@harmoniclabs/uplc';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startTestGateway } from '../helpers/gateway';
import { startReceiver } from '../helpers/receiver';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { ChainFollower } from '../../server/features/webhooks/follower';
import { DevnetFollowers, devnetCursorKey, devnetSource } from '../../server/features/webhooks/devnet-followers';
import { Dispatcher } from '../../server/features/webhooks/dispatcher';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { createLogger } from '../../server/logger';
import { devnetNetwork } from '../../shared/networks';
import type { TxStatus } from '../../shared/txs';

/**
 * A Plutus V3 spending validator: the spent output's inline datum is a deadline (POSIX ms), and the
 * transaction's validity interval must start after it. Untyped Plutus Core, compiled here.
 */
function deadlineValidator(): string {
  const snd = (x: string) => `[(force (force (builtin sndPair))) ${x}]`;
  const fields = (x: string) => snd(`[(builtin unConstrData) ${x}]`);
  const head = (x: string) => `[(force (builtin headList)) ${x}]`;
  const tail = (x: string) => `[(force (builtin tailList)) ${x}]`;
  const nth = (x: string, n: number) => head(Array.from({ length: n }).reduce<string>((a) => tail(a), x));
  const ctx = fields('ctx'); // ScriptContext: txInfo, redeemer, scriptInfo
  const validRange = nth(fields(head(ctx)), 7); // TxInfo's eighth field
  // Interval → LowerBound → Finite time (a bound at minus infinity has no time: the script fails).
  const start = `[(builtin unIData) ${head(fields(head(fields(head(fields(validRange))))))}]`;
  // SpendingScript outRef (Just datum) → the datum, an integer.
  const deadline = `[(builtin unIData) ${head(fields(nth(fields(nth(ctx, 2)), 1)))}]`;
  // One argument per application: the parser takes [f a b] as [f a].
  const text = `(lam ctx (force [[[(force (builtin ifThenElse)) [[(builtin lessThanInteger) ${deadline}] ${start}]] (delay (con unit ()))] (delay (error))]))`;
  const flat = compileUPLC(new UPLCProgram([1, 1, 0], parseUPLCText(text))).toBuffer().buffer;
  // CBOR byte strings, twice: the form Mesh takes a script's code in.
  const bytes = (b: Uint8Array) => Buffer.concat([b.length < 24 ? Buffer.from([0x40 + b.length]) : Buffer.from([0x58, b.length]), b]);
  return bytes(bytes(flat)).toString('hex');
}

const app = useTestApp();
const logger = createLogger('silent');
let gw: RunningGateway;
let client: Client;
let ws: number;
let key: string;
let uuid: string;
let projectId: number;
let devnetId: number;
let provider: BlockfrostProvider;
let params: Protocol;
let follower: ChainFollower;
let dispatcher: Dispatcher;

const steer = async (method: string, sub: string, body?: unknown) => {
  const res = await fetch(`${gw.url}/cairn/v1/devnet${sub}`, { method, headers: { project_id: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const parsed = (await res.json()) as any;
  expect(res.status, JSON.stringify(parsed)).toBeLessThan(300);
  return parsed;
};
const get = async (path: string) => {
  const res = await fetch(`${gw.url}/api/v0${path}`, { headers: { project_id: key } });
  return { status: res.status, body: (await res.json()) as any };
};
const tip = async () => (await get('/blocks/latest')).body as { height: number; hash: string; slot: number; time: number };
/** Blocks through the steering API, then the webhook follower and the deliveries. */
const produce = async (count = 1) => {
  await steer('POST', '/blocks', { count });
  await deliver();
};
/** The follower catches up with the tip (a tick reads at most 50 blocks: a time jump takes several), then the deliveries go. */
const deliver = async () => {
  const height = (await tip()).height;
  for (let i = 0; i < 100; i++) {
    await follower.tick();
    const cursor = await app.db('chain_cursors').where({ network: devnetCursorKey(devnetId), confirmations: 0 }).first('height');
    if (cursor && Number(cursor.height) >= height) break;
  }
  while ((await dispatcher.runOnce()) > 0);
};
const status = async (hash: string) => (await (await fetch(`${gw.url}/cairn/v1/txs/${hash}/status`, { headers: { project_id: key } })).json()) as TxStatus;
/** Until the gateway recorded a submission (it writes once its answer has gone out). */
async function recorded(hash: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await fetch(`${gw.url}/cairn/v1/txs/${hash}/status`, { headers: { project_id: key } })).status === 200) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${hash} was never recorded`);
}
const lovelace = (u: UTxO) => BigInt(u.output.amount.find((a) => a.unit === 'lovelace')!.quantity);

async function freshWallet(): Promise<{ wallet: MeshWallet; address: string }> {
  const wallet = new MeshWallet({ networkId: 0, fetcher: provider, submitter: provider, key: { type: 'mnemonic', words: MeshWallet.brew() as string[] } });
  await wallet.init();
  return { wallet, address: await wallet.getChangeAddress() };
}

/** A wallet the devnet funded with `ada` in one output (paid in the next block, made at once). */
async function funded(ada: bigint): Promise<{ wallet: MeshWallet; address: string }> {
  const w = await freshWallet();
  await steer('POST', '/fund', { address: w.address, lovelace: String(ada * 1_000_000n) });
  await produce();
  return w;
}

async function pay(w: { wallet: MeshWallet; address: string }, to: string, amount: bigint, from?: UTxO[]): Promise<string> {
  const unsigned = await new MeshTxBuilder({ fetcher: provider, params })
    .txOut(to, [{ unit: 'lovelace', quantity: String(amount) }])
    .changeAddress(w.address)
    .selectUtxosFrom(from ?? (await provider.fetchAddressUTxOs(w.address)))
    .complete();
  const hash = await w.wallet.submitTx(await w.wallet.signTx(unsigned));
  await recorded(hash);
  return hash;
}

beforeAll(async () => {
  client = new Client(app.url);
  await signIn(client, app.mailer, 'devnet-proofs@example.com');
  const me = (await client.get('/api/me')).body.data.id;
  await setSubscription(app.db, me, 'DEVELOPER', 'active');
  ws = (await client.get('/api/workspaces')).body.data[0].id;
  const created = await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'proofs', networkId: devnetNetwork.value });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  key = created.body.data.project.project_id;
  uuid = created.body.data.uuid;
  projectId = Number((await app.db('projects').where({ uuid }).first('id')).id);
  gw = await startTestGateway(app);
  await gw.keys.catchUp();
  // A paused chain of 1-second slots and blocks: it moves only when steered.
  await steer('POST', '', { genesis: { slotLengthMs: 1000, blockIntervalMs: 1000, epochLength: 600, securityParam: 10 } });
  await steer('POST', '/pause');
  devnetId = Number((await app.db('devnets').where({ project_id: projectId }).first('id')).id);
  provider = new BlockfrostProvider(`${gw.url}/${key}/api/v0`);
  params = await provider.fetchProtocolParameters();
  follower = new ChainFollower(app.db, logger, devnetSource(gw.devnets!, projectId), { network: devnetNetwork.webhookId, chain: { key: devnetCursorKey(devnetId), projectId }, trackTxs: true });
  dispatcher = new Dispatcher(app.db, logger, app.mailer, { allowlist: parseAllowlist('127.0.0.1'), timeoutMs: 2000, retrySchedule: [0, 100], publicUrl: app.url });
  await follower.tick();
});
afterAll(async () => {
  await gw?.close();
});

describe('a devnet, through the gateway with its project key and Mesh SDK', () => {
  it('locks ada at a Plutus V3 script with a deadline, is refused before it, and spends once the steering API moved time past it', async () => {
    const owner = await funded(100n);
    const code = deadlineValidator();
    const { address: scriptAddress } = serializePlutusScript({ code, version: 'V3' }, undefined, 0);
    const now = await tip();
    const deadlineMs = (now.time + 300) * 1000;
    const lock = await new MeshTxBuilder({ fetcher: provider, params })
      .txOut(scriptAddress, [{ unit: 'lovelace', quantity: '20000000' }])
      .txOutInlineDatumValue(deadlineMs)
      .changeAddress(owner.address)
      .selectUtxosFrom(await provider.fetchAddressUTxOs(owner.address))
      .complete();
    const lockHash = await owner.wallet.submitTx(await owner.wallet.signTx(lock));
    await recorded(lockHash);
    await produce();
    const locked = (await provider.fetchAddressUTxOs(scriptAddress)).find((u) => u.input.txHash === lockHash)!;
    expect(locked, 'the locked output').toBeDefined();

    const spend = async (fromSlot: number) => {
      const funds = await provider.fetchAddressUTxOs(owner.address);
      const collateral = funds.find((u) => lovelace(u) >= 5_000_000n)!;
      const unsigned = await new MeshTxBuilder({ fetcher: provider, params })
        .spendingPlutusScriptV3()
        .txIn(locked.input.txHash, locked.input.outputIndex, locked.output.amount, scriptAddress)
        .txInInlineDatumPresent()
        .txInRedeemerValue(mConStr0([]))
        .txInScript(code)
        .txInCollateral(collateral.input.txHash, collateral.input.outputIndex, collateral.output.amount, collateral.output.address)
        .requiredSignerHash(deserializeAddress(owner.address).pubKeyHash)
        .invalidBefore(fromSlot)
        .invalidHereafter(fromSlot + 600)
        .changeAddress(owner.address)
        .selectUtxosFrom(funds)
        .complete();
      return owner.wallet.signTx(unsigned, true);
    };
    // Before the deadline the validator fails: the gateway refuses the transaction.
    const early = await fetch(`${gw.url}/api/v0/tx/submit`, { method: 'POST', headers: { project_id: key, 'content-type': 'application/cbor' }, body: Buffer.from(await spend((await tip()).slot), 'hex') });
    expect(early.status).toBe(400);
    expect(((await early.json()) as { message: string }).message).toMatch(/script failed: spend:0/i);

    // 400 slots later (the steering API's time jump) it succeeds.
    const moved = await steer('POST', '/time', { slots: 400 });
    expect(moved.tip.time * 1000).toBeGreaterThan(deadlineMs);
    await deliver();
    const spendHash = await owner.wallet.submitTx(await spend((await tip()).slot));
    await recorded(spendHash);
    await produce();
    expect((await get(`/txs/${spendHash}`)).body).toMatchObject({ hash: spendHash, redeemer_count: 1, valid_contract: true });
    expect((await provider.fetchAddressUTxOs(scriptAddress)).some((u) => u.input.txHash === lockHash)).toBe(false);
  });

  it('rolls back the block of a transaction: its webhooks hear of it, its utxos come back, and resubmitted it goes in block → confirmed', async () => {
    const receiver = await startReceiver();
    try {
      expect((await client.put(`/api/projects/${uuid}/tx-confirmations`, { confirmations: 3 })).status).toBe(200);
      const hook = async (type: string) => {
        const created = await client.post(`/api/workspaces/${ws}/webhooks`, { name: `devnet ${type}`, description: '', network: devnetNetwork.webhookId, project: uuid, type, target_url: receiver.url, confirmations: 0, status: 'enabled', conditions: [], api_version: 1 });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        expect(created.body.data.webhook.project).toBe(uuid);
        return created.body.data.webhook as { id: string; auth_token: string };
      };
      const statusHook = await hook('tx_status');
      const txHook = await hook('transaction');
      await deliver();

      const sender = await funded(50n);
      const recipient = await freshWallet();
      const before = await provider.fetchAddressUTxOs(sender.address);
      const hash = await pay(sender, recipient.address, 7_000_000n);
      await produce();
      const landed = await status(hash);
      expect(landed).toMatchObject({ state: 'in_block', depth: 1 });
      expect((await provider.fetchAddressUTxOs(recipient.address)).map((u) => u.input.txHash)).toEqual([hash]);

      // The block that holds it goes; the transaction is dropped with it.
      await steer('POST', '/rollback', { blocks: 1, txs: 'drop' });
      await deliver();
      expect(await status(hash)).toMatchObject({ state: 'rolled_back', block_height: null });
      expect(await provider.fetchAddressUTxOs(recipient.address)).toEqual([]);
      expect((await provider.fetchAddressUTxOs(sender.address)).map((u) => `${u.input.txHash}#${u.input.outputIndex}`).sort()).toEqual(before.map((u) => `${u.input.txHash}#${u.input.outputIndex}`).sort());
      expect((await get(`/txs/${hash}`)).status).toBe(404);

      // The same transaction again: it lands on the new branch and is confirmed at depth 3.
      const again = await pay(sender, recipient.address, 7_000_000n, before);
      expect(again).toBe(hash);
      await produce();
      expect(await status(hash)).toMatchObject({ state: 'in_block', depth: 1 });
      await produce(2);
      const confirmed = await status(hash);
      expect(confirmed).toMatchObject({ state: 'confirmed', depth: 3 });
      expect(confirmed.history.map((h) => h.state)).toEqual(['pending', 'in_block', 'rolled_back', 'in_block', 'confirmed']);

      // Every 'tx_status' delivery is signed with the webhook's token (blockfrost-js checks it), and tells the same story.
      const deliveries = receiver.received.filter((r) => r.body?.webhook_id === statusHook.id);
      for (const r of deliveries) expect(verifyWebhookSignature(r.raw, r.headers['blockfrost-signature'] as string, statusHook.auth_token, 600)).toBeTruthy();
      const story = deliveries.map((r) => r.body.payload).filter((p) => p.tx_hash === hash);
      expect(story.map((p) => [p.previous_state, p.state])).toEqual([
        [null, 'pending'],
        ['pending', 'in_block'],
        ['in_block', 'rolled_back'],
        ['rolled_back', 'in_block'],
        ['in_block', 'confirmed'],
      ]);
      expect(story.every((p) => p.project === uuid)).toBe(true);
      // The 'transaction' webhook saw the transaction in each block that held it: the abandoned one and the new one.
      const seen = receiver.received.filter((r) => r.body?.webhook_id === txHook.id).flatMap((r) => (r.body.payload as Array<{ tx: { hash: string; block: string } }>).map((p) => p.tx));
      const blocks = seen.filter((t) => t.hash === hash).map((t) => t.block);
      expect(blocks).toHaveLength(2);
      expect(blocks[0]).not.toBe(blocks[1]);
      for (const r of receiver.received.filter((x) => x.body?.webhook_id === txHook.id)) expect(verifyWebhookSignature(r.raw, r.headers['blockfrost-signature'] as string, txHook.auth_token, 600)).toBeTruthy();

      // A rollback that puts the block's transactions back in the mempool: rolled back, pending again, in the next block.
      const requeued = await pay(sender, recipient.address, 3_000_000n);
      await produce();
      expect(await status(requeued)).toMatchObject({ state: 'in_block' });
      const rolled = await steer('POST', '/rollback', { blocks: 1, txs: 'mempool' });
      expect(rolled.requeued).toEqual([requeued]);
      await deliver();
      expect(await status(requeued)).toMatchObject({ state: 'pending', block_height: null });
      await produce(3);
      const settled = await status(requeued);
      expect(settled.state).toBe('confirmed');
      expect(settled.history.map((h) => h.state)).toEqual(['pending', 'in_block', 'rolled_back', 'pending', 'in_block', 'confirmed']);
    } finally {
      await receiver.close();
    }
  });

  it('takes a snapshot, spends, restores it, and has the spent utxo back', async () => {
    const owner = await funded(30n);
    const [utxo] = await provider.fetchAddressUTxOs(owner.address);
    await steer('POST', '/snapshots', { name: 'before-spend' });
    const other = await freshWallet();
    const hash = await pay(owner, other.address, 10_000_000n);
    await produce();
    expect((await provider.fetchAddressUTxOs(owner.address)).some((u) => u.input.txHash === utxo!.input.txHash)).toBe(false);
    expect((await get(`/txs/${hash}`)).status).toBe(200);

    await steer('POST', '/snapshots/before-spend/restore');
    await deliver();
    const back = await provider.fetchAddressUTxOs(owner.address);
    expect(back.map((u) => `${u.input.txHash}#${u.input.outputIndex}`)).toEqual([`${utxo!.input.txHash}#${utxo!.input.outputIndex}`]);
    expect(await provider.fetchAddressUTxOs(other.address)).toEqual([]);
    expect((await get(`/txs/${hash}`)).status).toBe(404);
  });

  it('funds a fresh address with 1,000 ada and 5 tokens, which it then spends', async () => {
    const w = await freshWallet();
    const fundedRes = await steer('POST', '/fund', { address: w.address, lovelace: '1000000000', assets: [{ assetName: '50726f6f66', quantity: '5' }] });
    await produce();
    const unit = `${fundedRes.policy_id}50726f6f66`;
    const utxos = await provider.fetchAddressUTxOs(w.address);
    const held = (unit: string) => utxos.reduce((n, u) => n + BigInt(u.output.amount.find((a) => a.unit === unit)?.quantity ?? 0), 0n);
    expect(held('lovelace')).toBe(1_000_000_000n);
    expect(held(unit)).toBe(5n);

    const to = await freshWallet();
    const unsigned = await new MeshTxBuilder({ fetcher: provider, params })
      .txOut(to.address, [
        { unit: 'lovelace', quantity: '900000000' },
        { unit, quantity: '5' },
      ])
      .changeAddress(w.address)
      .selectUtxosFrom(utxos)
      .complete();
    const hash = await w.wallet.submitTx(await w.wallet.signTx(unsigned));
    await recorded(hash);
    await produce();
    const received = await provider.fetchAddressUTxOs(to.address);
    expect(received.map((u) => u.input.txHash)).toEqual([hash]);
    expect(received[0]!.output.amount).toEqual(expect.arrayContaining([{ unit, quantity: '5' }, { unit: 'lovelace', quantity: '900000000' }]));
    expect((await provider.fetchAddressUTxOs(w.address)).some((u) => u.output.amount.some((a) => a.unit === unit))).toBe(false);
  });

  it('follows the devnet again after a reset takes it back to block 0: a transaction then lands in its block', async () => {
    await steer('POST', '/reset');
    // A reset chain runs from block 0 at once: paused again, it moves only when steered.
    await steer('POST', '/pause');
    await deliver();
    const cursor = await app.db('chain_cursors').where({ network: devnetCursorKey(devnetId), confirmations: 0 }).first('height', 'hash');
    const now = await tip();
    expect({ height: Number(cursor.height), hash: cursor.hash }).toEqual({ height: now.height, hash: now.hash });
    const sender = await funded(20n);
    const recipient = await freshWallet();
    const hash = await pay(sender, recipient.address, 2_000_000n);
    await produce();
    expect(await status(hash)).toMatchObject({ state: 'in_block', depth: 1, block_height: (await tip()).height });
  });

  it('follows an active devnet with webhooks or open transactions, and only such ones', async () => {
    const quiet = await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'quiet', networkId: devnetNetwork.value });
    const quietUuid = quiet.body.data.uuid as string;
    const quietId = Number((await app.db('projects').where({ uuid: quietUuid }).first('id')).id);
    // Its devnet is made and used (a Blockfrost call), so it is active, but nothing asks for it to be followed.
    expect((await fetch(`${gw.url}/api/v0/blocks/latest`, { headers: { project_id: quiet.body.data.project.project_id } })).status).toBe(200);
    const followers = new DevnetFollowers({ db: app.db, logger, chains: gw.devnets!, idleMs: 60_000, follower: () => ({ pollMs: 60_000 }) });
    try {
      await followers.scan();
      expect(followers.followed()).toEqual([projectId]);
      // A webhook naming it: followed too; disabled, not any more.
      const hook = await client.post(`/api/workspaces/${ws}/webhooks`, { name: 'quiet blocks', description: '', network: devnetNetwork.webhookId, project: quietUuid, type: 'block', target_url: 'https://example.com/hook', confirmations: 0, status: 'enabled', conditions: [], api_version: 1 });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      await followers.scan();
      expect(followers.followed().sort()).toEqual([projectId, quietId].sort());
      await app.db('webhooks').where({ project_id: quietId }).update({ status: 'disabled' });
      await followers.scan();
      expect(followers.followed()).toEqual([projectId]);
    } finally {
      await followers.stop();
    }
  });

  it("counts the devnet key's calls in the project's request statistics, by endpoint", async () => {
    await gw.meter.flush();
    const stats = await client.get(`/api/workspaces/${ws}/projects/${uuid}/stats`);
    expect(stats.status).toBe(200);
    expect(stats.body.data.projectRequests).toBeGreaterThan(50);
    const endpoints = stats.body.data.endpoints as Array<{ endpoint: string; requests: number }>;
    expect(endpoints.find((e) => e.endpoint === '/tx/submit')?.requests).toBeGreaterThanOrEqual(8);
    expect(endpoints.some((e) => e.endpoint.startsWith('/cairn/v1/devnet'))).toBe(true);
    const list = (await client.get(`/api/workspaces/${ws}/projects`)).body.data as Array<{ uuid: string; requests_today: number }>;
    expect(list.find((x) => x.uuid === uuid)!.requests_today).toBe(stats.body.data.projectRequests);
  });

  it('refuses a devnet webhook without its project, with another network, or naming a project not a devnet of the workspace', async () => {
    const body = { name: 'bad', description: '', network: devnetNetwork.webhookId, type: 'block', target_url: 'https://example.com/hook', confirmations: 0, status: 'enabled', conditions: [], api_version: 1 };
    const none = await client.post(`/api/workspaces/${ws}/webhooks`, body);
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain("follows one project's devnet");
    const preview = await client.post(`/api/workspaces/${ws}/webhooks`, { ...body, network: 2, project: uuid });
    expect(preview.status).toBe(400);
    expect(JSON.stringify(preview.body)).toContain('Only a Cardano devnet webhook names a project');
    const preprod = await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'preprod', networkId: 6 });
    const notDevnet = await client.post(`/api/workspaces/${ws}/webhooks`, { ...body, project: preprod.body.data.uuid });
    expect(notDevnet.status).toBe(400);
    const unknown = await client.post(`/api/workspaces/${ws}/webhooks`, { ...body, project: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
  });
});
