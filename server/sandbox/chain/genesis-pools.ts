// A devnet's genesis stake pools: registered from block 0 beside the world's, with the pledge, cost,
// margin, reward account and metadata the genesis gives them (their keys, when absent, derived from
// the chain key). They join the chain's pools (/pools, /pools/{id}, the stake distribution, the
// ledger's delegation targets and the stake pools that vote), hold no world stake of their own (their
// stake is what their delegators control) and lead no block: the world's pools keep the schedule.
import { blake2b } from '@noble/hashes/blake2.js';
import { stakeAddress, type CardanoNetwork } from '../../../shared/cardano/address';
import { encodeBech32, toHex } from '../../../shared/cardano/bech32';
import { poolBech32 } from '../../../shared/cardano/fingerprint';
import type { PoolBook, PoolMetadata } from './pools';
import { deriveBytes } from './rng';
import type { World, WorldPool } from './world';

/** A pool of a devnet's genesis, as the chain takes it (the genesis schema's, checked). */
export interface GenesisPoolSpec {
  poolKeyHash?: string | undefined;
  vrfKeyHash?: string | undefined;
  pledge: bigint;
  cost: bigint;
  margin: number;
  rewardAccount?: string | undefined;
  ticker?: string | undefined;
  name?: string | undefined;
}

/** The world and pool book of a chain with its genesis' pools after the world's (and the retired ones). */
export function withGenesisPools(key: Uint8Array, network: CardanoNetwork, world: World, book: PoolBook, specs: readonly GenesisPoolSpec[]): { world: World; book: PoolBook } {
  if (specs.length === 0) return { world, book };
  const metadata = new Map<WorldPool, PoolMetadata>();
  const pools = specs.map((s, i): WorldPool => {
    const hash = s.poolKeyHash ? Buffer.from(s.poolKeyHash, 'hex') : deriveBytes(key, 28, 'genesis-pool', i);
    const pool: WorldPool = {
      index: book.all.length + i,
      id: poolBech32(hash),
      hex: toHex(hash),
      vrfKeyHash: s.vrfKeyHash ?? toHex(deriveBytes(key, 32, 'genesis-pool-vrf-hash', i)),
      vrfVkey: encodeBech32('vrf_vk', deriveBytes(key, 32, 'genesis-pool-vrf', i)),
      opCertKey: deriveBytes(key, 32, 'genesis-pool-opcert', i),
      pledge: Number(s.pledge),
      margin: s.margin,
      fixedCost: Number(s.cost),
      owner: -1,
      rewardAccount: s.rewardAccount ?? stakeAddress(network, deriveBytes(key, 28, 'genesis-pool-owner', i)),
      baseStake: 0,
      baseDelegators: 0,
      opCertCounterBase: 0,
    };
    const n = String(i + 1).padStart(2, '0');
    const homepage = `https://genesis-pool${n}.devnet.cairn.invalid/`;
    const doc = { name: s.name ?? `Genesis Pool ${n}`, description: `Stake pool ${n} of this devnet's genesis`, ticker: s.ticker ?? `GEN${n}`, homepage };
    metadata.set(pool, { url: `${homepage}poolMetadata.json`, hash: toHex(blake2b(new TextEncoder().encode(JSON.stringify(doc)), { dkLen: 32 })), ...doc });
    return pool;
  });
  const withKeys = <T>(map: Map<string, T>, value: (p: WorldPool) => T): Map<string, T> => {
    const out = new Map(map);
    for (const p of pools) {
      out.set(p.id, value(p));
      out.set(p.hex, value(p));
    }
    return out;
  };
  return {
    world: { ...world, pools: [...world.pools, ...pools], poolByKey: withKeys(world.poolByKey, (p) => p) },
    book: {
      ...book,
      all: [...book.all, ...pools],
      byKey: withKeys(book.byKey, (p) => p),
      metadata: (pool) => metadata.get(pool) ?? book.metadata(pool),
      relays: (pool) => (metadata.has(pool) ? [] : book.relays(pool)),
    },
  };
}
