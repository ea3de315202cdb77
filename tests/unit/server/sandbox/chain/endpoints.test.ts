// Every endpoint the sandbox serves, over HTTP, validated against the @blockfrost/openapi schema;
// with Blockfrost's pagination, 400s, 404s, and the 'not served' 404 for everything else.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLedgerStore, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { assertSchema, serve, testChain, type TestServer } from './support';
import { keysOf, payment } from './tx-builder';
import { SUBMIT_NOT_A_TX_MESSAGE } from '../../../../../server/blockfrost/contract';
import { served } from './walk/served';
import type { WalkFixture } from './walk/types';

let chain: SandboxChain;
let clock: { now: number };
let http: TestServer;
let wallet: { address: string; stakeAddress: string; mnemonic: string };
let paidTx: string;
let assetUnit: string;
let datumHash: string;

beforeAll(async () => {
  ({ chain, clock } = testChain({ store: memoryLedgerStore() }));
  http = await serve(chain);
  // The walk's first group makes what these tests read: a payment with metadata, a test asset, an inline datum.
  const f: WalkFixture = { network: chain.network, chain, clock, http, made: {} };
  await served.prepare!(f);
  wallet = chain.devWallets()[0]!;
  paidTx = f.made.paidTx!;
  assetUnit = f.made.assetUnit!;
  datumHash = f.made.datumHash!;
});
afterAll(async () => {
  await http.close();
});

async function ok(path: string, endpoint: string): Promise<any> {
  const res = await http.get(path);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  assertSchema(endpoint, res.body);
  return res.body;
}

