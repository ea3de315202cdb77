import { describe, expect, it } from 'vitest';
import {
  baseAddress,
  enterpriseAddress,
  parseShelleyAddress,
  parseStakeAddress,
  stakeAddress,
  stakeAddressOf,
} from '../../../shared/cardano/address';
import { decodeBech32, encodeBech32, fromHex } from '../../../shared/cardano/bech32';
import { assetFingerprint } from '../../../shared/cardano/fingerprint';

describe('CIP-14 asset fingerprints', () => {
  // The test vectors of CIP-14.
  it.each([
    ['7eae28af2208be856f7a119668ae52a49b73725e326dc16579dcc373', '', 'asset1rjklcrnsdzqp65wjgrg55sy9723kw09mlgvlc3'],
    ['7eae28af2208be856f7a119668ae52a49b73725e326dc16579dcc37e', '', 'asset1nl0puwxmhas8fawxp8nx4e2q3wekg969n2auw3'],
    ['1e349c9bdea19fd6c147626a5260bc44b71635f398b67c59881df209', '', 'asset1uyuxku60yqe57nusqzjx38aan3f2wq6s93f6ea'],
    ['7eae28af2208be856f7a119668ae52a49b73725e326dc16579dcc373', '504154415445', 'asset13n25uv0yaf5kus35fm2k86cqy60z58d9xmde92'],
    ['1e349c9bdea19fd6c147626a5260bc44b71635f398b67c59881df209', '504154415445', 'asset1hv4p5tv2a837mzqrst04d0dcptdjmluqvdx9k3'],
    ['1e349c9bdea19fd6c147626a5260bc44b71635f398b67c59881df209', '7eae28af2208be856f7a119668ae52a49b73725e326dc16579dcc373', 'asset1aqrdypg669jgazruv5ah07nuyqe0wxjhe2el6f'],
    ['7eae28af2208be856f7a119668ae52a49b73725e326dc16579dcc373', '1e349c9bdea19fd6c147626a5260bc44b71635f398b67c59881df209', 'asset17jd78wukhtrnmjh3fngzasxm8rck0l2r4hhyyt'],
    ['7eae28af2208be856f7a119668ae52a49b73725e326dc16579dcc373', '0000000000000000000000000000000000000000000000000000000000000000', 'asset1pkpwyknlvul7az0xx8czhl60pyel45rpje4z8w'],
  ])('policy %s name "%s" → %s', (policy, name, fingerprint) => {
    expect(assetFingerprint(policy, name)).toBe(fingerprint);
  });

  it('refuses a policy id that is not 28 bytes', () => {
    expect(() => assetFingerprint('abcd', '')).toThrow();
  });
});

describe('CIP-19 addresses', () => {
  // The base address and stake address test vectors of CIP-19 (same keys on both networks).
  const mainnetBase = 'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x';
  const testnetBase = 'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae';
  const mainnetStake = 'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw';
  const testnetStake = 'stake_test1uqehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gssrtvn';

  it('derives the stake address of a base address', () => {
    expect(stakeAddressOf(mainnetBase)).toBe(mainnetStake);
    expect(stakeAddressOf(testnetBase)).toBe(testnetStake);
  });

  it('encodes base and stake addresses from their hashes', () => {
    const parsed = parseShelleyAddress(mainnetBase)!;
    const payment = fromHex(parsed.paymentHash, 28)!;
    const stake = fromHex(parsed.stakeHash!, 28)!;
    expect(baseAddress('mainnet', payment, stake)).toBe(mainnetBase);
    expect(baseAddress('preprod', payment, stake)).toBe(testnetBase);
    expect(baseAddress('preview', payment, stake)).toBe(testnetBase);
    expect(stakeAddress('mainnet', stake)).toBe(mainnetStake);
    expect(stakeAddress('preview', stake)).toBe(testnetStake);
    expect(parseStakeAddress(mainnetStake)).toEqual({ mainnet: true, stakeHash: parsed.stakeHash });
  });

  it('has no stake address for enterprise addresses and rejects junk', () => {
    const ent = enterpriseAddress('mainnet', new Uint8Array(28).fill(3));
    expect(ent.startsWith('addr1v')).toBe(true);
    expect(stakeAddressOf(ent)).toBeNull();
    expect(parseShelleyAddress(ent)?.stakeHash).toBeNull();
    expect(enterpriseAddress('preprod', new Uint8Array(28).fill(3), true).startsWith('addr_test1w')).toBe(true);
    expect(stakeAddressOf('addr1qqqq')).toBeNull();
    expect(stakeAddressOf(mainnetStake)).toBeNull();
    expect(parseShelleyAddress(mainnetBase.slice(0, -1) + 'q')).toBeNull();
  });

  it('rejects a mainnet header behind a testnet prefix', () => {
    const bytes = decodeBech32(mainnetBase)!.bytes;
    expect(parseShelleyAddress(encodeBech32('addr_test', bytes))).toBeNull();
  });
});
