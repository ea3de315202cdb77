// Accounts as the websocket-link protocol sees them: a descriptor is an account's extended public key
// (CIP-1852, as hex or bech32) or one address. An account's addresses are found as wallets find
// them: external (role 0) and change (role 1) addresses derived in order until ADDRESS_GAP of them in
// a row have never been used, each with the account's stake key.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import type { CardanoNetwork } from '../../../shared/cardano/address';
import type { Amount, Tx, TxUtxos } from '../../../shared/chain';
import { isAddressOfNetwork } from '../../blockfrost/contract';
import type { NetworkApi } from './network-api';
import { badParams } from './protocol';

/** Unused addresses in a row that end an account's discovery (Blockfrost's and the wallets' gap). */
export const ADDRESS_GAP = 20;
/** No account is read past this many addresses of one role in one message. */
const MAX_ADDRESSES_PER_ROLE = 1000;

export type Descriptor = { kind: 'xpub'; descriptor: string; key: CSL.Bip32PublicKey } | { kind: 'address'; descriptor: string; address: string };

export interface AccountAddress {
  address: string;
  /** m/1852'/1815'/i'/{role}/{index}: the account index is the wallet's to fill in, as Blockfrost writes it. */
  path: string;
  role: 0 | 1;
  txCount: number;
  received: Amount[];
  sent: Amount[];
}

interface AddressTotal {
  address: string;
  received_sum: Amount[];
  sent_sum: Amount[];
  tx_count: number;
}

const XPUB_HEX = /^[0-9a-fA-F]{128}$/;

export function parseDescriptor(value: unknown, network: CardanoNetwork): Descriptor {
  if (typeof value !== 'string' || value.length === 0) throw badParams('Missing parameter descriptor.');
  if (value.length <= 200 && isAddressOfNetwork(value, network)) return { kind: 'address', descriptor: value, address: value };
  try {
    if (XPUB_HEX.test(value)) return { kind: 'xpub', descriptor: value, key: CSL.Bip32PublicKey.from_hex(value) };
    if (/^(acct_xvk|xpub)1[0-9a-z]+$/.test(value)) return { kind: 'xpub', descriptor: value, key: CSL.Bip32PublicKey.from_bech32(value) };
  } catch {
    // answered below
  }
  throw badParams(`Invalid descriptor: an account public key (128 hex characters, or acct_xvk1…) or an address of cardano-${network}.`);
}

const networkId = (network: CardanoNetwork): number => (network === 'mainnet' ? 1 : 0);

/** The stake key's credential (role 2, index 0). */
const stakeCredential = (key: CSL.Bip32PublicKey): CSL.Credential => CSL.Credential.from_keyhash(key.derive(2).derive(0).to_raw_key().hash());

export function stakeAddressOf(key: CSL.Bip32PublicKey, network: CardanoNetwork): string {
  return CSL.RewardAddress.new(networkId(network), stakeCredential(key)).to_address().to_bech32();
}

export function deriveAddress(key: CSL.Bip32PublicKey, stake: CSL.Credential, network: CardanoNetwork, role: 0 | 1, index: number): string {
  const payment = CSL.Credential.from_keyhash(key.derive(role).derive(index).to_raw_key().hash());
  return CSL.BaseAddress.new(networkId(network), payment, stake).to_address().to_bech32();
}

const totalOf = async (api: NetworkApi, address: string): Promise<AddressTotal | null> => api.find<AddressTotal>(`/addresses/${address}/total`);

/** One role's addresses, in order, through the first ADDRESS_GAP unused ones. */
async function discoverRole(api: NetworkApi, key: CSL.Bip32PublicKey, stake: CSL.Credential, network: CardanoNetwork, role: 0 | 1): Promise<AccountAddress[]> {
  const out: AccountAddress[] = [];
  let unusedInRow = 0;
  for (let start = 0; start < MAX_ADDRESSES_PER_ROLE && unusedInRow < ADDRESS_GAP; start += ADDRESS_GAP) {
    const batch = Array.from({ length: ADDRESS_GAP }, (_, i) => deriveAddress(key, stake, network, role, start + i));
    const totals = await Promise.all(batch.map((a) => totalOf(api, a)));
    batch.forEach((address, i) => {
      const t = totals[i];
      const txCount = t?.tx_count ?? 0;
      unusedInRow = txCount > 0 ? 0 : unusedInRow + 1;
      out.push({ address, path: `m/1852'/1815'/i'/${role}/${start + i}`, role, txCount, received: t?.received_sum ?? [], sent: t?.sent_sum ?? [] });
    });
  }
  // The account's addresses end ADDRESS_GAP after its last used one.
  let lastUsed = -1;
  out.forEach((a, i) => {
    if (a.txCount > 0) lastUsed = i;
  });
  return out.slice(0, lastUsed + 1 + ADDRESS_GAP);
}

/** The account's addresses: every one discovered of an xpub, or the one address. */
export async function accountAddresses(api: NetworkApi, d: Descriptor, network: CardanoNetwork): Promise<AccountAddress[]> {
  if (d.kind === 'address') {
    const t = await totalOf(api, d.address);
    return [{ address: d.address, path: '', role: 0, txCount: t?.tx_count ?? 0, received: t?.received_sum ?? [], sent: t?.sent_sum ?? [] }];
  }
  const stake = stakeCredential(d.key);
  const [external, change] = await Promise.all([discoverRole(api, d.key, stake, network, 0), discoverRole(api, d.key, stake, network, 1)]);
  return [...external, ...change];
}

/** Received minus sent per unit, over the addresses, without the zeros. */
export function balances(addresses: AccountAddress[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const a of addresses) {
    for (const r of a.received) out.set(r.unit, (out.get(r.unit) ?? 0n) + BigInt(r.quantity));
    for (const s of a.sent) out.set(s.unit, (out.get(s.unit) ?? 0n) - BigInt(s.quantity));
  }
  for (const [unit, q] of out) if (q === 0n && unit !== 'lovelace') out.delete(unit);
  return out;
}

export interface AccountTxRef {
  txHash: string;
  address: string;
  blockHeight: number;
  txIndex: number;
  blockTime: number;
}

/** Every transaction of the used addresses, once each, newest first. */
export async function accountTxRefs(api: NetworkApi, addresses: AccountAddress[]): Promise<AccountTxRef[]> {
  const used = addresses.filter((a) => a.txCount > 0);
  const lists = await Promise.all(used.map((a) => api.all<{ tx_hash: string; tx_index: number; block_height: number; block_time: number }>(`/addresses/${a.address}/transactions?order=desc`)));
  const seen = new Map<string, AccountTxRef>();
  lists.forEach((list, i) => {
    for (const t of list) if (!seen.has(t.tx_hash)) seen.set(t.tx_hash, { txHash: t.tx_hash, address: used[i]!.address, blockHeight: t.block_height, txIndex: t.tx_index, blockTime: t.block_time });
  });
  return [...seen.values()].sort((a, b) => b.blockHeight - a.blockHeight || b.txIndex - a.txIndex);
}

export interface AccountTransaction {
  address: string;
  txHash: string;
  txData: Tx;
  txUtxos: TxUtxos;
}

export async function transactionsOf(api: NetworkApi, refs: AccountTxRef[]): Promise<AccountTransaction[]> {
  return Promise.all(
    refs.map(async (r) => {
      const [txData, txUtxos] = await Promise.all([api.get<Tx>(`/txs/${r.txHash}`), api.get<TxUtxos>(`/txs/${r.txHash}/utxos`)]);
      return { address: r.address, txHash: r.txHash, txData, txUtxos };
    }),
  );
}
