// Plutus scripts as stake credentials on the sandbox ledger: a script of each Plutus version registers
// and delegates its stake address (certificates guarded by the script, each with its redeemer) and
// withdraws zero from it, with transactions built by cardano-serialization-lib's TransactionBuilder.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { describe, expect, it } from 'vitest';
import { LedgerRefusal, memoryLedgerStore, type AddressUtxo, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { costModels } from '../../../../../server/sandbox/chain/plutus';
import { keysOf } from './tx-builder';
import { builder } from './plutus-builder';
import { testChain } from './support';

// Always succeed: (program 1.1.0 (lam ctx (con unit ()))) for V3; (program 1.0.0 (lam d (lam r (lam c (con unit ()))))) for V1 and V2.
const ALWAYS = {
  V1: CSL.PlutusScript.from_bytes(Buffer.from('4746010000222499', 'hex')),
  V2: CSL.PlutusScript.from_bytes_v2(Buffer.from('4746010000222499', 'hex')),
  V3: CSL.PlutusScript.from_bytes_v3(Buffer.from('46450101002499', 'hex')),
};
// Traces 'boom', then fails (V3).
const FAILS_V3 = CSL.PlutusScript.from_bytes_v3(Buffer.from('5352010100232633573892010462' + '6f6f6d004981', 'hex'));
const TYPE = { V1: 'plutusV1', V2: 'plutusV2', V3: 'plutusV3' } as const;

const big = (n: bigint | number | string) => CSL.BigNum.from_str(String(n));
const lovelaceOf = (u: AddressUtxo) => BigInt(u.amount.find((a) => a.unit === 'lovelace')!.quantity);
const input = (u: { tx_hash: string; output_index: number }) => CSL.TransactionInput.new(CSL.TransactionHash.from_hex(u.tx_hash), u.output_index);
const KEY_DEPOSIT = 2_000_000n;

function setup() {
  const t = testChain({ store: memoryLedgerStore() });
  const [alice] = t.chain.devWallets();
  const keys = keysOf(alice!.mnemonic);
  const next = () => {
    t.clock.now += t.chain.params.blockIntervalMs;
  };
  return { ...t, alice: alice!, keys, next };
}

const redeemer = (tag: CSL.RedeemerTag, index = 0) => CSL.Redeemer.new(tag, big(index), CSL.PlutusData.new_integer(CSL.BigInt.from_str('7')), CSL.ExUnits.new(big(1_000_000), big(500_000_000)));

interface StakeTx {
  /** Certificates, each guarded by `script` (with a redeemer) unless `bare`. */
  certs?: CSL.Certificate[];
  /** A zero withdrawal from the script's stake address. */
  withdraw?: boolean;
  script: CSL.PlutusScript;
}

/** A transaction of the wallet's whose certificates and withdrawal the script guards, with collateral from the wallet. */
function stakeTx(chain: SandboxChain, wallet: string, key: CSL.PrivateKey, o: StakeTx): Uint8Array {
  const b = builder(chain);
  const utxos = chain.addressUtxos(wallet)!.filter((u) => u.amount.length === 1 && lovelaceOf(u) > 5_000_000n);
  const [funding, collateralUtxo] = utxos;
  b.add_regular_input(CSL.Address.from_bech32(wallet), input(funding!), CSL.Value.new(big(lovelaceOf(funding!))));
  if (o.certs) {
    const cb = CSL.CertificatesBuilder.new();
    for (const cert of o.certs) {
      cb.add_with_plutus_witness(cert, CSL.PlutusWitness.new_without_datum(o.script, redeemer(CSL.RedeemerTag.new_cert())));
    }
    b.set_certs_builder(cb);
  }
  if (o.withdraw) {
    const wb = CSL.WithdrawalsBuilder.new();
    const account = CSL.RewardAddress.new(0, CSL.Credential.from_scripthash(o.script.hash()));
    wb.add_with_plutus_witness(account, big(0), CSL.PlutusWitness.new_without_datum(o.script, redeemer(CSL.RedeemerTag.new_reward())));
    b.set_withdrawals_builder(wb);
  }
  const collateral = CSL.TxInputsBuilder.new();
  collateral.add_regular_input(CSL.Address.from_bech32(wallet), input(collateralUtxo!), CSL.Value.new(big(lovelaceOf(collateralUtxo!))));
  b.set_collateral(collateral);
  b.calc_script_data_hash(costModels());
  b.add_change_if_needed(CSL.Address.from_bech32(wallet));
  const fixed = CSL.FixedTransaction.from_bytes(b.build_tx().to_bytes());
  fixed.sign_and_add_vkey_signature(key);
  return fixed.to_bytes();
}

const stakeAddressOf = (script: CSL.PlutusScript) => CSL.RewardAddress.new(0, CSL.Credential.from_scripthash(script.hash())).to_address().to_bech32(undefined);
const registration = (script: CSL.PlutusScript) => CSL.Certificate.new_stake_registration(CSL.StakeRegistration.new_with_explicit_deposit(CSL.Credential.from_scripthash(script.hash()), big(KEY_DEPOSIT)));
const delegation = (script: CSL.PlutusScript, pool: string) => CSL.Certificate.new_stake_delegation(CSL.StakeDelegation.new(CSL.Credential.from_scripthash(script.hash()), CSL.Ed25519KeyHash.from_bech32(pool)));

async function refusal(chain: SandboxChain, cbor: Uint8Array): Promise<string> {
  const err = await chain.submit(cbor).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(LedgerRefusal);
  return (err as Error).message;
}

describe('Plutus scripts as stake credentials', () => {
  it.each(['V1', 'V2', 'V3'] as const)('a Plutus %s script registers and delegates its stake address, then withdraws zero from it', async (version) => {
    const { chain, alice, keys, next } = setup();
    const script = ALWAYS[version];
    const stake = stakeAddressOf(script);
    const pool = chain.pools()[0]!;
    const before = lovelaceOf({ amount: chain.address(alice.address)!.amount } as AddressUtxo);

    const certified = await chain.submit(stakeTx(chain, alice.address, keys.payment, { script, certs: [registration(script), delegation(script, pool)] }));
    next();
    expect(chain.tx(certified)).toMatchObject({ redeemer_count: 2, valid_contract: true, stake_cert_count: 1, delegation_count: 1, deposit: String(KEY_DEPOSIT) });
    expect(chain.txDelegations(certified)).toEqual([expect.objectContaining({ address: stake, pool_id: pool, index: 1 })]);
    expect(chain.account(stake)).toMatchObject({ stake_address: stake, pool_id: pool, withdrawals_sum: '0' });
    expect(chain.script(script.hash().to_hex())).toMatchObject({ type: TYPE[version] });
    // The deposit and the fee left the wallet.
    const fee = BigInt(chain.tx(certified)!.fees);
    expect(lovelaceOf({ amount: chain.address(alice.address)!.amount } as AddressUtxo)).toBe(before - KEY_DEPOSIT - fee);

    const withdrawn = await chain.submit(stakeTx(chain, alice.address, keys.payment, { script, withdraw: true }));
    next();
    expect(chain.tx(withdrawn)).toMatchObject({ redeemer_count: 1, valid_contract: true, withdrawal_count: 1 });
    expect(chain.account(stake)).toMatchObject({ pool_id: pool, withdrawals_sum: '0' });
  });

  it('refuses certificates by a failing script with its trace, and a withdrawal from an unregistered script', async () => {
    const { chain, alice, keys, next } = setup();
    const script = ALWAYS.V3;
    const pool = chain.pools()[0]!;
    expect(await refusal(chain, stakeTx(chain, alice.address, keys.payment, { script, withdraw: true }))).toMatch(/the stake address is not registered/);
    const failing = await refusal(chain, stakeTx(chain, alice.address, keys.payment, { script: FAILS_V3, certs: [registration(FAILS_V3), delegation(FAILS_V3, pool)] }));
    expect(failing).toMatch(/boom/);
    next();
    expect(chain.account(stakeAddressOf(FAILS_V3))).toBeNull();
  });
});
