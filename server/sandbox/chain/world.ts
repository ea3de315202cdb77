// The finite cast of the sandbox chain: wallets (stake keys with several base addresses, enterprise
// and script addresses), stake pools and native assets. Derived from the chain key only, so every
// process builds the same world for the same seed and network.
import { baseAddress, enterpriseAddress, stakeAddress, type CardanoNetwork } from '../../../shared/cardano/address';
import { encodeBech32, toHex } from '../../../shared/cardano/bech32';
import { assetFingerprint, poolBech32 } from '../../../shared/cardano/fingerprint';
import { deriveBytes, Rng } from './rng';

export type WalletKind = 'faucet' | 'stake' | 'enterprise' | 'script' | 'scriptStake';

export interface Wallet {
  id: number;
  kind: WalletKind;
  /** Indices into World.addresses. */
  addresses: number[];
  stakeAddress: string | null;
}

export interface WorldAddress {
  index: number;
  bech32: string;
  wallet: number;
  stakeAddress: string | null;
  script: boolean;
}

export interface WorldPool {
  index: number;
  id: string;
  hex: string;
  vrfKeyHash: string;
  vrfVkey: string;
  opCertKey: Uint8Array;
  pledge: number;
  margin: number;
  fixedCost: number;
  owner: number;
  rewardAccount: string;
  /** Stake in lovelace around which the live stake moves from epoch to epoch. */
  baseStake: number;
  baseDelegators: number;
  opCertCounterBase: number;
}

export interface WorldAsset {
  index: number;
  policyId: string;
  assetNameHex: string;
  unit: string;
  fingerprint: string;
  name: string;
  nft: boolean;
  decimals: number | null;
  ticker: string | null;
  standard: 'CIP25v1' | 'CIP68v1' | null;
  genesisSupply: number;
  /** Minted again by the faucet distribution of every mintEvery-th segment, or never (null). */
  mintEvery: number | null;
  mintPhase: number;
  mintAmount: number;
  minter: number;
}

export interface World {
  network: CardanoNetwork;
  wallets: Wallet[];
  addresses: WorldAddress[];
  addressByBech32: Map<string, WorldAddress>;
  walletByStakeAddress: Map<string, Wallet>;
  pools: WorldPool[];
  poolByKey: Map<string, WorldPool>;
  assets: WorldAsset[];
  assetByUnit: Map<string, WorldAsset>;
  /** Wallet ids of stake wallets (kind 'stake'), the ones that delegate. */
  stakeWalletIds: number[];
  /** Wallet ids that may receive payments (everything but the faucet). */
  recipientWalletIds: number[];
}

export const WORLD_SIZES = {
  stakeWallets: 200,
  enterpriseWallets: 30,
  scriptWallets: 12,
  scriptStakeWallets: 6,
  pools: 24,
} as const;

export const FAUCET_WALLET = 0;

const FT_NAMES: Array<{ name: string; ticker: string; decimals: number; cip68?: boolean; emptyName?: boolean }> = [
  { name: 'CairnCoin', ticker: 'CAIRN', decimals: 6 },
  { name: 'Cairn Points', ticker: 'CPTS', decimals: 0, emptyName: true },
  { name: 'Pebble', ticker: 'PBL', decimals: 0 },
  { name: 'Basalt', ticker: 'BSLT', decimals: 4 },
  { name: 'Quartz', ticker: 'QRTZ', decimals: 6, cip68: true },
  { name: 'Granite', ticker: 'GRNT', decimals: 2 },
  { name: 'Lichen', ticker: 'LICH', decimals: 0 },
  { name: 'Tuff', ticker: 'TUFF', decimals: 3 },
];

const CIP68_FT_PREFIX = '0014df10';
const CIP68_NFT_PREFIX = '000de140';

function utf8Hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex');
}

