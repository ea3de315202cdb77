// A dApp's day on Cairn, through the gateway with a project key: Mesh SDK (an off-the-shelf builder
// from npm) with its Blockfrost provider pointed at the gateway mints a native asset under a native
// script policy, locks ada at a Plutus V3 script and spends it back with the budget the gateway's
// /utils/txs/evaluate measured, sees a failing script refused with its trace, and registers and
// delegates a stake key that then earns rewards.
import { startTestGateway } from '../helpers/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BlockfrostProvider,
  ForgeScript,
  MeshTxBuilder,
  MeshWallet,
  deserializeAddress,
  mConStr0,
  resolveScriptHash,
  serializePlutusScript,
  stringToHex,
  type Protocol,
  type UTxO,
} from '@meshsdk/core';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { createSandboxChain, memoryLedgerStore, type SandboxChain } from '../../server/sandbox/chain/index';
import { assertSchema } from '../unit/server/sandbox/chain/support';
import { producingPool } from '../unit/server/sandbox/chain/stake-builder';

// Plutus V3, always succeeds; and one that traces 'boom', then fails. Single CBOR-wrapped, as Mesh takes them.
const ALWAYS_V3 = '46450101002499';
const FAILS_V3 = '5352010100232633573892010462' + '6f6f6d004981';

const app = useTestApp();
let gw: RunningGateway;
let chain: SandboxChain;
let key = '';
const clock = { now: Date.UTC(2026, 10, 3, 9) };
const nextBlock = () => {
  clock.now += chain.params.blockIntervalMs;
};

let provider: BlockfrostProvider;
let wallet: MeshWallet;
let address = '';
let params: Protocol;

beforeAll(async () => {
  const client = new Client(app.url);
  await signIn(client, app.mailer, 'dapp-proofs@example.com');
  const me = (await client.get('/api/me')).body.data.id;
  await setSubscription(app.db, me, 'DEVELOPER', 'active');
  const ws = (await client.get('/api/workspaces')).body.data[0].id;
  key = (await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'dapp', networkId: 6 })).body.data.project.project_id;
  chain = createSandboxChain({ network: 'preprod', now: () => clock.now, store: memoryLedgerStore() });
  await chain.ready();
  gw = await startTestGateway(app, {}, undefined, { chains: { preprod: chain } });
  await gw.keys.catchUp();

  // Mesh's Blockfrost provider with the gateway's base URL; the key rides in the path, the form for
  // clients that take only a URL.
  provider = new BlockfrostProvider(`${gw.url}/${key}/api/v0`);
  const [dev] = chain.devWallets();
  wallet = new MeshWallet({ networkId: 0, fetcher: provider, submitter: provider, key: { type: 'mnemonic', words: dev!.mnemonic.split(' ') } });
  await wallet.init();
  address = await wallet.getChangeAddress();
  expect(address).toBe(dev!.address);
  params = await provider.fetchProtocolParameters();
});
afterAll(async () => {
  await gw?.close();
});

const get = async (path: string) => {
  const res = await fetch(`${gw.url}/api/v0${path}`, { headers: { project_id: key } });
  return { status: res.status, body: (await res.json()) as any };
};
const newBuilder = () => new MeshTxBuilder({ fetcher: provider, params });
const lovelace = (u: UTxO) => BigInt(u.output.amount.find((a) => a.unit === 'lovelace')!.quantity);
const plainUtxos = async () => (await provider.fetchAddressUTxOs(address)).filter((u) => u.output.amount.length === 1 && lovelace(u) > 5_000_000n);

/** Locks `ada` lovelace at the script with an inline datum; answers the locked output after the next block. */
async function lockAt(code: string): Promise<{ scriptAddress: string; locked: UTxO }> {
  const { address: scriptAddress } = serializePlutusScript({ code, version: 'V3' }, undefined, 0);
  const unsigned = await newBuilder()
    .txOut(scriptAddress, [{ unit: 'lovelace', quantity: '10000000' }])
    .txOutInlineDatumValue(42)
    .changeAddress(address)
    .selectUtxosFrom(await plainUtxos())
    .complete();
  const hash = await wallet.submitTx(await wallet.signTx(unsigned));
  nextBlock();
  const locked = (await provider.fetchAddressUTxOs(scriptAddress)).find((u) => u.input.txHash === hash);
  expect(locked, 'the locked output at the script address').toBeDefined();
  return { scriptAddress, locked: locked! };
}

