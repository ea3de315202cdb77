// CIP-14 user-facing asset fingerprint: bech32('asset', blake2b-160(policy_id ‖ asset_name)).
import { blake2b } from '@noble/hashes/blake2.js';
import { encodeBech32, fromHex } from './bech32';

export function assetFingerprint(policyIdHex: string, assetNameHex: string): string {
  const policy = fromHex(policyIdHex, 28);
  const name = fromHex(assetNameHex);
  if (!policy) throw new Error('policy id must be 28 bytes of hex');
  if (!name || name.length > 32) throw new Error('asset name must be at most 32 bytes of hex');
  const data = new Uint8Array(policy.length + name.length);
  data.set(policy, 0);
  data.set(name, policy.length);
  return encodeBech32('asset', blake2b(data, { dkLen: 20 }));
}

/** Pool ids are bech32 'pool' of the 28-byte pool key hash. */
export function poolBech32(poolKeyHash: Uint8Array): string {
  return encodeBech32('pool', poolKeyHash);
}
