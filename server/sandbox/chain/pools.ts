// The stake pools' certificates and off-chain facts: registration (every pool of the world and
// three retired pools are registered by the genesis transaction), metadata and relays, the retired
// pools and the pools that keep announcing their retirement. Everything is a closed formula of the
// chain key and the height, like the leader schedule.
import { blake2b } from '@noble/hashes/blake2.js';
import { stakeAddress as stakeAddressText, type CardanoNetwork } from '../../../shared/cardano/address';
import { encodeBech32, toHex } from '../../../shared/cardano/bech32';
import { poolBech32 } from '../../../shared/cardano/fingerprint';
import { deriveBytes, deriveFloat } from './rng';
import type { WorldPool } from './world';

/** Pools registered at genesis and retired early in the chain's history: they lead no block. */
export const RETIRED_POOLS = 3;
/** The last world pools keep announcing their retirement a few epochs ahead (a pool may postpone it). */
export const RETIRING_POOLS = 2;

export interface PoolMetadata {
  url: string;
  hash: string;
  ticker: string;
  name: string;
  description: string;
  homepage: string;
}

export interface PoolRelay {
  ipv4: string | null;
  ipv6: string | null;
  dns: string | null;
  dns_srv: string | null;
  port: number;
}

/** A retirement certificate: in the first transaction (the faucet distribution) of a segment. */
export interface PoolRetirement {
  pool: WorldPool;
  /** The segment whose first block carries the certificate. */
  segment: number;
  certIndex: number;
  retiringEpoch: number;
}

export interface PoolBook {
  /** The world's pools followed by the retired ones; index = position here. */
  all: WorldPool[];
  byKey: Map<string, WorldPool>;
  retired: WorldPool[];
  retiring: WorldPool[];
  isRetired(pool: WorldPool): boolean;
  metadata(pool: WorldPool): PoolMetadata;
  relays(pool: WorldPool): PoolRelay[];
  /** The retirement of a retired pool (null for the others). */
  retirementOf(pool: WorldPool): PoolRetirement | null;
  /** Retirement certificates in the first transaction of a segment. */
  retirementsIn(segment: number): PoolRetirement[];
  /** How many retirement certificates a retiring pool has announced up to a height. */
  announcements(pool: WorldPool, height: number): number;
  /** The k-th (0-based) announcement of a retiring pool. */
  announcement(pool: WorldPool, k: number): PoolRetirement;
}

export function poolBook(key: Uint8Array, network: CardanoNetwork, pools: WorldPool[], blocksPerEpoch: number, segmentLength: number): PoolBook {
  const retired: WorldPool[] = [];
  for (let i = 0; i < RETIRED_POOLS; i++) {
    const hash = deriveBytes(key, 28, 'retired-pool', i);
    const reward = stakeAddressText(network, deriveBytes(key, 28, 'retired-pool-owner', i));
    retired.push({
      index: pools.length + i,
      id: poolBech32(hash),
      hex: toHex(hash),
      vrfKeyHash: toHex(deriveBytes(key, 32, 'retired-pool-vrf-hash', i)),
      vrfVkey: encodeBech32('vrf_vk', deriveBytes(key, 32, 'retired-pool-vrf', i)),
      opCertKey: deriveBytes(key, 32, 'retired-pool-opcert', i),
      pledge: (1 + Math.floor(deriveFloat(key, 'retired-pool-pledge', i) * 100)) * 1_000_000_000,
      margin: 0.05,
      fixedCost: 340_000_000,
      owner: -1,
      rewardAccount: reward,
      baseStake: 0,
      baseDelegators: 0,
      opCertCounterBase: 0,
    });
  }
  const all = [...pools, ...retired];
  const byKey = new Map<string, WorldPool>();
  for (const p of all) {
    byKey.set(p.id, p);
    byKey.set(p.hex, p);
  }
  const retiring = pools.slice(Math.max(0, pools.length - RETIRING_POOLS));
  const retiredSet = new Set(retired);
  const retiringSet = new Set(retiring);
  // A retiring pool's latest announcement must stay ahead of the tip's epoch until the next one.
  const lead = Math.ceil(segmentLength / blocksPerEpoch) + 1;
  const epochOf = (height: number): number => Math.floor(height / blocksPerEpoch);

  const retirementsIn = (segment: number): PoolRetirement[] => {
    const out: PoolRetirement[] = [];
    if (segment < 1) return out;
    const r = retired[segment - 1];
    if (r) out.push({ pool: r, segment, certIndex: 0, retiringEpoch: epochOf(segment * segmentLength) + 1 });
    for (const p of retiring) out.push({ pool: p, segment, certIndex: out.length, retiringEpoch: epochOf(segment * segmentLength) + lead });
    return out;
  };

  const metadataCache = new Map<WorldPool, PoolMetadata>();
  return {
    all,
    byKey,
    retired,
    retiring,
    isRetired: (pool) => retiredSet.has(pool),
    metadata(pool) {
      let m = metadataCache.get(pool);
      if (!m) {
        const n = String(pool.index + 1).padStart(2, '0');
        const homepage = `https://pool${n}.sandbox.cairn.invalid/`;
        const doc = { name: `Cairn Sandbox Pool ${n}`, description: `Stake pool ${n} of the Cairn sandbox chain`, ticker: `CRN${n}`, homepage };
        m = { url: `${homepage}poolMetadata.json`, hash: toHex(blake2b(new TextEncoder().encode(JSON.stringify(doc)), { dkLen: 32 })), ...doc };
        metadataCache.set(pool, m);
      }
      return m;
    },
    relays(pool) {
      const n = String(pool.index + 1).padStart(2, '0');
      const out: PoolRelay[] = [{ ipv4: null, ipv6: null, dns: `relay.pool${n}.sandbox.cairn.invalid`, dns_srv: null, port: 3001 }];
      // Documentation addresses (RFC 5737, RFC 3849): nothing to connect to.
      if (pool.index % 2 === 0) out.push({ ipv4: `192.0.2.${pool.index + 1}`, ipv6: null, dns: null, dns_srv: null, port: 6000 + pool.index });
      if (pool.index % 3 === 0) out.push({ ipv4: null, ipv6: `2001:db8::${(pool.index + 1).toString(16)}`, dns: null, dns_srv: null, port: 3001 });
      return out;
    },
    retirementOf(pool) {
      const i = retired.indexOf(pool);
      return i < 0 ? null : retirementsIn(i + 1).find((r) => r.pool === pool)!;
    },
    retirementsIn,
    announcements(pool, height) {
      if (!retiringSet.has(pool) || height < segmentLength) return 0;
      return Math.floor(height / segmentLength);
    },
    announcement(pool, k) {
      return retirementsIn(k + 1).find((r) => r.pool === pool)!;
    },
  };
}
