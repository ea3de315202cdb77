import { describe, expect, it } from 'vitest';
import { accountXpubOfMnemonic, addressDeriver, DEV_PAYMENT_MNEMONIC, parseAccountXpub } from '../../../../../server/features/ppu/addresses';
import { encodeBech32 } from '../../../../../shared/cardano/bech32';
import { FALLBACK_ADA_EUR_RATE, FALLBACK_PRICE_PER_REQUEST_EUR, formatAda, lovelaceFor, ppuQuoteSchema } from '../../../../../shared/ppu';

// CIP-19's test vectors (the type-0 base addresses) are the CIP-1852 payment key 0/0 and stake key
// 2/0 of account 0 of the mnemonic 'test walk nut penalty hip pave soap entry language right filter choice'.
const CIP19_MAINNET = 'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwqfjkjv7';
const CIP19_TESTNET = 'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwq2ytjqp';
const ACCOUNT_XPUB = 'cf779aa32f35083707808532471cb64ee41426c9bbd46134dac2ac5b2a0ec0e98fa5fcd46abd9d46d4d8a97a8f3465e2c4e8f3c9dad9ff66823a161ecadca604';

describe('pay-as-you-go payment addresses', () => {
  it('derives the published CIP-1852 / CIP-19 test vectors from the account public key alone', () => {
    expect(accountXpubOfMnemonic(DEV_PAYMENT_MNEMONIC)).toBe(ACCOUNT_XPUB);
    expect(addressDeriver(parseAccountXpub(ACCOUNT_XPUB), 'cardano-mainnet')(0)).toBe(CIP19_MAINNET);
    expect(addressDeriver(parseAccountXpub(ACCOUNT_XPUB), 'cardano-preprod')(0)).toBe(CIP19_TESTNET);
  });

  it('reads acct_xvk bech32 keys, gives every index its own address and refuses bad keys', () => {
    const bech = encodeBech32('acct_xvk', Buffer.from(ACCOUNT_XPUB, 'hex'));
    const derive = addressDeriver(parseAccountXpub(bech), 'cardano-mainnet');
    expect(derive(0)).toBe(CIP19_MAINNET);
    const many = new Set([0, 1, 2, 3, 1000].map(derive));
    expect(many.size).toBe(5);
    expect(() => parseAccountXpub('xpub1abc')).toThrow(RangeError);
    expect(() => derive(0x8000_0000)).toThrow(RangeError);
  });
});

describe('pay-as-you-go prices', () => {
  it('prices 1,000,000 requests at the fallback 0.0000044839 ADA per request', () => {
    expect(lovelaceFor(1_000_000, FALLBACK_PRICE_PER_REQUEST_EUR, FALLBACK_ADA_EUR_RATE)).toBe(4_483_900n);
    expect(lovelaceFor(100_000, FALLBACK_PRICE_PER_REQUEST_EUR, FALLBACK_ADA_EUR_RATE)).toBe(448_390n);
    expect(formatAda(4_483_900n)).toBe('4.4839 ADA');
  });

  it('accepts whole positive bounded quantities only', () => {
    const q = (n: unknown) => ppuQuoteSchema.safeParse({ items: [{ item_type: 'requests', item_quantity: n }] }).success;
    expect(q(1_000_000)).toBe(true);
    for (const bad of [0, -5, 1.5, 1e12, '100', null]) expect(q(bad)).toBe(false);
    expect(ppuQuoteSchema.safeParse({ items: [{ item_type: 'storage', item_quantity: 5 }] }).success).toBe(false);
  });
});