export function buildWorld(key: Uint8Array, network: CardanoNetwork): World {
  const wallets: Wallet[] = [];
  const addresses: WorldAddress[] = [];
  const rng = Rng.of(key, 'world');

  const addAddress = (wallet: Wallet, bech32: string, script: boolean): void => {
    const entry: WorldAddress = { index: addresses.length, bech32, wallet: wallet.id, stakeAddress: wallet.stakeAddress, script };
    addresses.push(entry);
    wallet.addresses.push(entry.index);
  };

  const newWallet = (kind: WalletKind, stakeHash: Uint8Array | null): Wallet => {
    const wallet: Wallet = {
      id: wallets.length,
      kind,
      addresses: [],
      stakeAddress: stakeHash ? stakeAddress(network, stakeHash) : null,
    };
    wallets.push(wallet);
    return wallet;
  };

  // The faucet: one base address whose reward account funds each segment's distribution.
  {
    const stake = deriveBytes(key, 28, 'stake', 0);
    const wallet = newWallet('faucet', stake);
    addAddress(wallet, baseAddress(network, deriveBytes(key, 28, 'pay', 0, 0), stake), false);
  }
  const stakeWalletIds: number[] = [];
  for (let i = 1; i <= WORLD_SIZES.stakeWallets; i++) {
    const stake = deriveBytes(key, 28, 'stake', i);
    const wallet = newWallet('stake', stake);
    stakeWalletIds.push(wallet.id);
    const r = rng.float();
    const count = r < 0.35 ? 1 : r < 0.65 ? 2 : r < 0.85 ? 3 : 4;
    for (let k = 0; k < count; k++) addAddress(wallet, baseAddress(network, deriveBytes(key, 28, 'pay', i, k), stake), false);
  }
  for (let i = 0; i < WORLD_SIZES.enterpriseWallets; i++) {
    const wallet = newWallet('enterprise', null);
    addAddress(wallet, enterpriseAddress(network, deriveBytes(key, 28, 'ent', i)), false);
  }
  for (let i = 0; i < WORLD_SIZES.scriptWallets; i++) {
    const wallet = newWallet('script', null);
    addAddress(wallet, enterpriseAddress(network, deriveBytes(key, 28, 'script', i), true), true);
  }
  for (let i = 0; i < WORLD_SIZES.scriptStakeWallets; i++) {
    const stake = deriveBytes(key, 28, 'script-stake', i);
    const wallet = newWallet('scriptStake', stake);
    addAddress(wallet, baseAddress(network, deriveBytes(key, 28, 'script-pay', i), stake, true), true);
  }

  const pools: WorldPool[] = [];
  for (let p = 0; p < WORLD_SIZES.pools; p++) {
    const hash = deriveBytes(key, 28, 'pool', p);
    const owner = stakeWalletIds[(p * 7) % stakeWalletIds.length]!;
    const ownerAddress = wallets[owner]!.stakeAddress!;
    const whale = rng.chance(0.25);
    pools.push({
      index: p,
      id: poolBech32(hash),
      hex: toHex(hash),
      vrfKeyHash: toHex(deriveBytes(key, 32, 'pool-vrf-hash', p)),
      vrfVkey: encodeBech32('vrf_vk', deriveBytes(key, 32, 'pool-vrf', p)),
      opCertKey: deriveBytes(key, 32, 'pool-opcert', p),
      pledge: Math.round(rng.logUniform(10_000, 5_000_000)) * 1_000_000,
      margin: [0, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1][rng.int(0, 6)]!,
      fixedCost: rng.chance(0.7) ? 170_000_000 : 340_000_000,
      owner,
      rewardAccount: ownerAddress,
      baseStake: Math.round(whale ? rng.logUniform(30_000_000, 72_000_000) : rng.logUniform(500_000, 30_000_000)) * 1_000_000,
      baseDelegators: Math.round(rng.logUniform(12, 6_000)),
      opCertCounterBase: rng.int(0, 24),
    });
  }

  const assets: WorldAsset[] = [];
  const minterOf = (i: number): number => stakeWalletIds[(i * 13 + 5) % stakeWalletIds.length]!;
  FT_NAMES.forEach((ft, i) => {
    const policyId = toHex(deriveBytes(key, 28, 'policy', 'ft', i));
    const assetNameHex = ft.emptyName ? '' : (ft.cip68 ? CIP68_FT_PREFIX : '') + utf8Hex(ft.name);
    assets.push({
      index: assets.length,
      policyId,
      assetNameHex,
      unit: policyId + assetNameHex,
      fingerprint: assetFingerprint(policyId, assetNameHex),
      name: ft.name,
      nft: false,
      decimals: ft.decimals,
      ticker: ft.ticker,
      standard: ft.cip68 ? 'CIP68v1' : null,
      genesisSupply: Math.round(rng.logUniform(1e8, 4e13)),
      mintEvery: rng.int(2, 12),
      mintPhase: 0,
      mintAmount: Math.round(rng.logUniform(1e4, 5e9)),
      minter: minterOf(i),
    });
    const last = assets[assets.length - 1]!;
    last.mintPhase = rng.int(0, last.mintEvery! - 1);
  });
  const stones = toHex(deriveBytes(key, 28, 'policy', 'nft', 'stones'));
  for (let n = 1; n <= 8; n++) {
    const name = `CairnStone${String(n).padStart(3, '0')}`;
    const assetNameHex = utf8Hex(name);
    assets.push({
      index: assets.length, policyId: stones, assetNameHex, unit: stones + assetNameHex,
      fingerprint: assetFingerprint(stones, assetNameHex), name, nft: true, decimals: null, ticker: null,
      standard: 'CIP25v1', genesisSupply: 1, mintEvery: null, mintPhase: 0, mintAmount: 0, minter: minterOf(20 + n),
    });
  }
  const moss = toHex(deriveBytes(key, 28, 'policy', 'nft', 'moss'));
  for (let n = 1; n <= 4; n++) {
    const name = `Moss${String(n).padStart(2, '0')}`;
    const assetNameHex = CIP68_NFT_PREFIX + utf8Hex(name);
    assets.push({
      index: assets.length, policyId: moss, assetNameHex, unit: moss + assetNameHex,
      fingerprint: assetFingerprint(moss, assetNameHex), name, nft: true, decimals: null, ticker: null,
      standard: 'CIP68v1', genesisSupply: 1, mintEvery: null, mintPhase: 0, mintAmount: 0, minter: minterOf(40 + n),
    });
  }

  const poolByKey = new Map<string, WorldPool>();
  for (const pool of pools) {
    poolByKey.set(pool.id, pool);
    poolByKey.set(pool.hex, pool);
  }
  const walletByStakeAddress = new Map<string, Wallet>();
  for (const wallet of wallets) if (wallet.stakeAddress) walletByStakeAddress.set(wallet.stakeAddress, wallet);

  return {
    network,
    wallets,
    addresses,
    addressByBech32: new Map(addresses.map((a) => [a.bech32, a])),
    walletByStakeAddress,
    pools,
    poolByKey,
    assets,
    assetByUnit: new Map(assets.map((a) => [a.unit, a])),
    stakeWalletIds,
    recipientWalletIds: wallets.filter((w) => w.kind !== 'faucet').map((w) => w.id),
  };
}
