// Development wallets and the faucet of the sandbox chain. Both are derived from the chain key, so
// every Cairn with the same seed has the same wallets: they are test keys, printed in the start-up
// log, and worthless by design. The genesis transaction (in block 0) funds them and the faucet.
import { pbkdf2Sync } from 'node:crypto';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { entropyToMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { derive } from './rng';
import { PROTOCOL, type Protocol } from './protocol';
import type { LiveUtxo } from './ledger';
import type { SandboxName } from '../../../shared/networks';

export const DEV_WALLET_COUNT = 3;
/** Each development wallet starts with these outputs (10,000 and 1,000 ada). */
export const DEV_WALLET_FUNDS = [10_000_000_000n, 1_000_000_000n];
/** The faucet's genesis output: 100 million ada. */
export const FAUCET_FUNDS = 100_000_000_000_000n;
/** Largest faucet payment: 100,000 ada. */
export const FAUCET_MAX_LOVELACE = 100_000_000_000n;

export interface DevWallet {
  index: number;
  mnemonic: string;
  address: string;
  stakeAddress: string;
  paymentKey: CSL.PrivateKey;
  stakeKey: CSL.PrivateKey;
}

export interface Faucet {
  address: string;
  key: CSL.PrivateKey;
  keyHash: CSL.Ed25519KeyHash;
  /** The native script (one signature: the faucet's key) of the test assets the faucet mints. */
  policy: CSL.NativeScript;
  policyId: string;
}

const harden = (n: number): number => 0x8000_0000 + n;
const big = (n: bigint): CSL.BigNum => CSL.BigNum.from_str(String(n));

export function networkIdOf(network: SandboxName): number {
  return network === 'mainnet' ? 1 : 0;
}

/**
 * The root key of a wallet from its BIP-39 entropy, as CSL's Bip32PrivateKey.from_bip39_entropy
 * makes it (Icarus: PBKDF2-HMAC-SHA512 of the entropy, 4096 rounds, no passphrase, then the
 * scalar's bits cleared and set), with Node's native PBKDF2: CSL's runs in WebAssembly, several
 * times slower, and a devnet derives three of them when it is created.
 */
function rootKeyOf(entropy: Uint8Array): CSL.Bip32PrivateKey {
  const xprv = pbkdf2Sync(new Uint8Array(), entropy, 4096, 96, 'sha512');
  xprv[0]! &= 0xf8;
  xprv[31]! &= 0x1f;
  xprv[31]! |= 0x40;
  return CSL.Bip32PrivateKey.from_bytes(new Uint8Array(xprv));
}

/** The CIP-1852 first address (m/1852'/1815'/0'/0/0 with stake key 2/0) of a 24-word wallet. */
export function devWallets(chainKey: Uint8Array, network: SandboxName): DevWallet[] {
  const out: DevWallet[] = [];
  for (let i = 0; i < DEV_WALLET_COUNT; i++) {
    const entropy = new Uint8Array(derive(chainKey, 'dev-wallet', i).subarray(0, 32));
    // What is only a step of the derivation is freed at once: CSL's memory never shrinks.
    const temps: Array<{ free(): void }> = [];
    const t = <T extends { free(): void }>(x: T): T => (temps.push(x), x);
    const account = t(t(t(rootKeyOf(entropy)).derive(harden(1852))).derive(harden(1815))).derive(harden(0));
    t(account);
    const paymentKey = t(t(account.derive(0)).derive(0)).to_raw_key();
    const stakeKey = t(t(account.derive(2)).derive(0)).to_raw_key();
    const payCred = t(CSL.Credential.from_keyhash(t(t(paymentKey.to_public()).hash())));
    const stakeCred = t(CSL.Credential.from_keyhash(t(t(stakeKey.to_public()).hash())));
    const id = networkIdOf(network);
    out.push({
      index: i,
      mnemonic: entropyToMnemonic(entropy, wordlist),
      address: t(t(CSL.BaseAddress.new(id, payCred, stakeCred)).to_address()).to_bech32(undefined),
      stakeAddress: t(t(CSL.RewardAddress.new(id, stakeCred)).to_address()).to_bech32(undefined),
      paymentKey,
      stakeKey,
    });
    for (const x of temps) x.free();
  }
  return out;
}

export function faucetOf(chainKey: Uint8Array, network: SandboxName): Faucet {
  const key = CSL.PrivateKey.from_normal_bytes(new Uint8Array(derive(chainKey, 'faucet-key').subarray(0, 32)));
  const keyHash = key.to_public().hash();
  const policy = CSL.NativeScript.new_script_pubkey(CSL.ScriptPubkey.new(keyHash));
  return {
    address: CSL.EnterpriseAddress.new(networkIdOf(network), CSL.Credential.from_keyhash(keyHash)).to_address().to_bech32(undefined),
    key,
    keyHash,
    policy,
    policyId: policy.hash().to_hex(),
  };
}

/** A vote delegation's target as CSL takes it. */
function drepOf(t: { hex: string; script: boolean } | 'abstain' | 'no_confidence'): CSL.DRep {
  if (t === 'abstain') return CSL.DRep.new_always_abstain();
  if (t === 'no_confidence') return CSL.DRep.new_always_no_confidence();
  return t.script ? CSL.DRep.new_script_hash(CSL.ScriptHash.from_hex(t.hex)) : CSL.DRep.new_key_hash(CSL.Ed25519KeyHash.from_hex(t.hex));
}

/** The genesis transaction of the live ledger: no inputs, it creates the faucet's and the wallets' funds. */
export function genesisTx(
  faucet: Faucet | null,
  wallets: DevWallet[],
  initialFunds: ReadonlyArray<{ address: string; lovelace: bigint }> = [],
  dreps: { list: ReadonlyArray<{ credential: string; script: boolean }>; deposit: bigint } = { list: [], deposit: 0n },
  delegations: ReadonlyArray<{ stakeAddress: string; poolHex: string | null; drep: { hex: string; script: boolean } | 'abstain' | 'no_confidence' | null }> = [],
): string {
  // Every CSL object here is a step of the encoding, freed at the end: CSL's memory never shrinks.
  const temps: Array<{ free(): void }> = [];
  const t = <T extends { free(): void }>(x: T): T => (temps.push(x), x);
  const n = (q: bigint): CSL.BigNum => t(big(q));
  const output = (address: string, lovelace: bigint): CSL.TransactionOutput => t(CSL.TransactionOutput.new(t(CSL.Address.from_bech32(address)), t(CSL.Value.new(n(lovelace)))));
  const outputs = t(CSL.TransactionOutputs.new());
  if (faucet) outputs.add(output(faucet.address, FAUCET_FUNDS));
  for (const w of wallets) for (const amount of DEV_WALLET_FUNDS) outputs.add(output(w.address, amount));
  // A devnet's genesis pays its initial funds after the faucet and the wallets.
  for (const f of initialFunds) outputs.add(output(f.address, f.lovelace));
  const body = t(CSL.TransactionBody.new_tx_body(t(CSL.TransactionInputs.new()), outputs, n(0n)));
  // A devnet's genesis registers its initial DReps, and registers and delegates the stake keys of its
  // initial delegations (no witness: the genesis transaction is not validated).
  if (dreps.list.length > 0 || delegations.length > 0) {
    const certs = t(CSL.Certificates.new());
    for (const d of dreps.list) {
      const cred = t(d.script ? CSL.Credential.from_scripthash(t(CSL.ScriptHash.from_hex(d.credential))) : CSL.Credential.from_keyhash(t(CSL.Ed25519KeyHash.from_hex(d.credential))));
      certs.add(t(CSL.Certificate.new_drep_registration(t(CSL.DRepRegistration.new(cred, n(dreps.deposit))))));
    }
    for (const d of delegations) {
      const cred = t(t(CSL.RewardAddress.from_address(t(CSL.Address.from_bech32(d.stakeAddress)))!).payment_cred());
      certs.add(t(CSL.Certificate.new_stake_registration(t(CSL.StakeRegistration.new(cred)))));
      if (d.poolHex) certs.add(t(CSL.Certificate.new_stake_delegation(t(CSL.StakeDelegation.new(cred, t(CSL.Ed25519KeyHash.from_hex(d.poolHex)))))));
      if (d.drep) certs.add(t(CSL.Certificate.new_vote_delegation(t(CSL.VoteDelegation.new(cred, t(drepOf(d.drep)))))));
    }
    body.set_certs(certs);
  }
  const hex = t(CSL.Transaction.new(body, t(CSL.TransactionWitnessSet.new()), undefined)).to_hex();
  for (const x of temps) x.free();
  return hex;
}

export interface FaucetAsset {
  /** Asset name in hex (0–32 bytes); minted under the faucet's policy. */
  assetName: string;
  quantity: bigint;
}

/**
 * A signed faucet payment: spends the faucet's unspent outputs, pays `lovelace` (raised to the
 * output's minimum ada when lower) and mints `assets` to the recipient, change back to the faucet.
 */
export function buildFaucetTx(faucet: Faucet, utxos: LiveUtxo[], to: string, lovelace: bigint, assets: FaucetAsset[], protocol: Readonly<Protocol> = PROTOCOL): Uint8Array {
  if (utxos.length === 0) throw new Error('the faucet has no funds left');
  const inputs = CSL.TransactionInputs.new();
  let total = 0n;
  for (const u of utxos) {
    inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(u.txHash), u.outputIndex));
    total += u.output.lovelace;
  }
  const policy = CSL.ScriptHash.from_hex(faucet.policyId);
  const value = (coin: bigint): CSL.Value => {
    const v = CSL.Value.new(big(coin));
    if (assets.length > 0) {
      const ma = CSL.MultiAsset.new();
      const a = CSL.Assets.new();
      for (const asset of assets) a.insert(CSL.AssetName.new(Buffer.from(asset.assetName, 'hex')), big(asset.quantity));
      ma.insert(policy, a);
      v.set_multiasset(ma);
    }
    return v;
  };
  const recipient = CSL.Address.from_bech32(to);
  const dataCost = CSL.DataCost.new_coins_per_byte(big(protocol.coinsPerUtxoByte));
  const minAda = BigInt(CSL.min_ada_for_output(CSL.TransactionOutput.new(recipient, value(lovelace)), dataCost).to_str());
  const pay = lovelace < minAda ? minAda : lovelace;

  const build = (fee: bigint): CSL.FixedTransaction => {
    const outputs = CSL.TransactionOutputs.new();
    outputs.add(CSL.TransactionOutput.new(recipient, value(pay)));
    outputs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(faucet.address), CSL.Value.new(big(total - pay - fee))));
    const body = CSL.TransactionBody.new_tx_body(inputs, outputs, big(fee));
    const witnesses = CSL.TransactionWitnessSet.new();
    if (assets.length > 0) {
      const mint = CSL.Mint.new();
      const m = CSL.MintAssets.new();
      for (const asset of assets) m.insert(CSL.AssetName.new(Buffer.from(asset.assetName, 'hex')), CSL.Int.new(big(asset.quantity)));
      mint.insert(policy, m);
      body.set_mint(mint);
      const scripts = CSL.NativeScripts.new();
      scripts.add(faucet.policy);
      witnesses.set_native_scripts(scripts);
    }
    const tx = CSL.FixedTransaction.new(body.to_bytes(), witnesses.to_bytes(), true);
    tx.sign_and_add_vkey_signature(faucet.key);
    return tx;
  };
  let fee = 0n;
  for (let round = 0; round < 4; round++) {
    const size = BigInt(build(fee).to_bytes().length);
    const needed = BigInt(protocol.minFeeA) * size + BigInt(protocol.minFeeB);
    if (needed <= fee) break;
    fee = needed;
  }
  if (total - pay - fee < 1_000_000n) throw new Error('the faucet has no funds left');
  return build(fee).to_bytes();
}

/** /utils/addresses/xpub/{xpub}/{role}/{index}: the base address of an account public key's role/index with its stake key 2/0. */
export function addressFromXpub(xpubHex: string, role: number, index: number, network: SandboxName): string {
  const account = CSL.Bip32PublicKey.from_bytes(Buffer.from(xpubHex, 'hex'));
  const pay = account.derive(role).derive(index).to_raw_key().hash();
  const stake = account.derive(2).derive(0).to_raw_key().hash();
  return CSL.BaseAddress.new(networkIdOf(network), CSL.Credential.from_keyhash(pay), CSL.Credential.from_keyhash(stake)).to_address().to_bech32(undefined);
}
