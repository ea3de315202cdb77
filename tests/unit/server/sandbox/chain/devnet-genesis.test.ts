// A devnet from a genesis of its own: its execution prices and Plutus cost models are what
// /epochs/latest/parameters answers, what the ledger's fee check charges the execution units at,
// what the Plutus machine evaluates with, and what script_data_hash must commit to.
import { describe, expect, it } from 'vitest';
import { createDevnet, LedgerRefusal, memoryLedgerStore, newDevnetState, type DevnetGenesisInput, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { exUnitsFee } from '../../../../../server/sandbox/chain/plutus';
import { COST_MODELS_RAW, PROTOCOL } from '../../../../../server/sandbox/chain/protocol';
import { PLUTUS_COST_MODEL_LENGTHS } from '../../../../../shared/devnet';
import { ALWAYS_V3, lock, scriptAddress, spend } from './plutus-builder';
import { keysOf } from './tx-builder';

const T0 = Date.UTC(2026, 10, 2, 9);
const DEFAULT_PRICES = { price_mem: 0.0577, price_step: 0.0000721 };

function devnet(genesis: DevnetGenesisInput = {}) {
  const clock = { now: T0 };
  const { chain } = createDevnet({ id: 'g1', state: newDevnetState({ now: clock.now, seed: 'devnet-genesis', genesis }), store: memoryLedgerStore(), now: () => clock.now });
  const [alice] = chain.devWallets();
  const next = () => {
    clock.now += chain.params.blockIntervalMs;
  };
  return { chain, alice: alice!, keys: keysOf(alice!.mnemonic), next };
}

const refusal = async (chain: SandboxChain, cbor: Uint8Array): Promise<string> => {
  const err = await chain.submit(cbor).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(LedgerRefusal);
  return (err as LedgerRefusal).message;
};

/** Locks 10 ada at the always-succeeding Plutus V3 script: the locked output. */
async function locked(d: ReturnType<typeof devnet>) {
  const hash = await d.chain.submit(lock(d.chain, d.alice.address, d.keys.payment, scriptAddress(ALWAYS_V3), 10_000_000n));
  d.next();
  const u = d.chain.addressUtxos(scriptAddress(ALWAYS_V3).to_bech32(undefined))!.find((x) => x.tx_hash === hash)!;
  return { ...u, lovelace: 10_000_000n };
}

describe('the default cost models', () => {
  it('have the lengths a genesis must give', () => {
    for (const [language, length] of Object.entries(PLUTUS_COST_MODEL_LENGTHS)) expect(COST_MODELS_RAW[language as keyof typeof COST_MODELS_RAW]).toHaveLength(length);
  });
});

describe("a devnet's execution prices", () => {
  it('are served, and the fee pays for the execution units at them: a spend priced at the default prices is refused, one at the devnet\'s accepted', async () => {
    const d = devnet({ protocolParams: { price_mem: 0.5, price_step: '0.0005' } });
    expect(d.chain.parameters(d.chain.latestEpoch().epoch)).toMatchObject({ price_mem: 0.5, price_step: 0.0005 });
    const units = { mem: 1_000_000n, steps: 500_000_000n };
    const charged = exUnitsFee(units.mem, units.steps, d.chain.params.protocol);
    expect(charged).toBe(750_000n);
    expect(exUnitsFee(units.mem, units.steps, PROTOCOL)).toBe(93_750n);
    const out = await locked(d);

    const cheap = spend(d.chain, d.alice.address, d.keys.payment, { script: ALWAYS_V3, locked: out, exUnits: units, prices: DEFAULT_PRICES });
    expect(await refusal(d.chain, cheap)).toMatch(new RegExp(`^The fee is too low: \\d+ lovelace, the minimum for \\d+ bytes is \\d+ \\(44 × size \\+ 155381 \\+ ${charged} for execution units\\)\\.$`));

    const hash = await d.chain.submit(spend(d.chain, d.alice.address, d.keys.payment, { script: ALWAYS_V3, locked: out, exUnits: units }));
    d.next();
    expect(d.chain.txRedeemers(hash)).toEqual([expect.objectContaining({ unit_mem: '1000000', unit_steps: '500000000', fee: String(charged) })]);
  });
});

describe("a devnet's cost models", () => {
  const doubled = COST_MODELS_RAW.PlutusV3.map((n) => n * 2);

  it('are served in both forms, and the machine evaluates with them: the same spend costs twice the budget when every cost doubles', async () => {
    const plain = devnet();
    const costly = devnet({ protocolParams: { cost_models: { PlutusV3: doubled } } });
    const params = costly.chain.parameters(costly.chain.latestEpoch().epoch) as { cost_models_raw: Record<string, number[]>; cost_models: Record<string, Record<string, number>> };
    expect(params.cost_models_raw.PlutusV3).toEqual(doubled);
    expect(params.cost_models.PlutusV3!['0']).toBe(doubled[0]);
    // The languages not given keep their defaults.
    expect(params.cost_models_raw.PlutusV1).toEqual(COST_MODELS_RAW.PlutusV1);

    // One seed, one genesis: the same lock on both, then one spend's bytes evaluated by each.
    const a = await locked(plain);
    const b = await locked(costly);
    expect(b.tx_hash).toBe(a.tx_hash);
    const draft = spend(plain.chain, plain.alice.address, plain.keys.payment, { script: ALWAYS_V3, locked: a });
    expect(await plain.chain.evaluate(draft)).toEqual({ ok: true, redeemers: [{ purpose: 'spend', index: 0, memory: 500, steps: 64_100 }] });
    expect(await costly.chain.evaluate(draft)).toEqual({ ok: true, redeemers: [{ purpose: 'spend', index: 0, memory: 1000, steps: 128_200 }] });
  });

  it('are what script_data_hash must commit to, and what phase 2 budgets against', async () => {
    const d = devnet({ protocolParams: { cost_models: { PlutusV3: doubled } } });
    const out = await locked(d);
    const overDefaults = spend(d.chain, d.alice.address, d.keys.payment, { script: ALWAYS_V3, locked: out, exUnits: { mem: 1000n, steps: 128_200n }, costModels: COST_MODELS_RAW });
    expect(await refusal(d.chain, overDefaults)).toMatch(/^script_data_hash is [0-9a-f]{64}, expected [0-9a-f]{64} \(over the redeemers, the datums and the cost models of \/epochs\/latest\/parameters/);
    // The default budget of this script is too little here.
    const defaultBudget = spend(d.chain, d.alice.address, d.keys.payment, { script: ALWAYS_V3, locked: out, exUnits: { mem: 500n, steps: 64_100n } });
    expect(await refusal(d.chain, defaultBudget)).toMatch(/spend:0 the script needs 1000 memory and 128200 steps, the redeemer declares 500 and 64100/);
    const hash = await d.chain.submit(spend(d.chain, d.alice.address, d.keys.payment, { script: ALWAYS_V3, locked: out, exUnits: { mem: 1000n, steps: 128_200n } }));
    d.next();
    expect(d.chain.tx(hash)).toMatchObject({ redeemer_count: 1, valid_contract: true });
  });
});
