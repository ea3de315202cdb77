// The proofs of the sandbox ledger, as a customer meets them: an off-the-shelf transaction builder
// (Mesh SDK, from npm) pointed at Cairn's gateway with a project key builds, signs and submits a
// payment from a development wallet; the recipient's utxo shows after the next block; a webhook on
// the recipient fires with the transaction; blockfrost-js's *All helpers page through complete lists.
import { startTestGateway } from '../helpers/gateway';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockFrostAPI, BlockfrostServerError } from '@blockfrost/blockfrost-js';
import { BlockfrostProvider, MeshTxBuilder, MeshWallet } from '@meshsdk/core';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startReceiver } from '../helpers/receiver';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { createSandboxChain, type SandboxChain } from '../../server/sandbox/chain/index';
import { dbLedgerStore } from '../../server/sandbox/store';
import { sandboxSource } from '../../server/features/webhooks/chain-source';
import { ChainFollower } from '../../server/features/webhooks/follower';
import { Dispatcher } from '../../server/features/webhooks/dispatcher';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { createLogger } from '../../server/logger';
import { keysOf, payment } from '../unit/server/sandbox/chain/tx-builder';

const app = useTestApp();
let gw: RunningGateway;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let chain: SandboxChain;
let key: string;
let client: Client;
let ws: number;
const clock = { now: Date.UTC(2026, 10, 2, 9) };
const logger = createLogger('silent');
const nextBlock = () => {
  clock.now += chain.params.blockIntervalMs;
};

beforeAll(async () => {
  receiver = await startReceiver();
  client = new Client(app.url);
  await signIn(client, app.mailer, 'ledger@example.com');
  const me = (await client.get('/api/me')).body.data.id;
  await setSubscription(app.db, me, 'DEVELOPER', 'active');
  ws = (await client.get('/api/workspaces')).body.data[0].id;
  key = (await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'dapp', networkId: 6 })).body.data.project.project_id;
  chain = createSandboxChain({ network: 'preprod', now: () => clock.now, store: dbLedgerStore(app.db) });
  await chain.ready();
  // The gateway serves this very chain, the one the follower reads.
  gw = await startTestGateway(app, {}, undefined, { chains: { preprod: chain } });
});
afterAll(async () => {
  await gw.close();
  await receiver.close();
});

