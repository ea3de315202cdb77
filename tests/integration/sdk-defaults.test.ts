// The sandbox as the real network's twin: off-the-shelf SDKs from npm, pointed at Cairn's gateway
// with a project key and left at their defaults (their built-in preprod slot configuration, Mesh's
// `evaluator: provider`, Blaze's Blockfrost provider), build, evaluate and submit transactions that
// land. The chain runs on the wall clock (plus the blocks the test skips ahead), so validity
// intervals computed from Date.now() by the SDKs must mean what they mean on preprod.
import { startTestGateway } from '../helpers/gateway';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BlockfrostProvider, ForgeScript, MeshTxBuilder, MeshWallet, deserializeAddress, mConStr0, resolveScriptHash, serializePlutusScript, stringToHex, type Protocol, type UTxO } from '@meshsdk/core';
import { Blockfrost as LucidBlockfrost, Lucid } from '@lucid-evolution/lucid';
import { Blaze, Blockfrost as BlazeBlockfrost, ColdWallet, Core, HotWallet } from '@blaze-cardano/sdk';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { createSandboxChain, memoryLedgerStore, type DevWalletInfo, type SandboxChain } from '../../server/sandbox/chain/index';

// Plutus V3, always succeeds (single CBOR-wrapped, as Mesh takes it).
const ALWAYS_V3 = '46450101002499';

const app = useTestApp();
let gw: RunningGateway;
let chain: SandboxChain;
let key = '';
let skipped = 0;
// While set, the chain's clock stands still (the wall clock may cross a block boundary on a busy machine).
let heldAt: number | null = null;
const nextBlock = () => {
  skipped += chain.params.blockIntervalMs;
};
let wallets: DevWalletInfo[] = [];

beforeAll(async () => {
  const client = new Client(app.url);
  await signIn(client, app.mailer, 'sdk-defaults@example.com');
  await setSubscription(app.db, (await client.get('/api/me')).body.data.id, 'DEVELOPER', 'active');
  const ws = (await client.get('/api/workspaces')).body.data[0].id;
  key = (await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'twin', networkId: 6 })).body.data.project.project_id;
  chain = createSandboxChain({ network: 'preprod', now: () => (heldAt ?? Date.now()) + skipped, store: memoryLedgerStore() });
  await chain.ready();
  gw = await startTestGateway(app, {}, undefined, { chains: { preprod: chain } });
  await gw.keys.catchUp();
  wallets = chain.devWallets();
});
afterAll(async () => {
  await gw?.close();
});
afterEach(() => {
  heldAt = null;
});

const get = async (path: string) => {
  const res = await fetch(`${gw.url}/api/v0${path}`, { headers: { project_id: key } });
  return { status: res.status, body: (await res.json()) as any };
};

describe('Lucid Evolution with its defaults', () => {
  it('lands a payment valid from a minute ago to ten minutes ahead, its bounds the preprod slots of those times', async () => {
    const lucid = await Lucid(new LucidBlockfrost(`${gw.url}/api/v0`, key), 'Preprod');
    lucid.selectWallet.fromSeed(wallets[1]!.mnemonic);
    const now = Date.now() + skipped;
    const tx = await lucid
      .newTx()
      .pay.ToAddress(wallets[2]!.address, { lovelace: 3_000_000n })
      .validFrom(now - 60_000)
      .validTo(now + 600_000)
      .complete();
    const hash = await (await tx.sign.withWallet().complete()).submit();
    nextBlock();
    const landed = await get(`/txs/${hash}`);
    expect(landed.status, JSON.stringify(landed.body)).toBe(200);
    const tip = chain.latestBlock();
    expect(landed.body.block_height).toBe(tip.height);
    // The bounds are the slots of those times on the real preprod, around the block's slot.
    expect(Number(landed.body.invalid_before)).toBeLessThan(tip.slot!);
    expect(Number(landed.body.invalid_hereafter)).toBeGreaterThan(tip.slot!);
    expect(Number(landed.body.invalid_hereafter) - Number(landed.body.invalid_before)).toBe(660);
  });
});

