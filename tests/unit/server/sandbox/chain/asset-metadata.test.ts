// What a submitted mint says shows in /assets/{asset}: CIP-25 (label 721) metadata in its v1 and v2
// forms, and a CIP-68 user token's name, image and fields from its reference token's datum.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import cbor from 'cbor';
import { describe, expect, it } from 'vitest';
import { metadatumJson } from '../../../../../server/blockfrost/onchain-metadata';
import type { SandboxChain } from '../../../../../server/sandbox/chain/index';
import { assertSchema, serve, testChain } from './support';
import { keysOf } from './tx-builder';

const big = (n: bigint | number) => CSL.BigNum.from_str(String(n));
const hexOf = (s: string) => Buffer.from(s, 'utf8').toString('hex');

interface MintOutput {
  assets: Array<[string, bigint]>;
  datum?: string;
}

/**
 * Mints under the wallet's one-signature policy into outputs of its own address, with the metadata
 * (label → CBOR hex) given; answers the policy id once the block holding it exists.
 */
async function mint(t: ReturnType<typeof testChain>, outputs: MintOutput[], metadata: Array<[number, string]>): Promise<string> {
  const { chain, clock } = t;
  const wallet = chain.devWallets()[0]!;
  const keys = keysOf(wallet.mnemonic);
  const script = CSL.NativeScript.new_script_pubkey(CSL.ScriptPubkey.new(keys.payment.to_public().hash()));
  const policy = script.hash();
  const utxo = chain.addressUtxos(wallet.address)!.find((u) => u.amount.length === 1 && BigInt(u.amount[0]!.quantity) > 20_000_000n)!;
  const address = CSL.Address.from_bech32(wallet.address);
  const build = (fee: bigint): Uint8Array => {
    const inputs = CSL.TransactionInputs.new();
    inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(utxo.tx_hash), utxo.output_index));
    const outs = CSL.TransactionOutputs.new();
    const mintAssets = CSL.MintAssets.new();
    let spent = 0n;
    for (const o of outputs) {
      const ma = CSL.MultiAsset.new();
      const assets = CSL.Assets.new();
      for (const [name, q] of o.assets) {
        assets.insert(CSL.AssetName.new(Buffer.from(name, 'hex')), big(q));
        mintAssets.insert(CSL.AssetName.new(Buffer.from(name, 'hex')), CSL.Int.new(big(q)));
      }
      ma.insert(policy, assets);
      const value = CSL.Value.new_with_assets(big(3_000_000), ma);
      const out = CSL.TransactionOutput.new(address, value);
      if (o.datum) out.set_plutus_data(CSL.PlutusData.from_hex(o.datum));
      outs.add(out);
      spent += 3_000_000n;
    }
    outs.add(CSL.TransactionOutput.new(address, CSL.Value.new(big(BigInt(utxo.amount[0]!.quantity) - spent - fee))));
    const body = CSL.TransactionBody.new_tx_body(inputs, outs, big(fee));
    const mintField = CSL.Mint.new();
    mintField.insert(policy, mintAssets);
    body.set_mint(mintField);
    const aux = CSL.AuxiliaryData.new();
    const md = CSL.GeneralTransactionMetadata.new();
    for (const [label, hex] of metadata) md.insert(big(label), CSL.TransactionMetadatum.from_hex(hex));
    aux.set_metadata(md);
    body.set_auxiliary_data_hash(CSL.hash_auxiliary_data(aux));
    const witnesses = CSL.TransactionWitnessSet.new();
    const natives = CSL.NativeScripts.new();
    natives.add(script);
    witnesses.set_native_scripts(natives);
    const tx = CSL.FixedTransaction.new_with_auxiliary(body.to_bytes(), witnesses.to_bytes(), aux.to_bytes(), true);
    tx.sign_and_add_vkey_signature(keys.payment);
    return tx.to_bytes();
  };
  let fee = 0n;
  for (let i = 0; i < 4; i++) fee = 44n * BigInt(build(fee).length) + 200_000n;
  await chain.submit(build(fee));
  clock.now += chain.params.blockIntervalMs;
  return policy.to_hex();
}

const enc = (v: unknown) => cbor.encode(v).toString('hex');
const b = (s: string) => Buffer.from(s, 'utf8');
const image = 'ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpre';

function checked(chain: SandboxChain, unit: string) {
  const asset = chain.asset(unit)!;
  assertSchema('/assets/{asset}', asset);
  return asset;
}