describe('sandbox endpoints against the Blockfrost schema', () => {
  it('answers every served endpoint in its schema', async () => {
    const world = chain.catalog();
    const stake = chain.devWallets()[1]!.stakeAddress;
    const pool = world.pools[0]!;
    const worldAsset = world.assets[0]!.unit;
    await ok('/genesis', '/genesis');
    await ok('/network', '/network');
    const params = await ok('/epochs/latest/parameters', '/epochs/latest/parameters');
    expect(params.cost_models_raw.PlutusV3).toHaveLength(297);
    await ok(`/epochs/${params.epoch - 1}/parameters`, '/epochs/{number}/parameters');
    await ok(`/addresses/${wallet.address}`, '/addresses/{address}');
    await ok(`/addresses/${wallet.address}/extended`, '/addresses/{address}/extended');
    await ok(`/addresses/${wallet.address}/utxos`, '/addresses/{address}/utxos');
    expect(await ok(`/addresses/${wallet.address}/utxos/${assetUnit}`, '/addresses/{address}/utxos/{asset}')).toHaveLength(1);
    await ok(`/addresses/${wallet.address}/transactions?order=desc`, '/addresses/{address}/transactions');
    await ok(`/txs/${paidTx}`, '/txs/{hash}');
    await ok(`/txs/${paidTx}/utxos`, '/txs/{hash}/utxos');
    expect(await ok(`/txs/${paidTx}/metadata`, '/txs/{hash}/metadata')).toEqual([{ label: '1968', json_metadata: { price: '0.42' } }]);
    await ok(`/txs/${paidTx}/metadata/cbor`, '/txs/{hash}/metadata/cbor');
    await ok(`/accounts/${stake}`, '/accounts/{stake_address}');
    await ok(`/accounts/${world.stakeAddresses[0]}`, '/accounts/{stake_address}');
    await ok(`/accounts/${stake}/addresses`, '/accounts/{stake_address}/addresses');
    await ok(`/accounts/${stake}/utxos`, '/accounts/{stake_address}/utxos');
    await ok('/assets', '/assets');
    await ok(`/assets/${assetUnit}`, '/assets/{asset}');
    await ok(`/assets/${worldAsset}/addresses`, '/assets/{asset}/addresses');
    await ok(`/assets/${assetUnit}/addresses`, '/assets/{asset}/addresses');
    await ok(`/assets/policy/${chain.faucetInfo().policyId}`, '/assets/policy/{policy_id}');
    await ok('/pools', '/pools');
    await ok('/pools/extended?count=5', '/pools/extended');
    await ok(`/pools/${pool}`, '/pools/{pool_id}');
    await ok(`/scripts/${chain.faucetInfo().policyId}`, '/scripts/{script_hash}');
    await ok(`/scripts/${chain.faucetInfo().policyId}/cbor`, '/scripts/{script_hash}/cbor');
    expect(await ok(`/scripts/datum/${datumHash}`, '/scripts/datum/{datum_hash}')).toEqual({ json_value: { int: 42 } });
    await ok(`/scripts/datum/${datumHash}/cbor`, '/scripts/datum/{datum_hash}/cbor');
    await ok('/metadata/txs/labels', '/metadata/txs/labels');
    await ok('/metadata/txs/labels/1968', '/metadata/txs/labels/{label}');
    const xpub = CSL.Bip32PrivateKey.generate_ed25519_bip32().to_public();
    const derived = await ok(`/utils/addresses/xpub/${Buffer.from(xpub.as_bytes()).toString('hex')}/0/3`, '/utils/addresses/xpub/{xpub}/{role}/{index}');
    expect(derived.address).toMatch(/^addr_test1q/);
  });

  it('paginates with count, page and order', async () => {
    const all: string[] = (await http.get('/pools?count=100')).body;
    expect(all).toHaveLength(chain.catalog().pools.length);
    expect((await http.get('/pools?count=5&page=2')).body).toEqual(all.slice(5, 10));
    expect((await http.get('/pools?order=desc&count=3')).body).toEqual(all.slice().reverse().slice(0, 3));
    expect((await http.get('/pools?count=101')).status).toBe(400);
    expect((await http.get('/assets?page=0')).status).toBe(400);
    const utxos = (await http.get(`/addresses/${wallet.address}/utxos?order=desc`)).body as Array<{ tx_hash: string }>;
    const asc = (await http.get(`/addresses/${wallet.address}/utxos`)).body as Array<{ tx_hash: string }>;
    expect(utxos).toEqual(asc.slice().reverse());
  });

  it('answers 404 for what the ledger does not know, 400 for malformed ids', async () => {
    const notFound = { status_code: 404, error: 'Not Found', message: 'The requested component has not been found.' };
    const unseen = chain.devWallets()[2]!.address.replace(/.{6}$/, '');
    expect((await http.get(`/txs/${'ab'.repeat(32)}/metadata`)).body).toEqual(notFound);
    expect((await http.get(`/scripts/${'ab'.repeat(28)}`)).body).toEqual(notFound);
    expect((await http.get(`/scripts/datum/${'ab'.repeat(32)}`)).body).toEqual(notFound);
    expect((await http.get(`/assets/policy/${'ab'.repeat(28)}`)).body).toEqual(notFound);
    expect((await http.get(`/epochs/999999/parameters`)).body).toEqual(notFound);
    expect((await http.get(`/addresses/${unseen}/utxos`)).status).toBe(400);
    expect((await http.get('/accounts/stake_test1notreal')).status).toBe(400);
    expect((await http.get('/utils/addresses/xpub/zz/0/0')).status).toBe(400);
  });

  it("answers Blockfrost's 400 for a path its document does not define", async () => {
    expect((await http.get('/accounts/x/rewards/y')).body).toEqual({ status_code: 400, error: 'Bad Request', message: 'Invalid path. Please check https://docs.blockfrost.io/' });
  });

  it('refuses /tx/submit without application/cbor, and answers the hash of an accepted transaction', async () => {
    const res = await fetch(`${http.base}/tx/submit`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status_code: 400, message: 'Content-Type must be application/cbor, with the signed transaction as raw CBOR bytes.' });
    const bad = await fetch(`${http.base}/tx/submit`, { method: 'POST', headers: { 'Content-Type': 'application/cbor' }, body: new Uint8Array([1, 2, 3]) });
    expect(bad.status).toBe(400);
    // Not a CBOR list: the submit API's own decode error, as Blockfrost passes it on.
    expect((await bad.json()).message).toBe(SUBMIT_NOT_A_TX_MESSAGE);
    const keys = keysOf(wallet.mnemonic);
    const input = chain.addressUtxos(wallet.address)!.find((u) => u.amount.length === 1 && BigInt(u.amount[0]!.quantity) > 10_000_000n)!;
    const cbor = payment({ inputs: [input], to: wallet.address, lovelace: 2_000_000n, change: wallet.address, signers: [keys.payment] });
    const good = await fetch(`${http.base}/tx/submit`, { method: 'POST', headers: { 'Content-Type': 'application/cbor' }, body: Buffer.from(cbor) });
    expect(good.status).toBe(200);
    expect(await good.json()).toBe(CSL.FixedTransaction.from_bytes(cbor).transaction_hash().to_hex());
  });
});
