// /utils/txs/evaluate and /utils/txs/evaluate/utxos as Blockfrost answers them: a transaction
// without redeemers evaluates to an empty result (builders evaluate every transaction), each answer
// carries Blockfrost's request id, an input the ledger does not know fails each redeemer with the
// node's context error nested as Blockfrost nests it, a body that is not JSON is a 400 with the
// parser's message, a supplied output's reference script is used, and a transaction spending an
// output still in the mempool evaluates and then submits.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { describe, expect, it } from 'vitest';
import { memoryLedgerStore } from '../../../../../server/sandbox/chain/index';
import { ALWAYS_V3, DATUM, lock, lovelaceOf, scriptAddress, spend } from './plutus-builder';
import { keysOf, payment } from './tx-builder';
import { serve, testChain } from './support';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function setup() {
  const t = testChain({ store: memoryLedgerStore() });
  const [alice, bob] = t.chain.devWallets();
  return { ...t, alice: alice!, bob: bob!, keys: keysOf(alice!.mnemonic) };
}

describe('evaluation as Blockfrost answers it', () => {
  it('answers a transaction without redeemers with an empty result and a fresh request id, in both versions', async () => {
    const { chain, alice, bob, keys } = setup();
    const http = await serve(chain);
    try {
      const pay = Buffer.from(payment({ inputs: [chain.addressUtxos(alice.address)![0]!], to: bob.address, lovelace: 2_000_000n, change: alice.address, signers: [keys.payment] }));
      const post = async (path: string, body: string, type: string) => {
        const res = await fetch(http.base + path, { method: 'POST', headers: { 'Content-Type': type }, body });
        return { status: res.status, body: (await res.json()) as any };
      };
      const v5 = await post('/utils/txs/evaluate', pay.toString('hex'), 'application/cbor');
      expect(v5.status).toBe(200);
      expect(v5.body).toEqual({ type: 'jsonwsp/response', version: '1.0', servicename: 'ogmios', methodname: 'EvaluateTx', result: { EvaluationResult: {} }, reflection: { id: expect.stringMatching(UUID) } });
      const again = await post('/utils/txs/evaluate/utxos', JSON.stringify({ cbor: pay.toString('hex') }), 'application/json');
      expect(again.body.result).toEqual({ EvaluationResult: {} });
      expect(again.body.reflection.id).not.toBe(v5.body.reflection.id);
      // Without redeemers no input is looked up, as on the node: an unknown one changes nothing.
      const elsewhere = { ...chain.addressUtxos(alice.address)![0]!, tx_hash: 'ab'.repeat(32) };
      const unknownPay = Buffer.from(payment({ inputs: [elsewhere], to: bob.address, lovelace: 2_000_000n, change: alice.address, signers: [keys.payment] }));
      expect((await post('/utils/txs/evaluate', unknownPay.toString('hex'), 'application/cbor')).body.result).toEqual({ EvaluationResult: {} });
      const v6 = await post('/utils/txs/evaluate?version=6', pay.toString('hex'), 'application/cbor');
      expect(v6.body).toEqual({ jsonrpc: '2.0', method: 'evaluateTransaction', result: [], id: expect.stringMatching(UUID) });
    } finally {
      await http.close();
    }
  });

  it('fails each redeemer of a spend of an unknown input with the node’s reason, nested as Blockfrost nests it', async () => {
    const { chain, alice, keys } = setup();
    const http = await serve(chain);
    try {
      const elsewhere = { tx_hash: 'cd'.repeat(32), output_index: 3, lovelace: 10_000_000n };
      const tx = Buffer.from(spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: elsewhere }));
      const post = async (path: string) => {
        const res = await fetch(http.base + path, { method: 'POST', headers: { 'Content-Type': 'application/cbor' }, body: tx.toString('hex') });
        return (await res.json()) as any;
      };
      const reason = `Unknown transaction input (missing from UTxO set): ${'cd'.repeat(32)}#3`;
      expect(await post('/utils/txs/evaluate')).toEqual({
        type: 'jsonwsp/response',
        version: '1.0',
        servicename: 'ogmios',
        methodname: 'EvaluateTx',
        result: { EvaluationFailure: { ScriptFailures: { 'spend:0': { CannotCreateEvaluationContext: { reason } } } } },
        reflection: { id: expect.stringMatching(UUID) },
      });
      expect(await post('/utils/txs/evaluate?version=6')).toEqual({
        jsonrpc: '2.0',
        method: 'evaluateTransaction',
        error: {
          code: 3010,
          message: 'Some scripts of the transactions terminated with error(s).',
          data: [{ validator: { purpose: 'spend', index: 0 }, error: { code: 3004, message: 'Unable to create the evaluation context from the given transaction.', data: { reason } } }],
        },
        id: expect.stringMatching(UUID),
      });
    } finally {
      await http.close();
    }
  });

  it('answers a body that is not JSON with Blockfrost’s 400 and the parser’s message, never a 500', async () => {
    const { chain } = setup();
    const http = await serve(chain);
    try {
      for (const body of ['{"cbor": ', '{cbor}', '[1,']) {
        const res = await fetch(http.base + '/utils/txs/evaluate/utxos', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
        let expected = '';
        try {
          JSON.parse(body);
        } catch (err) {
          expected = (err as Error).message;
        }
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ status_code: 400, error: 'Bad Request', message: expect.stringContaining(expected.replace(/ \(line \d+ column \d+\)$/, '')) });
      }
    } finally {
      await http.close();
    }
  });

  it('uses the reference script of a supplied output, and evaluates and submits a spend of an output still in the mempool', async () => {
    const { chain, alice, keys, clock } = setup();
    const http = await serve(chain);
    try {
      const script = scriptAddress(ALWAYS_V3);
      // Two faucet outputs fund the lock and the deploy; the wallet's first output stays free as collateral.
      const funded = [await chain.faucet({ address: alice.address, lovelace: 30_000_000n }), await chain.faucet({ address: alice.address, lovelace: 40_000_000n })];
      clock.now += chain.params.blockIntervalMs;
      const wallet = funded.map((f) => chain.addressUtxos(alice.address)!.find((u) => u.tx_hash === f.txHash && lovelaceOf(u) >= 30_000_000n)!);
      // Lock at the script and, in the same block, deploy the script as a reference script: neither is in a block yet.
      const lockCbor = lock(chain, alice.address, keys.payment, script, 10_000_000n, { from: wallet[0] });
      const lockHash = await chain.submit(lockCbor);
      const deployTo = CSL.Address.from_bech32(alice.address);
      const deployCbor = lock(chain, alice.address, keys.payment, deployTo, 20_000_000n, { referenceScript: ALWAYS_V3, from: wallet[1] });
      const deployHash = CSL.FixedTransaction.from_bytes(deployCbor).transaction_hash().to_hex();
      expect((await http.get(`/txs/${lockHash}`)).status).toBe(404);

      // The spend names the mempool's lock output and takes its script from the not-yet-submitted deploy output.
      const spendCbor = Buffer.from(spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: { tx_hash: lockHash, output_index: 0, lovelace: 10_000_000n }, reference: { tx_hash: deployHash, output_index: 0 } }));
      const deployed = [[{ txId: deployHash, index: 0 }, { address: alice.address, value: { coins: 20_000_000 }, datum: DATUM.to_hex(), script: { 'plutus:v3': ALWAYS_V3.to_hex() } }]];
      const withScript = await fetch(http.base + '/utils/txs/evaluate/utxos', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ cbor: spendCbor.toString('hex'), additionalUtxoSet: deployed }) });
      expect(((await withScript.json()) as any).result).toEqual({ EvaluationResult: { 'spend:0': { memory: expect.any(Number), steps: expect.any(Number) } } });
      const withoutScript = deployed.map(([txIn, txOut]) => [txIn, { ...txOut, script: undefined }]);
      const without = await fetch(http.base + '/utils/txs/evaluate/utxos', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ cbor: spendCbor.toString('hex'), additionalUtxoSet: withoutScript }) });
      expect(((await without.json()) as any).result.EvaluationFailure).toBeDefined();

      // Once the deploy is submitted (still in the mempool), the ledger's own outputs serve and the spend lands.
      await chain.submit(deployCbor);
      const plain = await fetch(http.base + '/utils/txs/evaluate', { method: 'POST', headers: { 'Content-Type': 'application/cbor' }, body: spendCbor.toString('hex') });
      expect(((await plain.json()) as any).result.EvaluationResult['spend:0']).toBeDefined();
      const spent = await chain.submit(spendCbor);
      clock.now += chain.params.blockIntervalMs;
      expect(chain.tx(spent)).toMatchObject({ hash: spent, block_height: chain.tx(lockHash)!.block_height, valid_contract: true });
    } finally {
      await http.close();
    }
  });
});