describe('a dApp on the sandbox chain', () => {
  it('Mesh SDK builds, signs and submits a payment; the utxo shows after the next block; a webhook on the recipient fires', async () => {
    const [sender, , recipient] = chain.devWallets();
    const hook = await client.post(`/api/workspaces/${ws}/webhooks`, {
      name: 'to recipient', description: '', network: 3, type: 'transaction', target_url: receiver.url, confirmations: 0, status: 'enabled',
      conditions: [{ type: 'recipient', operator: '=', value: recipient!.address }], api_version: 1,
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const follower = new ChainFollower(app.db, logger, sandboxSource(chain), { network: 3, maxBlocksPerTick: 50 });
    await follower.tick();

    const provider = new BlockfrostProvider(`${gw.url}/api/v0`);
    // Mesh's URL form is for Blockfrost-compatible backends; Cairn's gateway wants the project key.
    (provider as unknown as { _axiosInstance: { defaults: { headers: { common: Record<string, string> } } } })._axiosInstance.defaults.headers.common.project_id = key;
    const wallet = new MeshWallet({ networkId: 0, fetcher: provider, submitter: provider, key: { type: 'mnemonic', words: sender!.mnemonic.split(' ') } });
    await wallet.init();
    expect(await wallet.getChangeAddress()).toBe(sender!.address);
    const params = await provider.fetchProtocolParameters();
    const builder = new MeshTxBuilder({ fetcher: provider, params });
    const unsigned = await builder
      .txOut(recipient!.address, [{ unit: 'lovelace', quantity: '12345678' }])
      .changeAddress(sender!.address)
      .selectUtxosFrom(await wallet.getUtxos())
      .complete();
    const signed = await wallet.signTx(unsigned);
    const hash = await wallet.submitTx(signed);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);

    expect((await provider.fetchAddressUTxOs(recipient!.address)).some((u) => u.input.txHash === hash)).toBe(false);
    nextBlock();
    const utxos = await provider.fetchAddressUTxOs(recipient!.address);
    expect(utxos.find((u) => u.input.txHash === hash)?.output.amount).toEqual([{ unit: 'lovelace', quantity: '12345678' }]);

    await follower.tick();
    const dispatcher = new Dispatcher(app.db, logger, app.mailer, { allowlist: parseAllowlist('127.0.0.1'), timeoutMs: 2000, retrySchedule: [0, 100], publicUrl: app.url });
    while ((await dispatcher.runOnce()) > 0);
    const events = receiver.received.filter((r) => r.body?.webhook_id === hook.body.data.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.body.payload.map((p: { tx: { hash: string } }) => p.tx.hash)).toEqual([hash]);
    expect(events[0]!.body.payload[0].outputs.some((o: { address: string }) => o.address === recipient!.address)).toBe(true);
  });

  it("blockfrost-js's paginated helpers return complete lists", async () => {
    const api = new BlockFrostAPI({ projectId: key, customBackend: `${gw.url}/api/v0`, rateLimiter: false, retrySettings: { limit: 0 } as never, requestTimeout: 10_000 });
    const [, payer] = chain.devWallets();
    // 130 outputs to one fresh address in one transaction, so its utxos span two pages.
    const target = CSL.EnterpriseAddress.new(0, CSL.Credential.from_keyhash(CSL.PrivateKey.generate_ed25519().to_public().hash())).to_address().to_bech32(undefined);
    const keys = keysOf(payer!.mnemonic);
    const input = chain.addressUtxos(payer!.address)!.find((u) => BigInt(u.amount[0]!.quantity) > 1_000_000_000n)!;
    const cbor = payment({ inputs: [input], to: target, lovelace: 1_500_000n, change: payer!.address, signers: [keys.payment] });
    // Re-build with 130 outputs to the target.
    const tx = CSL.FixedTransaction.from_bytes(cbor);
    const body = tx.body();
    const outs = CSL.TransactionOutputs.new();
    for (let i = 0; i < 130; i++) outs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(target), CSL.Value.new(CSL.BigNum.from_str('1500000'))));
    const fee = 400_000n;
    outs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(payer!.address), CSL.Value.new(CSL.BigNum.from_str(String(BigInt(input.amount[0]!.quantity) - 130n * 1_500_000n - fee)))));
    const many = CSL.TransactionBody.new_tx_body(body.inputs(), outs, CSL.BigNum.from_str(String(fee)));
    const signedMany = CSL.FixedTransaction.new(many.to_bytes(), CSL.TransactionWitnessSet.new().to_bytes(), true);
    signedMany.sign_and_add_vkey_signature(keys.payment);
    const res = await fetch(`${gw.url}/api/v0/tx/submit`, { method: 'POST', headers: { project_id: key, 'Content-Type': 'application/cbor' }, body: Buffer.from(signedMany.to_bytes()) });
    expect(res.status, await res.clone().text()).toBe(200);
    // 110 test assets under the faucet's policy.
    await chain.faucet({ address: target, lovelace: 2_000_000, assets: Array.from({ length: 110 }, (_, i) => ({ assetName: Buffer.from(`T${i}`).toString('hex'), quantity: i + 1 })) });
    nextBlock();
    const all = await api.addressesUtxosAll(target);
    expect(all).toHaveLength(131);
    expect(new Set(all.map((u) => `${u.tx_hash}#${u.output_index}`)).size).toBe(131);
    const assets = await api.assetsPolicyByIdAll(chain.faucetInfo().policyId);
    expect(assets.length).toBe(110);
    expect(assets.find((a) => a.asset.endsWith(Buffer.from('T109').toString('hex')))?.quantity).toBe('110');
  });

  it('surfaces a double spend as a 400 with the reason, through the SDK', async () => {
    const api = new BlockFrostAPI({ projectId: key, customBackend: `${gw.url}/api/v0`, rateLimiter: false, retrySettings: { limit: 0 } as never, requestTimeout: 10_000 });
    const [, , payer] = chain.devWallets();
    const keys = keysOf(payer!.mnemonic);
    const input = chain.addressUtxos(payer!.address)![0]!;
    await api.txSubmit(payment({ inputs: [input], to: payer!.address, lovelace: 3_000_000n, change: payer!.address, signers: [keys.payment] }));
    const err = await api.txSubmit(payment({ inputs: [input], to: payer!.address, lovelace: 4_000_000n, change: payer!.address, signers: [keys.payment] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockfrostServerError);
    expect(err).toMatchObject({ status_code: 400, error: 'Bad Request' });
    expect((err as Error).message).toMatch(/has already been spent by transaction [0-9a-f]{64} \(double spend\)\.$/);
  });
});
