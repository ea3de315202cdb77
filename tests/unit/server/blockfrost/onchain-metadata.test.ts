// Blockfrost's onchain_metadata rules (blockfrost-backend-ryo's /assets/{asset}): CIP-25 v1 and v2
// keys, invalid metadata, CIP-68 reference datums of each class and their versions.
import cbor from 'cbor';
import { describe, expect, it } from 'vitest';
import {
  cip67Label,
  cip67Prefix,
  cip68Reference,
  metadatumJson,
  onchainMetadata,
  readCip68Datum,
} from '../../../../server/blockfrost/onchain-metadata';

const POLICY = 'd5e6bf0500378d4f0da4e8dde6becec7621cd8cbf5cbb9b87013d4cc';
const hexOf = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const enc = (v: unknown) => cbor.encode(v).toString('hex');
const cip25 = (value: unknown) => {
  const c = enc(value);
  return { json: metadatumJson(c), cbor: c };
};
const constr0 = (fields: unknown[]) => enc(new cbor.Tagged(121, fields));
const b = (s: string) => Buffer.from(s, 'utf8');

describe('CIP-67 labels', () => {
  it('encodes and reads the labels of CIP-68 with their CRC-8 checksums', () => {
    expect(cip67Prefix(100)).toBe('000643b0');
    expect(cip67Prefix(222)).toBe('000de140');
    expect(cip67Prefix(333)).toBe('0014df10');
    expect(cip67Prefix(444)).toBe('001bc280');
    expect(cip67Label('000de14053746f6e65')).toBe(222);
    expect(cip67Label('000de14153746f6e65')).toBeNull(); // wrong checksum
    expect(cip67Label('53746f6e65')).toBeNull();
  });

  it('pairs a user token (222, 333, 444) with its reference token (100), and nothing else', () => {
    expect(cip68Reference(`${POLICY}000de14053746f6e65`)).toEqual({ reference: `${POLICY}000643b053746f6e65`, class: 'nft' });
    expect(cip68Reference(`${POLICY}0014df10${hexOf('Q')}`)).toEqual({ reference: `${POLICY}000643b0${hexOf('Q')}`, class: 'ft' });
    expect(cip68Reference(`${POLICY}001bc280`)).toEqual({ reference: `${POLICY}000643b0`, class: 'rft' });
    expect(cip68Reference(`${POLICY}000643b053746f6e65`)).toBeNull();
    expect(cip68Reference(`${POLICY}${hexOf('Stone')}`)).toBeNull();
  });
});

describe('CIP-25 (label 721)', () => {
  const meta = { name: 'Stone #1', image: 'ipfs://QmStone', mediaType: 'image/png' };

  it('v1: the policy id and asset name as text keys', () => {
    const source = cip25(new Map([[POLICY, new Map([['Stone1', meta]])]]));
    expect(onchainMetadata(`${POLICY}${hexOf('Stone1')}`, { referenceDatum: null, cip25: source })).toEqual({
      onchain_metadata: meta,
      onchain_metadata_standard: 'CIP25v1',
      onchain_metadata_extra: null,
    });
  });

  it('v2: the policy id and asset name as bytes, version 2', () => {
    const source = cip25(new Map<unknown, unknown>([[Buffer.from(POLICY, 'hex'), new Map([[b('Stone1'), meta]])], ['version', 2]]));
    expect(source.json).toMatchObject({ [`0x${POLICY}`]: { [`0x${hexOf('Stone1')}`]: meta }, version: 2 });
    expect(onchainMetadata(`${POLICY}${hexOf('Stone1')}`, { referenceDatum: null, cip25: source })).toMatchObject({
      onchain_metadata: meta,
      onchain_metadata_standard: 'CIP25v2',
    });
  });

  it('version 2 with text keys: the metadata, but no standard (Blockfrost\'s fallback)', () => {
    const source = cip25(new Map<unknown, unknown>([[POLICY, new Map([['Stone1', meta]])], ['version', 2]]));
    expect(onchainMetadata(`${POLICY}${hexOf('Stone1')}`, { referenceDatum: null, cip25: source })).toMatchObject({
      onchain_metadata: meta,
      onchain_metadata_standard: null,
    });
  });

  it('metadata without the required image is no standard; another asset\'s entry is none at all', () => {
    const source = cip25(new Map([[POLICY, new Map([['Stone1', { name: 'Stone #1' }]])]]));
    expect(onchainMetadata(`${POLICY}${hexOf('Stone1')}`, { referenceDatum: null, cip25: source })).toEqual({
      onchain_metadata: { name: 'Stone #1' },
      onchain_metadata_standard: null,
      onchain_metadata_extra: null,
    });
    expect(onchainMetadata(`${POLICY}${hexOf('Stone2')}`, { referenceDatum: null, cip25: source })).toEqual({
      onchain_metadata: null,
      onchain_metadata_standard: null,
      onchain_metadata_extra: null,
    });
  });
});