/** Spends the locked output back to the wallet with the given budget (Mesh's default when none). */
async function spendBack(code: string, scriptAddress: string, locked: UTxO, budget?: { mem: number; steps: number }): Promise<string> {
  const [collateral, ...funding] = await plainUtxos();
  const unsigned = await newBuilder()
    .spendingPlutusScriptV3()
    .txIn(locked.input.txHash, locked.input.outputIndex, locked.output.amount, scriptAddress)
    .txInInlineDatumPresent()
    .txInRedeemerValue(mConStr0([]), 'Mesh', budget)
    .txInScript(code)
    .txInCollateral(collateral!.input.txHash, collateral!.input.outputIndex, collateral!.output.amount, collateral!.output.address)
    .requiredSignerHash(deserializeAddress(address).pubKeyHash)
    .changeAddress(address)
    .selectUtxosFrom(funding)
    .complete();
  return wallet.signTx(unsigned, true);
}

describe('a dApp built with Mesh SDK, through the gateway with a project key', () => {
  it('mints a native asset under a native script policy: it shows in /assets/{asset} and in the holder\'s utxos', async () => {
    const forgingScript = ForgeScript.withOneSignature(address);
    const policyId = resolveScriptHash(forgingScript);
    const name = stringToHex('CairnProof');
    const unit = policyId + name;
    const unsigned = await newBuilder()
      .mint('1000', policyId, name)
      .mintingScript(forgingScript)
      .txOut(address, [
        { unit: 'lovelace', quantity: '2000000' },
        { unit, quantity: '1000' },
      ])
      .changeAddress(address)
      .selectUtxosFrom(await plainUtxos())
      .complete();
    const hash = await wallet.submitTx(await wallet.signTx(unsigned));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    nextBlock();

    const asset = await get(`/assets/${unit}`);
    expect(asset.status, JSON.stringify(asset.body)).toBe(200);
    assertSchema('/assets/{asset}', asset.body);
    expect(asset.body).toMatchObject({ asset: unit, policy_id: policyId, asset_name: name, quantity: '1000', initial_mint_tx_hash: hash, mint_or_burn_count: 1 });
    expect(await provider.fetchAssetAddresses(unit)).toEqual([{ address, quantity: '1000' }]);
    const held = (await provider.fetchAddressUTxOs(address, unit)).filter((u) => u.input.txHash === hash);
    expect(held.flatMap((u) => u.output.amount.filter((a) => a.unit === unit))).toEqual([{ unit, quantity: '1000' }]);
    const script = await get(`/scripts/${policyId}`);
    expect(script.body).toMatchObject({ script_hash: policyId, type: 'timelock' });

    // The asset's history: minted once, by this transaction.
    const history = await get(`/assets/${unit}/history`);
    expect(history.status).toBe(200);
    expect(history.body).toEqual([{ tx_hash: hash, action: 'minted', amount: '1000' }]);
  });

  it('locks ada at a Plutus V3 script and spends it back with the budget /utils/txs/evaluate measured', async () => {
    const { scriptAddress, locked } = await lockAt(ALWAYS_V3);
    expect(locked.output.plutusData).toBeDefined();

    // A draft with Mesh's default budget, measured by the gateway's evaluate, then built again with that budget.
    const draft = await spendBack(ALWAYS_V3, scriptAddress, locked);
    const evaluated = await fetch(`${gw.url}/api/v0/utils/txs/evaluate`, { method: 'POST', headers: { project_id: key, 'content-type': 'application/cbor' }, body: draft });
    expect(evaluated.status).toBe(200);
    const result = ((await evaluated.json()) as { result: { EvaluationResult: Record<string, { memory: number; steps: number }> } }).result.EvaluationResult;
    expect(Object.keys(result)).toEqual(['spend:0']);
    const budget = { mem: result['spend:0']!.memory, steps: result['spend:0']!.steps };
    expect(budget.mem).toBeGreaterThan(0);

    const hash = await wallet.submitTx(await spendBack(ALWAYS_V3, scriptAddress, locked, budget));
    nextBlock();
    const tx = await get(`/txs/${hash}`);
    expect(tx.body).toMatchObject({ hash, redeemer_count: 1, valid_contract: true });
    const spent = await get(`/txs/${locked.input.txHash}/utxos`);
    expect(spent.body.outputs[locked.input.outputIndex].consumed_by_tx).toBe(hash);
    expect((await provider.fetchAddressUTxOs(scriptAddress)).some((u) => u.input.txHash === locked.input.txHash)).toBe(false);
    expect((await get(`/scripts/${resolveScriptHash(ALWAYS_V3, 'V3')}`)).body).toMatchObject({ type: 'plutusV3' });
  });

  it('has a failing script refused at /tx/submit with its trace in the message', async () => {
    const { scriptAddress, locked } = await lockAt(FAILS_V3);
    const signed = await spendBack(FAILS_V3, scriptAddress, locked, { mem: 1_000_000, steps: 500_000_000 });
    const res = await fetch(`${gw.url}/api/v0/tx/submit`, { method: 'POST', headers: { project_id: key, 'content-type': 'application/cbor' }, body: Buffer.from(signed, 'hex') });
    const body = (await res.json()) as { status_code: number; error: string; message: string };
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ status_code: 400, error: 'Bad Request' });
    expect(body.message).toMatch(/boom/);
    // Mesh's own submit reports the same refusal.
    const viaMesh = await wallet.submitTx(signed).then(() => null, (e: unknown) => e);
    expect(JSON.stringify(viaMesh)).toMatch(/boom/);
    nextBlock();
    expect((await provider.fetchAddressUTxOs(scriptAddress)).some((u) => u.input.txHash === locked.input.txHash)).toBe(true);
  });

  it('registers a stake key and delegates it to a sandbox pool; the account shows the pool, and rewards a few epochs later', async () => {
    const [stake] = await wallet.getRewardAddresses();
    const pool = producingPool(chain);
    const unsigned = await newBuilder()
      .registerStakeCertificate(stake!)
      .delegateStakeCertificate(stake!, pool)
      .changeAddress(address)
      .selectUtxosFrom(await plainUtxos())
      .complete();
    // The certificates need the stake key's witness besides the payment key's: the same mnemonic,
    // Mesh's stake account.
    const stakeSigner = new MeshWallet({ networkId: 0, accountType: 'stake', key: { type: 'mnemonic', words: chain.devWallets()[0]!.mnemonic.split(' ') } });
    await stakeSigner.init();
    const hash = await wallet.submitTx(await stakeSigner.signTx(await wallet.signTx(unsigned), true));
    nextBlock();
    expect((await get(`/txs/${hash}/delegations`)).body).toMatchObject([{ address: stake, pool_id: pool }]);
    const account = await get(`/accounts/${stake}`);
    expect(account.status).toBe(200);
    assertSchema('/accounts/{stake_address}', account.body);
    expect(account.body).toMatchObject({ stake_address: stake, registered: true, active: true, pool_id: pool });

    // Active two epochs after the delegation, paid from the next: four epochs on, rewards show.
    clock.now += 4 * chain.params.blocksPerEpoch * chain.params.blockIntervalMs;
    const rewards = await get(`/accounts/${stake}/rewards`);
    expect(rewards.status).toBe(200);
    assertSchema('/accounts/{stake_address}/rewards', rewards.body);
    expect(rewards.body.length).toBeGreaterThan(0);
    expect(rewards.body[0]).toMatchObject({ pool_id: pool, type: 'member' });
    const later = (await get(`/accounts/${stake}`)).body;
    expect(BigInt(later.withdrawable_amount)).toBeGreaterThan(0n);
    expect(BigInt(later.withdrawable_amount)).toBe(BigInt(later.rewards_sum) - BigInt(later.withdrawals_sum));
  });
});