describe('Mesh with `evaluator: provider`, which evaluates every transaction', () => {
  let provider: BlockfrostProvider;
  let wallet: MeshWallet;
  let address = '';
  let params: Protocol;
  const builder = () => new MeshTxBuilder({ fetcher: provider, submitter: provider, evaluator: provider, params });
  const lovelace = (u: UTxO) => BigInt(u.output.amount.find((a) => a.unit === 'lovelace')!.quantity);
  const plainUtxos = async () => (await provider.fetchAddressUTxOs(address)).filter((u) => u.output.amount.length === 1 && lovelace(u) > 5_000_000n);

  beforeAll(async () => {
    provider = new BlockfrostProvider(`${gw.url}/${key}/api/v0`);
    wallet = new MeshWallet({ networkId: 0, fetcher: provider, submitter: provider, key: { type: 'mnemonic', words: wallets[0]!.mnemonic.split(' ') } });
    await wallet.init();
    address = await wallet.getChangeAddress();
    params = await provider.fetchProtocolParameters();
  });

  it('sends a payment, and a payment chained on its still unconfirmed change lands in the same block', async () => {
    heldAt = Date.now();
    const unsigned = await builder().txOut(wallets[1]!.address, [{ unit: 'lovelace', quantity: '4000000' }]).changeAddress(address).selectUtxosFrom(await plainUtxos()).complete();
    const firstSigned = await wallet.signTx(unsigned);
    const first = await wallet.submitTx(firstSigned);
    // The change output of the first payment is in the mempool only; the second spends it.
    const pending = (await get(`/mempool/${first}`)).body;
    expect(pending.tx.hash).toBe(first);
    const changeIndex = pending.outputs.findIndex((o: { address: string }) => o.address === address);
    const change = pending.outputs[changeIndex];
    const amount = change.amount as Array<{ unit: string; quantity: string }>;
    const chained = await builder()
      .txIn(first, changeIndex, amount, address, 0)
      .chainTx(firstSigned)
      .txOut(wallets[2]!.address, [{ unit: 'lovelace', quantity: '2000000' }])
      .changeAddress(address)
      .complete();
    const second = await wallet.submitTx(await wallet.signTx(chained));
    heldAt = null;
    nextBlock();
    const [a, b] = [await get(`/txs/${first}`), await get(`/txs/${second}`)];
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.block_height).toBe(a.body.block_height);
    expect((await get(`/txs/${first}/utxos`)).body.outputs[changeIndex].consumed_by_tx).toBe(second);
  });

  it('mints a native asset with CIP-25 metadata; /assets shows it with its name', async () => {
    const forgingScript = ForgeScript.withOneSignature(address);
    const policyId = resolveScriptHash(forgingScript);
    const tokenName = 'TwinToken';
    const unit = policyId + stringToHex(tokenName);
    const unsigned = await builder()
      .mint('1', policyId, stringToHex(tokenName))
      .mintingScript(forgingScript)
      .metadataValue(721, { [policyId]: { [tokenName]: { name: 'Twin Token', image: 'ipfs://QmTwinTokenImage', mediaType: 'image/png' } } })
      .txOut(address, [
        { unit: 'lovelace', quantity: '2000000' },
        { unit, quantity: '1' },
      ])
      .changeAddress(address)
      .selectUtxosFrom(await plainUtxos())
      .complete();
    const hash = await wallet.submitTx(await wallet.signTx(unsigned));
    nextBlock();
    const asset = await get(`/assets/${unit}`);
    expect(asset.status, JSON.stringify(asset.body)).toBe(200);
    expect(asset.body).toMatchObject({ asset: unit, quantity: '1', initial_mint_tx_hash: hash });
    expect((await get(`/txs/${hash}/metadata`)).body).toEqual([{ label: '721', json_metadata: { [policyId]: { [tokenName]: { name: 'Twin Token', image: 'ipfs://QmTwinTokenImage', mediaType: 'image/png' } } } }]);
    expect(asset.body.onchain_metadata).toMatchObject({ name: 'Twin Token', image: 'ipfs://QmTwinTokenImage' });
  });

  it('locks ada at a Plutus V3 script and spends it back, the budget from the evaluator', async () => {
    const { address: scriptAddress } = serializePlutusScript({ code: ALWAYS_V3, version: 'V3' }, undefined, 0);
    const lockTx = await builder().txOut(scriptAddress, [{ unit: 'lovelace', quantity: '10000000' }]).txOutInlineDatumValue(42).changeAddress(address).selectUtxosFrom(await plainUtxos()).complete();
    const lockHash = await wallet.submitTx(await wallet.signTx(lockTx));
    nextBlock();
    const locked = (await provider.fetchAddressUTxOs(scriptAddress)).find((u) => u.input.txHash === lockHash)!;
    expect(locked).toBeDefined();
    const [collateral, ...funding] = await plainUtxos();
    const spendTx = await builder()
      .spendingPlutusScriptV3()
      .txIn(locked.input.txHash, locked.input.outputIndex, locked.output.amount, scriptAddress)
      .txInInlineDatumPresent()
      .txInRedeemerValue(mConStr0([]))
      .txInScript(ALWAYS_V3)
      .txInCollateral(collateral!.input.txHash, collateral!.input.outputIndex, collateral!.output.amount, collateral!.output.address)
      .requiredSignerHash(deserializeAddress(address).pubKeyHash)
      .changeAddress(address)
      .selectUtxosFrom(funding)
      .complete();
    const hash = await wallet.submitTx(await wallet.signTx(spendTx, true));
    nextBlock();
    const tx = await get(`/txs/${hash}`);
    expect(tx.body).toMatchObject({ hash, redeemer_count: 1, valid_contract: true });
    // The evaluator's measured budget, not Mesh's default, is what the redeemer declares.
    const [redeemer] = (await get(`/txs/${hash}/redeemers`)).body;
    expect(redeemer).toMatchObject({ purpose: 'spend', unit_mem: '500', unit_steps: '64100' });
  });
});