describe('CIP-68 reference datums', () => {
  const nft = `${POLICY}000de140${hexOf('Stone')}`;

  it('222: name, image and custom fields (custom ones keep their CBOR), the version as CIP68v<n>, extra as CBOR', () => {
    const datum = constr0([
      new Map<unknown, unknown>([
        [b('name'), b('Stone')],
        [b('image'), b('ipfs://QmStone')],
        [b('mediaType'), b('image/png')],
        [b('files'), [new Map([[b('mediaType'), b('image/png')], [b('src'), b('ipfs://QmFile')]])]],
        [b('rarity'), b('rare')],
      ]),
      2,
      new cbor.Tagged(121, []),
    ]);
    const read = readCip68Datum(datum, 'nft')!;
    expect(read.metadata).toEqual({
      name: 'Stone',
      image: 'ipfs://QmStone',
      mediaType: 'image/png',
      files: [{ mediaType: 'image/png', src: 'ipfs://QmFile' }],
      rarity: enc(b('rare')),
    });
    expect(onchainMetadata(nft, { referenceDatum: datum, cip25: null })).toEqual({
      onchain_metadata: read.metadata,
      onchain_metadata_standard: 'CIP68v2',
      onchain_metadata_extra: 'd87980',
    });
  });

  it('v3: an image longer than 64 bytes split into chunks reads as one text', () => {
    const long = `ipfs://${'a'.repeat(70)}`;
    const datum = constr0([new Map<unknown, unknown>([[b('name'), b('Stone')], [b('image'), [b(long.slice(0, 64)), b(long.slice(64))]]]), 3]);
    expect(onchainMetadata(nft, { referenceDatum: datum, cip25: null })).toMatchObject({
      onchain_metadata: { name: 'Stone', image: long },
      onchain_metadata_standard: 'CIP68v3',
    });
  });

  it('333: a fungible token\'s name, description, ticker and decimals', () => {
    const ft = `${POLICY}0014df10${hexOf('QRTZ')}`;
    const datum = constr0([new Map<unknown, unknown>([[b('name'), b('Quartz')], [b('description'), b('A token')], [b('ticker'), b('QRTZ')], [b('decimals'), 6]]), 1]);
    expect(onchainMetadata(ft, { referenceDatum: datum, cip25: null })).toEqual({
      onchain_metadata: { name: 'Quartz', description: 'A token', ticker: 'QRTZ', decimals: 6 },
      onchain_metadata_standard: 'CIP68v1',
      onchain_metadata_extra: null,
    });
  });

  it('invalid CIP-68 metadata (no image, a version above 3, no Plutus data) falls back to CIP-25, else null', () => {
    const noImage = constr0([new Map([[b('name'), b('Stone')]]), 1]);
    const v4 = constr0([new Map([[b('name'), b('Stone')], [b('image'), b('ipfs://x')]]), 4]);
    for (const referenceDatum of [noImage, v4, 'ff00']) {
      expect(onchainMetadata(nft, { referenceDatum, cip25: null })).toEqual({ onchain_metadata: null, onchain_metadata_standard: null, onchain_metadata_extra: null });
    }
    // A CIP-68 name is no valid UTF-8, so CIP-25 v1 metadata names it in hex (Blockfrost looks it up so too).
    const source = cip25(new Map([[POLICY, new Map([[`000de140${hexOf('Stone')}`, { name: 'S', image: 'ipfs://y' }]])]]));
    expect(onchainMetadata(nft, { referenceDatum: noImage, cip25: source })).toEqual({
      onchain_metadata: { name: 'S', image: 'ipfs://y' },
      onchain_metadata_standard: 'CIP25v1',
      onchain_metadata_extra: null,
    });
  });
});
