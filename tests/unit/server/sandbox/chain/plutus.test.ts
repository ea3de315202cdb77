// Plutus scripts on the sandbox ledger, with transactions built by cardano-serialization-lib's own
// TransactionBuilder (an off-the-shelf builder) from the protocol parameters the chain serves:
// lock ada at a script, evaluate the spend for its budget, spend it back; a failing script refused
// with its trace, or its collateral taken when the transaction says it is invalid; Plutus minting.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { describe, expect, it } from 'vitest';
import { LedgerRefusal, memoryLedgerStore, type AddressUtxo, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { ALWAYS_V1, ALWAYS_V2, ALWAYS_V3, big, builder, DATUM, FAILS_V3, input, lock, lovelaceOf, scriptAddress, sign, spend } from './plutus-builder';
import { costModels, ogmiosResult, parseFailure } from '../../../../../server/sandbox/chain/plutus';
import { keysOf } from './tx-builder';
import { serve, testChain } from './support';

function setup() {
  const t = testChain({ store: memoryLedgerStore() });
  const [alice] = t.chain.devWallets();
  const keys = keysOf(alice!.mnemonic);
  const next = () => {
    t.clock.now += t.chain.params.blockIntervalMs;
  };
  return { ...t, alice: alice!, keys, next };
}

async function refusal(chain: SandboxChain, cbor: Uint8Array): Promise<LedgerRefusal> {
  const err = await chain.submit(cbor).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(LedgerRefusal);
  return err as LedgerRefusal;
}

describe('Plutus on the sandbox ledger', () => {
  it('locks ada at a Plutus V3 script and spends it back, with the budget evaluate measured', async () => {
    const { chain, alice, keys, next } = setup();
    const lockHash = await chain.submit(lock(chain, alice.address, keys.payment, scriptAddress(ALWAYS_V3), 10_000_000n));
    next();
    const locked = chain.addressUtxos(scriptAddress(ALWAYS_V3).to_bech32(undefined))!.find((u) => u.tx_hash === lockHash)!;
    expect(locked.inline_datum).toBe(DATUM.to_hex());

    // A first build with a generous budget, evaluated; then the budget evaluate measured.
    const draft = spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: { ...locked, lovelace: 10_000_000n } });
    const evaluation = await chain.evaluate(draft);
    expect(evaluation).toEqual({ ok: true, redeemers: [{ purpose: 'spend', index: 0, memory: 500, steps: 64_100 }] });
    expect(ogmiosResult(evaluation, 5)).toMatchObject({ result: { EvaluationResult: { 'spend:0': { memory: 500, steps: 64_100 } } } });
    expect(ogmiosResult(evaluation, 6)).toMatchObject({ result: [{ validator: { purpose: 'spend', index: 0 }, budget: { memory: 500, cpu: 64_100 } }] });

    const tooSmall = spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: { ...locked, lovelace: 10_000_000n }, exUnits: { mem: 499n, steps: 64_100n } });
    expect((await refusal(chain, tooSmall)).message).toMatch(/spend:0 the script needs 500 memory and 64100 steps, the redeemer declares 499 and 64100/);

    const spendHash = await chain.submit(spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: { ...locked, lovelace: 10_000_000n }, exUnits: { mem: 500n, steps: 64_100n } }));
    next();
    const tx = chain.tx(spendHash)!;
    expect(tx.redeemer_count).toBe(1);
    expect(tx.valid_contract).toBe(true);
    expect(chain.txUtxos(lockHash)!.outputs[0]!.consumed_by_tx).toBe(spendHash);
    expect(chain.script(ALWAYS_V3.hash().to_hex())).toEqual({ script_hash: ALWAYS_V3.hash().to_hex(), type: 'plutusV3', serialised_size: 6 });
    expect(chain.scriptCbor(ALWAYS_V3.hash().to_hex())).toEqual({ cbor: ALWAYS_V3.to_hex() });
  });

  it('spends with the script from a reference input (a reference script, not in the witness set)', async () => {
    const { chain, alice, keys, next } = setup();
    const holder = CSL.Address.from_bech32(alice.address);
    const refHash = await chain.submit(lock(chain, alice.address, keys.payment, holder, 20_000_000n, { referenceScript: ALWAYS_V3 }));
    next();
    const lockHash = await chain.submit(lock(chain, alice.address, keys.payment, scriptAddress(ALWAYS_V3), 10_000_000n));
    next();
    const locked = chain.addressUtxos(scriptAddress(ALWAYS_V3).to_bech32(undefined))!.find((u) => u.tx_hash === lockHash)!;
    const hash = await chain.submit(
      spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: { ...locked, lovelace: 10_000_000n }, reference: { tx_hash: refHash, output_index: 0 } }),
    );
    next();
    expect(chain.tx(hash)!.valid_contract).toBe(true);
  });

  it('refuses a failing script with its trace, and takes the collateral when the transaction is marked invalid', async () => {
    const { chain, alice, keys, next } = setup();
    const lockHash = await chain.submit(lock(chain, alice.address, keys.payment, scriptAddress(FAILS_V3), 10_000_000n));
    next();
    const locked = chain.addressUtxos(scriptAddress(FAILS_V3).to_bech32(undefined))!.find((u) => u.tx_hash === lockHash)!;
    const draft = spend(chain, alice.address, keys.payment, { script: FAILS_V3, locked: { ...locked, lovelace: 10_000_000n } });
    const evaluation = await chain.evaluate(draft);
    expect(evaluation).toMatchObject({ ok: false, failures: [{ purpose: 'spend', index: 0, traces: ['boom'] }] });
    expect(ogmiosResult(evaluation, 5)).toMatchObject({ result: { EvaluationFailure: { ScriptFailures: { 'spend:0': [{ validatorFailed: { traces: ['boom'] } }] } } } });

    const refused = await refusal(chain, draft);
    expect(refused.message).toMatch(/^A script failed: spend:0 .*\(trace: boom\)/);

    const before = chain.address(alice.address)!;
    const collateralUtxo = chain.addressUtxos(alice.address)!.find((u) => lovelaceOf(u) > 5_000_000n)!;
    const hash = await chain.submit(spend(chain, alice.address, keys.payment, { script: FAILS_V3, locked: { ...locked, lovelace: 10_000_000n }, invalid: true }));
    next();
    const tx = chain.tx(hash)!;
    expect(tx.valid_contract).toBe(false);
    // The collateral is spent, the script's output is not.
    expect(chain.txUtxos(collateralUtxo.tx_hash)!.outputs[collateralUtxo.output_index]!.consumed_by_tx).toBe(hash);
    expect(chain.txUtxos(lockHash)!.outputs[0]!.consumed_by_tx).toBeNull();
    expect(BigInt(tx.fees)).toBe(lovelaceOf(collateralUtxo));
    const after = chain.address(alice.address)!;
    const lovelace = (a: typeof before) => BigInt(a.amount.find((x) => x.unit === 'lovelace')!.quantity);
    expect(lovelace(before) - lovelace(after)).toBe(lovelaceOf(collateralUtxo));

    // Marked invalid while its scripts succeed: refused.
    const okLock = await chain.submit(lock(chain, alice.address, keys.payment, scriptAddress(ALWAYS_V3), 10_000_000n));
    next();
    const okLocked = chain.addressUtxos(scriptAddress(ALWAYS_V3).to_bech32(undefined))!.find((u) => u.tx_hash === okLock)!;
    expect((await refusal(chain, spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: { ...okLocked, lovelace: 10_000_000n }, invalid: true }))).message).toMatch(/marked invalid .* but its scripts succeed/);
  });

  it('runs Plutus V1 and V2 spending scripts too', async () => {
    const { chain, alice, keys, next } = setup();
    for (const script of [ALWAYS_V1, ALWAYS_V2]) {
      // Plutus V1 cannot see inline datums: the output names its datum by hash, the spend carries it.
      const lockHash = await chain.submit(lock(chain, alice.address, keys.payment, scriptAddress(script), 10_000_000n, { datumHash: true }));
      next();
      const locked = chain.addressUtxos(scriptAddress(script).to_bech32(undefined))!.find((u) => u.tx_hash === lockHash)!;
      expect(locked.data_hash).toBe(CSL.hash_plutus_data(DATUM).to_hex());
      const hash = await chain.submit(spend(chain, alice.address, keys.payment, { script, locked: { ...locked, lovelace: 10_000_000n }, datum: DATUM }));
      next();
      expect(chain.tx(hash)!.valid_contract).toBe(true);
    }
  });

  it('refuses a script input without collateral, without a redeemer, or with a wrong script_data_hash', async () => {
    const { chain, alice, keys, next } = setup();
    const lockHash = await chain.submit(lock(chain, alice.address, keys.payment, scriptAddress(ALWAYS_V3), 10_000_000n));
    next();
    const locked = chain.addressUtxos(scriptAddress(ALWAYS_V3).to_bech32(undefined))!.find((u) => u.tx_hash === lockHash)!;
    const good = CSL.Transaction.from_bytes(spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: { ...locked, lovelace: 10_000_000n } }));

    const resign = (body: CSL.TransactionBody, ws: CSL.TransactionWitnessSet) => {
      const clean = CSL.TransactionWitnessSet.new();
      if (ws.plutus_scripts()) clean.set_plutus_scripts(ws.plutus_scripts()!);
      if (ws.redeemers()) clean.set_redeemers(ws.redeemers()!);
      return sign(CSL.Transaction.new(body, clean), keys.payment);
    };
    const noCollateral = CSL.TransactionBody.from_bytes(good.body().to_bytes());
    noCollateral.set_collateral(CSL.TransactionInputs.new());
    expect((await refusal(chain, resign(noCollateral, good.witness_set()))).message).toMatch(/no collateral inputs/);

    const wrongHash = CSL.TransactionBody.from_bytes(good.body().to_bytes());
    wrongHash.set_script_data_hash(CSL.ScriptDataHash.from_hex('00'.repeat(32)));
    expect((await refusal(chain, resign(wrongHash, good.witness_set()))).message).toMatch(/^script_data_hash is 0{64}, expected /);

    const noRedeemer = CSL.TransactionWitnessSet.new();
    noRedeemer.set_plutus_scripts(good.witness_set().plutus_scripts()!);
    expect((await refusal(chain, resign(CSL.TransactionBody.from_bytes(good.body().to_bytes()), noRedeemer))).message).toMatch(/^Missing redeemer spend:0 for the Plutus script /);
  });

  it('reads the machine\'s failure text: redeemers, errors and traces', () => {
    expect(parseFailure('failed script execution\n     Spend[0] the validator crashed / exited prematurely\n        Trace boom\n        Trace bang\n     Mint[1] out of budget')).toEqual({
      failures: [
        { purpose: 'spend', index: 0, error: 'the validator crashed / exited prematurely', traces: ['boom', 'bang'] },
        { purpose: 'mint', index: 1, error: 'out of budget', traces: [] },
      ],
      general: null,
    });
    expect(parseFailure('missing required script\n       Script abc')).toEqual({ failures: [], general: 'missing required script Script abc' });
  });

  it('mints and burns under a Plutus V3 policy; the asset shows in /assets and the holder\'s utxos', async () => {
    const { chain, alice, keys, next } = setup();
    const mintTx = (quantity: number, utxoOf: (u: AddressUtxo) => boolean, assetsOut: bigint) => {
      const b = builder(chain);
      const utxos = chain.addressUtxos(alice.address)!.filter(utxoOf);
      for (const u of utxos) {
        const v = CSL.Value.new(big(lovelaceOf(u)));
        const tokens = u.amount.filter((a) => a.unit !== 'lovelace');
        if (tokens.length) {
          const ma = CSL.MultiAsset.new();
          for (const t of tokens) ma.set_asset(CSL.ScriptHash.from_hex(t.unit.slice(0, 56)), CSL.AssetName.new(Buffer.from(t.unit.slice(56), 'hex')), big(t.quantity));
          v.set_multiasset(ma);
        }
        b.add_regular_input(CSL.Address.from_bech32(alice.address), input(u), v);
      }
      const redeemer = CSL.Redeemer.new(CSL.RedeemerTag.new_mint(), big(0), CSL.PlutusData.new_integer(CSL.BigInt.from_str('0')), CSL.ExUnits.new(big(1000), big(100_000)));
      const mb = CSL.MintBuilder.new();
      mb.add_asset(CSL.MintWitness.new_plutus_script(CSL.PlutusScriptSource.new(ALWAYS_V3), redeemer), CSL.AssetName.new(Buffer.from('PLUTUS')), CSL.Int.new_i32(quantity));
      b.set_mint_builder(mb);
      if (assetsOut > 0n) {
        const ma = CSL.MultiAsset.new();
        ma.set_asset(ALWAYS_V3.hash(), CSL.AssetName.new(Buffer.from('PLUTUS')), big(assetsOut));
        const out = CSL.TransactionOutputBuilder.new().with_address(CSL.Address.from_bech32(alice.address)).next().with_asset_and_min_required_coin_by_utxo_cost(ma, CSL.DataCost.new_coins_per_byte(big(4310))).build();
        b.add_output(out);
      }
      const collateral = CSL.TxInputsBuilder.new();
      const c = chain.addressUtxos(alice.address)!.find((u) => u.amount.length === 1 && lovelaceOf(u) > 5_000_000n)!;
      collateral.add_regular_input(CSL.Address.from_bech32(alice.address), input(c), CSL.Value.new(big(lovelaceOf(c))));
      b.set_collateral(collateral);
      b.calc_script_data_hash(costModels());
      b.add_change_if_needed(CSL.Address.from_bech32(alice.address));
      return sign(b.build_tx(), keys.payment);
    };
    const unit = ALWAYS_V3.hash().to_hex() + Buffer.from('PLUTUS').toString('hex');
    const minted = await chain.submit(mintTx(100, (u) => u.amount.length === 1 && lovelaceOf(u) > 5_000_000n, 100n));
    next();
    expect(chain.asset(unit)).toMatchObject({ quantity: '100', initial_mint_tx_hash: minted });
    expect(chain.addressUtxos(alice.address, undefined, unit)!.map((u) => u.tx_hash)).toEqual([minted]);
    await chain.submit(mintTx(-40, () => true, 60n));
    next();
    expect(chain.asset(unit)).toMatchObject({ quantity: '60', mint_or_burn_count: 2 });
  });

  it('answers /utils/txs/evaluate (hex, base64 or raw CBOR) and /utils/txs/evaluate/utxos in Ogmios\'s shapes', async () => {
    const { chain, alice, keys, next } = setup();
    const http = await serve(chain);
    try {
      const lockHash = await chain.submit(lock(chain, alice.address, keys.payment, scriptAddress(ALWAYS_V3), 10_000_000n));
      next();
      const locked = chain.addressUtxos(scriptAddress(ALWAYS_V3).to_bech32(undefined))!.find((u) => u.tx_hash === lockHash)!;
      const tx = Buffer.from(spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: { ...locked, lovelace: 10_000_000n } }));
      const post = async (path: string, body: string | Buffer, type = 'application/cbor') => {
        const res = await fetch(http.base + path, { method: 'POST', headers: { 'Content-Type': type }, body: typeof body === 'string' ? body : new Uint8Array(body) });
        return { status: res.status, body: (await res.json()) as any };
      };
      for (const body of [tx.toString('hex'), tx.toString('base64'), tx]) {
        const res = await post('/utils/txs/evaluate', body);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ type: 'jsonwsp/response', methodname: 'EvaluateTx', result: { EvaluationResult: { 'spend:0': { memory: 500, steps: 64_100 } } } });
      }
      expect((await post('/utils/txs/evaluate?version=6', tx.toString('hex'))).body).toMatchObject({ jsonrpc: '2.0', method: 'evaluateTransaction', result: [{ validator: { purpose: 'spend', index: 0 }, budget: { memory: 500, cpu: 64_100 } }] });
      expect((await post('/utils/txs/evaluate?version=7', tx.toString('hex'))).status).toBe(400);
      expect((await post('/utils/txs/evaluate', tx.toString('hex'), 'application/json')).status).toBe(400);
      expect((await post('/utils/txs/evaluate', 'not a transaction!')).status).toBe(400);
      expect((await post('/utils/txs/evaluate', 'abcd')).body).toMatchObject({ status_code: 400 });

      // A spend of an output the ledger has never seen, described in the additional UTxO set.
      const elsewhere = { tx_hash: 'cd'.repeat(32), output_index: 3, lovelace: 10_000_000n };
      const unknown = Buffer.from(spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: elsewhere }));
      expect((await post('/utils/txs/evaluate', unknown.toString('hex'))).body).toMatchObject({ result: { EvaluationFailure: { ScriptFailures: { 'spend:0': { CannotCreateEvaluationContext: { reason: `Unknown transaction input (missing from UTxO set): ${'cd'.repeat(32)}#3` } } } } } });
      const set = [[{ txId: 'cd'.repeat(32), index: 3 }, { address: scriptAddress(ALWAYS_V3).to_bech32(undefined), value: { coins: 10_000_000 }, datum: DATUM.to_hex() }]];
      const withSet = await post('/utils/txs/evaluate/utxos', JSON.stringify({ cbor: unknown.toString('hex'), additionalUtxoSet: set }), 'application/json');
      expect(withSet.status).toBe(200);
      expect(withSet.body).toMatchObject({ result: { EvaluationResult: { 'spend:0': { memory: 500, steps: 64_100 } } } });
      const bad = await post('/utils/txs/evaluate/utxos', JSON.stringify({ cbor: unknown.toString('hex'), additionalUtxoSet: [[{ txId: 'zz', index: 0 }, {}]] }), 'application/json');
      expect(bad).toEqual({ status: 400, body: { status_code: 400, error: 'Bad Request', message: "additionalUtxoSet: [0]: the TxIn's txId must be a transaction hash." } });
    } finally {
      await http.close();
    }
  });
});
