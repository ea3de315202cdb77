// Shelley address encoding (CIP-19) for the address kinds the sandbox chain uses, and the stake
// address of a base address, which webhook conditions on a stake address need.
import { decodeBech32, decodeBech32Fast, encodeBech32, encodeBech32Fast, toHex } from './bech32';
import { cardanoOfSandbox, type SandboxName } from '../networks';

/** A Cardano network by the sandbox chain's name for it (shared/networks.ts). */
export type CardanoNetwork = SandboxName;

/** The network id in the low nibble of an address header: 1 on mainnet, 0 on the test networks. */
export function networkId(network: CardanoNetwork): 0 | 1 {
  return cardanoOfSandbox(network).addressNetworkId;
}

export function addressPrefix(network: CardanoNetwork): 'addr' | 'addr_test' {
  return network === 'mainnet' ? 'addr' : 'addr_test';
}

export function stakePrefix(network: CardanoNetwork): 'stake' | 'stake_test' {
  return network === 'mainnet' ? 'stake' : 'stake_test';
}

/** Header types of CIP-19 used here (upper nibble). */
export const AddressType = {
  /** payment key hash + stake key hash */
  baseKeyKey: 0b0000,
  /** payment script hash + stake key hash */
  baseScriptKey: 0b0001,
  /** payment key hash, no stake part */
  enterpriseKey: 0b0110,
  /** payment script hash, no stake part */
  enterpriseScript: 0b0111,
  /** reward account of a stake key hash */
  rewardKey: 0b1110,
} as const;

function header(type: number, network: CardanoNetwork): number {
  return (type << 4) | networkId(network);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function assertHash(hash: Uint8Array, what: string): void {
  if (hash.length !== 28) throw new Error(`${what} must be a 28-byte hash`);
}

export function baseAddress(network: CardanoNetwork, payment: Uint8Array, stake: Uint8Array, paymentIsScript = false): string {
  assertHash(payment, 'payment credential');
  assertHash(stake, 'stake credential');
  const type = paymentIsScript ? AddressType.baseScriptKey : AddressType.baseKeyKey;
  return encodeBech32(addressPrefix(network), concat(Uint8Array.of(header(type, network)), payment, stake));
}

export function enterpriseAddress(network: CardanoNetwork, payment: Uint8Array, paymentIsScript = false): string {
  assertHash(payment, 'payment credential');
  const type = paymentIsScript ? AddressType.enterpriseScript : AddressType.enterpriseKey;
  return encodeBech32(addressPrefix(network), concat(Uint8Array.of(header(type, network)), payment));
}

export function stakeAddress(network: CardanoNetwork, stake: Uint8Array): string {
  assertHash(stake, 'stake credential');
  return encodeBech32(stakePrefix(network), concat(Uint8Array.of(header(AddressType.rewardKey, network)), stake));
}

export interface ParsedShelleyAddress {
  network: CardanoNetwork | 'testnet';
  /** CIP-19 header type (upper nibble). */
  type: number;
  paymentHash: string;
  paymentIsScript: boolean;
  /** Hex stake key hash for base addresses, null otherwise. */
  stakeHash: string | null;
}

/**
 * Parses a Shelley payment address (base or enterprise, key or script payment part).
 * Answers null for anything else, including pointer, Byron and reward addresses.
 */
export function parseShelleyAddress(address: string): ParsedShelleyAddress | null {
  const decoded = decodeBech32(address);
  if (!decoded || (decoded.prefix !== 'addr' && decoded.prefix !== 'addr_test')) return null;
  const { bytes } = decoded;
  if (bytes.length < 1) return null;
  const head = bytes[0]!;
  const type = head >> 4;
  const net = head & 0x0f;
  if ((decoded.prefix === 'addr') !== (net === 1)) return null;
  const isBase = type === AddressType.baseKeyKey || type === AddressType.baseScriptKey;
  const isEnterprise = type === AddressType.enterpriseKey || type === AddressType.enterpriseScript;
  if (isBase && bytes.length !== 57) return null;
  if (isEnterprise && bytes.length !== 29) return null;
  if (!isBase && !isEnterprise) return null;
  return {
    network: net === 1 ? 'mainnet' : 'testnet',
    type,
    paymentHash: toHex(bytes.subarray(1, 29)),
    paymentIsScript: type === AddressType.baseScriptKey || type === AddressType.enterpriseScript,
    stakeHash: isBase ? toHex(bytes.subarray(29, 57)) : null,
  };
}

/**
 * The stake (reward) address that controls a base address, or null for addresses without a stake
 * key part. A webhook condition on a stake address matches every address this maps to it.
 */
export function stakeAddressOf(address: string): string | null {
  // The webhook matcher derives this for every client address of every block: the common case
  // (a well-formed lowercase address) takes the fast decoder and encoder; anything else the general path.
  const prefix = address.startsWith('addr_test1') ? 'addr_test' : address.startsWith('addr1') ? 'addr' : null;
  const fast = prefix ? decodeBech32Fast(address, prefix) : undefined;
  if (fast) {
    const type = fast[0]! >> 4;
    if (fast.length !== 57 || (type !== AddressType.baseKeyKey && type !== AddressType.baseScriptKey)) return null;
    const mainnet = (fast[0]! & 0x0f) === 1;
    const reward = new Uint8Array(29);
    reward[0] = (AddressType.rewardKey << 4) | (mainnet ? 1 : 0);
    reward.set(fast.subarray(29, 57), 1);
    return encodeBech32Fast(mainnet ? 'stake' : 'stake_test', reward);
  }
  return stakeAddressOfGeneral(address);
}

/** stakeAddressOf by the general bech32 decoder and encoder (and the reference the fast path is tested against). */
export function stakeAddressOfGeneral(address: string): string | null {
  const decoded = decodeBech32(address);
  if (!decoded || (decoded.prefix !== 'addr' && decoded.prefix !== 'addr_test')) return null;
  const { bytes } = decoded;
  const type = bytes[0]! >> 4;
  if (bytes.length !== 57 || (type !== AddressType.baseKeyKey && type !== AddressType.baseScriptKey)) return null;
  const mainnet = (bytes[0]! & 0x0f) === 1;
  const reward = concat(Uint8Array.of((AddressType.rewardKey << 4) | (mainnet ? 1 : 0)), bytes.subarray(29, 57));
  return encodeBech32(mainnet ? 'stake' : 'stake_test', reward);
}

/** Hex stake key hash of a reward address, or null when it is not a key-hash reward address. */
export function parseStakeAddress(address: string): { mainnet: boolean; stakeHash: string } | null {
  const decoded = decodeBech32(address);
  if (!decoded || (decoded.prefix !== 'stake' && decoded.prefix !== 'stake_test')) return null;
  const { bytes } = decoded;
  if (bytes.length !== 29 || bytes[0]! >> 4 !== AddressType.rewardKey) return null;
  const mainnet = (bytes[0]! & 0x0f) === 1;
  if (mainnet !== (decoded.prefix === 'stake')) return null;
  return { mainnet, stakeHash: toHex(bytes.subarray(1)) };
}
