import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { decodeBech32 } from '../../../shared/cardano/bech32';
import { networkBySlug, type SandboxSlug } from '../../../shared/networks';

// Payment addresses of pay-as-you-go orders: CIP-1852 base addresses derived from the operator's
// account public key (m/1852'/1815'/account'), payment key 0/index and stake key 2/0. The server
// holds only the public key, never a spending key.

/**
 * The development payment account: the published CIP-1852/CIP-19 test mnemonic (its keys are known
 * to everyone, so test ada only). Used outside production when PPU_ACCOUNT_XPUB is not set, and said
 * so in the start-up log.
 */
export const DEV_PAYMENT_MNEMONIC = 'test walk nut penalty hip pave soap entry language right filter choice';

const harden = (n: number) => 0x8000_0000 + n;

/** The account public key (account 0) of a BIP-39 mnemonic, as 128 hex digits. */
export function accountXpubOfMnemonic(mnemonic: string, account = 0): string {
  const entropy = mnemonicToEntropy(mnemonic, wordlist);
  const root = CSL.Bip32PrivateKey.from_bip39_entropy(entropy, new Uint8Array());
  return Buffer.from(root.derive(harden(1852)).derive(harden(1815)).derive(harden(account)).to_public().as_bytes()).toString('hex');
}

/** Parses acct_xvk1… (bech32) or 128 hex digits into an account public key; throws a RangeError otherwise. */
export function parseAccountXpub(value: string): CSL.Bip32PublicKey {
  let bytes: Uint8Array | null = null;
  if (/^[0-9a-f]{128}$/i.test(value)) bytes = Buffer.from(value, 'hex');
  else {
    const decoded = decodeBech32(value);
    if (decoded && decoded.prefix === 'acct_xvk' && decoded.bytes.length === 64) bytes = decoded.bytes;
  }
  if (!bytes) throw new RangeError('PPU_ACCOUNT_XPUB must be an account public key: acct_xvk1… or 128 hex digits');
  return CSL.Bip32PublicKey.from_bytes(bytes);
}

/** Pay as you go is paid on a Cardano network of the sandbox chain's (PPU_NETWORK). */
export type PaymentNetwork = SandboxSlug;

/** Derives payment addresses for one account key; the stake key 2/0 is derived once. */
export function addressDeriver(account: CSL.Bip32PublicKey, network: PaymentNetwork): (index: number) => string {
  const networkId = networkBySlug(network)!.cardano!.addressNetworkId;
  const stake = CSL.Credential.from_keyhash(account.derive(2).derive(0).to_raw_key().hash());
  const external = account.derive(0);
  return (index: number) => {
    if (!Number.isSafeInteger(index) || index < 0 || index >= 0x8000_0000) throw new RangeError('address index must be a non-hardened index (0 … 2^31 − 1)');
    const pay = CSL.Credential.from_keyhash(external.derive(index).to_raw_key().hash());
    return CSL.BaseAddress.new(networkId, pay, stake).to_address().to_bech32(undefined);
  };
}