describe('Blaze with its Blockfrost provider pointed at Cairn', () => {
  it('reads a wallet’s utxos and submits a payment that lands', async () => {
    const provider = new BlazeBlockfrost({ network: 'cardano-preprod', projectId: key });
    provider.url = `${gw.url}/api/v0/`;
    const entropy = Core.mnemonicToEntropy(wallets[2]!.mnemonic, Core.wordlist);
    const masterkey = Core.Bip32PrivateKey.fromBip39Entropy(Buffer.from(entropy), '');
    const wallet = await HotWallet.fromMasterkey(masterkey.hex(), provider);
    expect((await wallet.getChangeAddress()).toBech32()).toBe(wallets[2]!.address);
    const utxos = await provider.getUnspentOutputs(Core.Address.fromBech32(wallets[2]!.address));
    expect(utxos.length).toBeGreaterThan(0);
    const blaze = await Blaze.from(provider, wallet);
    const tx = await blaze.newTransaction().payLovelace(Core.Address.fromBech32(wallets[0]!.address), 5_000_000n).complete();
    const signed = await blaze.signTransaction(tx);
    const hash = await blaze.provider.postTransactionToChain(signed);
    nextBlock();
    expect((await get(`/txs/${hash}`)).status).toBe(200);
    // A cold wallet reads the same chain through the same provider.
    expect((await new ColdWallet(Core.Address.fromBech32(wallets[0]!.address), 0, provider).getUnspentOutputs()).some((u) => u.input().transactionId() === hash)).toBe(true);
  });
});
