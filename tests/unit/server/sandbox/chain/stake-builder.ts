// Builds signed staking transactions (stake certificates and reward withdrawals) from a development
// wallet's keys, as a wallet would, with cardano-serialization-lib.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import type { AddressUtxo, SandboxChain } from '../../../../../server/sandbox/chain/index';
import { keysOf, type WalletKeys } from './tx-builder';

const big = (n: bigint | number) => CSL.BigNum.from_str(String(n));
export const KEY_DEPOSIT = 2_000_000n;

export interface StakeTxOptions {
  inputs: AddressUtxo[];
  change: string;
  keys: WalletKeys;
  /** Certificates of the wallet's stake key, in order. */
  certs?: Array<{ kind: 'register' } | { kind: 'deregister' } | { kind: 'delegate'; pool: string } | { kind: 'register-delegate'; pool: string }>;
  /** Lovelace withdrawn from the wallet's reward account. */
  withdraw?: bigint;
  networkId: number;
}

export function stakeCredential(keys: WalletKeys): CSL.Credential {
  return CSL.Credential.from_keyhash(keys.stake.to_public().hash());
}

/** A signed transaction (payment and stake keys) paying everything back to `change`; answers the CBOR. */
export function stakeTx(o: StakeTxOptions): Uint8Array {
  const cred = stakeCredential(o.keys);
  const total = o.inputs.reduce((n, u) => n + BigInt(u.amount.find((a) => a.unit === 'lovelace')!.quantity), 0n);
  let deposit = 0n;
  const certs = CSL.Certificates.new();
  for (const c of o.certs ?? []) {
    if (c.kind === 'register') {
      certs.add(CSL.Certificate.new_stake_registration(CSL.StakeRegistration.new(cred)));
      deposit += KEY_DEPOSIT;
    } else if (c.kind === 'deregister') {
      certs.add(CSL.Certificate.new_stake_deregistration(CSL.StakeDeregistration.new(cred)));
      deposit -= KEY_DEPOSIT;
    } else if (c.kind === 'delegate') {
      certs.add(CSL.Certificate.new_stake_delegation(CSL.StakeDelegation.new(cred, CSL.Ed25519KeyHash.from_bech32(c.pool))));
    } else {
      certs.add(CSL.Certificate.new_stake_registration_and_delegation(CSL.StakeRegistrationAndDelegation.new(cred, CSL.Ed25519KeyHash.from_bech32(c.pool), big(KEY_DEPOSIT))));
      deposit += KEY_DEPOSIT;
    }
  }
  const build = (fee: bigint): Uint8Array => {
    const inputs = CSL.TransactionInputs.new();
    for (const u of o.inputs) inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(u.tx_hash), u.output_index));
    const outputs = CSL.TransactionOutputs.new();
    outputs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(o.change), CSL.Value.new(big(total + (o.withdraw ?? 0n) - deposit - fee))));
    const body = CSL.TransactionBody.new_tx_body(inputs, outputs, big(fee));
    if (certs.len() > 0) body.set_certs(certs);
    if (o.withdraw !== undefined) {
      const w = CSL.Withdrawals.new();
      w.insert(CSL.RewardAddress.new(o.networkId, cred), big(o.withdraw));
      body.set_withdrawals(w);
    }
    const tx = CSL.FixedTransaction.new(body.to_bytes(), CSL.TransactionWitnessSet.new().to_bytes(), true);
    tx.sign_and_add_vkey_signature(o.keys.payment);
    tx.sign_and_add_vkey_signature(o.keys.stake);
    return tx.to_bytes();
  };
  let fee = 0n;
  for (let i = 0; i < 4; i++) {
    const needed = 44n * BigInt(build(fee).length) + 155_381n;
    if (needed <= fee) break;
    fee = needed;
  }
  return build(fee);
}

/** A pool of the chain that leads blocks in every epoch. */
export function producingPool(chain: SandboxChain): string {
  const E = chain.params.blocksPerEpoch;
  const tip = chain.tipHeight();
  const led = new Map<string, number>();
  for (let h = Math.max(0, tip - E + 1); h <= tip; h++) {
    const leader = chain.blockAt(h)!.slot_leader;
    led.set(leader, (led.get(leader) ?? 0) + 1);
  }
  return [...led.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

/** The wallet's largest output holding ada only. */
export function adaOnlyUtxo(chain: SandboxChain, address: string): AddressUtxo {
  const rows = chain.addressUtxos(address)!.filter((u) => u.amount.length === 1);
  return rows.sort((a, b) => Number(BigInt(b.amount[0]!.quantity) - BigInt(a.amount[0]!.quantity)))[0]!;
}

/** Moves the clock block by block until the next block is not the first of an epoch (rewards are credited there). */
export function awayFromEpochStart(chain: SandboxChain, clock: { now: number }): void {
  while ((chain.tipHeight() + 1) % chain.params.blocksPerEpoch === 0) clock.now += chain.params.blockIntervalMs;
}

/**
 * Registers a development wallet's stake key, delegates it to `pool`, and moves the clock on until
 * its first reward is credited; answers the delegation's transaction hash.
 */
export async function delegateAndEarn(chain: SandboxChain, clock: { now: number }, walletIndex: number, pool: string): Promise<{ delegationTx: string; keys: WalletKeys }> {
  const wallet = chain.devWallets()[walletIndex]!;
  const keys = keysOf(wallet.mnemonic);
  const networkId = chain.network === 'mainnet' ? 1 : 0;
  const delegationTx = await chain.submit(stakeTx({ inputs: [adaOnlyUtxo(chain, wallet.address)], change: wallet.address, keys, networkId, certs: [{ kind: 'register' }, { kind: 'delegate', pool }] }));
  clock.now += chain.params.blockIntervalMs;
  // Active two epochs after the delegation's; the reward of that epoch is credited when it ends.
  const E = chain.params.blocksPerEpoch;
  const delegated = chain.epochOfHeight(chain.tipHeight());
  const credited = (delegated + 3) * E;
  clock.now += (credited - chain.tipHeight() + 2) * chain.params.blockIntervalMs;
  return { delegationTx, keys };
}