describe('/assets/{asset} of a submitted mint', () => {
  it('shows CIP-25 v1 metadata (text keys) as CIP25v1', async () => {
    const t = testChain();
    // The policy id is the wallet's: known before minting.
    const keys = keysOf(t.chain.devWallets()[0]!.mnemonic);
    const policy = CSL.NativeScript.new_script_pubkey(CSL.ScriptPubkey.new(keys.payment.to_public().hash())).hash().to_hex();
    const meta = { name: 'Cairn Stone #1', image, mediaType: 'image/png', description: 'A stone', traits: ['grey', 'round'] };
    await mint(t, [{ assets: [[hexOf('Stone1'), 1n]] }], [[721, enc(new Map([[policy, new Map([['Stone1', meta]])]]))]]);
    expect(checked(t.chain, policy + hexOf('Stone1'))).toMatchObject({ onchain_metadata: meta, onchain_metadata_standard: 'CIP25v1', onchain_metadata_extra: null });
  });

  it('shows CIP-25 v2 metadata (the policy id and asset name as bytes) as CIP25v2, and /txs/{hash}/metadata renders the bytes as 0x… as db-sync does', async () => {
    const t = testChain();
    const keys = keysOf(t.chain.devWallets()[0]!.mnemonic);
    const policy = CSL.NativeScript.new_script_pubkey(CSL.ScriptPubkey.new(keys.payment.to_public().hash())).hash().to_hex();
    const meta = { name: 'Cairn Stone #2', image: [image.slice(0, 40), image.slice(40)] };
    const md = enc(new Map<unknown, unknown>([[Buffer.from(policy, 'hex'), new Map([[b('Stone2'), meta]])], ['version', 2]]));
    await mint(t, [{ assets: [[hexOf('Stone2'), 1n]] }], [[721, md]]);
    const asset = checked(t.chain, policy + hexOf('Stone2'));
    expect(asset).toMatchObject({ onchain_metadata: meta, onchain_metadata_standard: 'CIP25v2' });
    expect(t.chain.txMetadata(asset.initial_mint_tx_hash)).toEqual([{ label: '721', json_metadata: metadatumJson(md) }]);
    expect(metadatumJson(md)).toMatchObject({ [`0x${policy}`]: { [`0x${hexOf('Stone2')}`]: meta } });
  });

  it('answers metadata that is not CIP-25 (no image) with standard null', async () => {
    const t = testChain();
    const keys = keysOf(t.chain.devWallets()[0]!.mnemonic);
    const policy = CSL.NativeScript.new_script_pubkey(CSL.ScriptPubkey.new(keys.payment.to_public().hash())).hash().to_hex();
    await mint(t, [{ assets: [[hexOf('Pebble'), 1n]] }], [[721, enc(new Map([[policy, new Map([['Pebble', { name: 'Pebble' }]])]]))]]);
    expect(checked(t.chain, policy + hexOf('Pebble'))).toMatchObject({ onchain_metadata: { name: 'Pebble' }, onchain_metadata_standard: null });
  });

  it('shows a CIP-68 NFT (222) with the name, image and fields of its reference token\'s (100) inline datum', async () => {
    const t = testChain();
    const datum = enc(new cbor.Tagged(121, [
      new Map<unknown, unknown>([[b('name'), b('Cairn Boulder')], [b('image'), b(image)], [b('mediaType'), b('image/png')], [b('weight'), 12]]),
      1,
      new cbor.Tagged(121, []),
    ]));
    const policy = await mint(t, [
      { assets: [[`000643b0${hexOf('Boulder')}`, 1n]], datum },
      { assets: [[`000de140${hexOf('Boulder')}`, 1n]] },
    ], [[674, enc(new Map([['msg', ['boulder']]]))]]);
    const nft = checked(t.chain, `${policy}000de140${hexOf('Boulder')}`);
    expect(nft).toMatchObject({
      onchain_metadata: { name: 'Cairn Boulder', image, mediaType: 'image/png', weight: enc(12) },
      onchain_metadata_standard: 'CIP68v1',
      onchain_metadata_extra: 'd87980',
    });
    // The reference token itself has no metadata of its own.
    expect(checked(t.chain, `${policy}000643b0${hexOf('Boulder')}`)).toMatchObject({ onchain_metadata: null, onchain_metadata_standard: null });
    // Over HTTP, as Mesh's fetchAssetMetadata reads it.
    const http = await serve(t.chain);
    try {
      const res = await http.get(`/assets/${policy}000de140${hexOf('Boulder')}`);
      expect(res.status).toBe(200);
      expect(res.body.onchain_metadata).toMatchObject({ name: 'Cairn Boulder', image });
    } finally {
      await http.close();
    }
  });

  it('shows a CIP-68 FT (333) as CIP68v2 and ignores a reference datum that does not validate', async () => {
    const t = testChain();
    const ft = enc(new cbor.Tagged(121, [new Map<unknown, unknown>([[b('name'), b('Quartz')], [b('description'), b('A sandbox token')], [b('ticker'), b('QRTZ')], [b('decimals'), 6]]), 2]));
    const bad = enc(new cbor.Tagged(121, [new Map<unknown, unknown>([[b('name'), b('Slate')]]), 1]));
    const policy = await mint(t, [
      { assets: [[`000643b0${hexOf('QRTZ')}`, 1n]], datum: ft },
      { assets: [[`0014df10${hexOf('QRTZ')}`, 1_000_000n]] },
      { assets: [[`000643b0${hexOf('Slate')}`, 1n]], datum: bad },
      { assets: [[`000de140${hexOf('Slate')}`, 1n]] },
    ], [[674, enc(new Map([['msg', ['tokens']]]))]]);
    expect(checked(t.chain, `${policy}0014df10${hexOf('QRTZ')}`)).toMatchObject({
      onchain_metadata: { name: 'Quartz', description: 'A sandbox token', ticker: 'QRTZ', decimals: 6 },
      onchain_metadata_standard: 'CIP68v2',
      onchain_metadata_extra: null,
    });
    expect(checked(t.chain, `${policy}000de140${hexOf('Slate')}`)).toMatchObject({ onchain_metadata: null, onchain_metadata_standard: null, onchain_metadata_extra: null });
  });
});
