// An asset's onchain_metadata, onchain_metadata_standard and onchain_metadata_extra as Blockfrost's
// backend derives them (blockfrost-backend-ryo's /assets/{asset} on @blockfrost/blockfrost-utils'
// CIP-68 reading): a CIP-68 user token (label 222, 333 or 444) takes the datum of its reference
// token (label 100) when that reads as valid CIP-68 metadata, else the CIP-25 (label 721) metadata
// of the asset's latest minting transaction counts. The validation against the CIP schemas is
// @blockfrost/openapi's own, so the standard named is the one Blockfrost names.
import { createRequire } from 'node:module';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import type * as BlockfrostOpenapi from '@blockfrost/openapi';

// @blockfrost/openapi parses its whole OpenAPI document (YAML: most of a second of CPU time) as it
// loads, so it is loaded when the first asset's metadata is read, not by every process that starts.
const require = createRequire(import.meta.url);
let openapi: typeof BlockfrostOpenapi | undefined;
const blockfrostOpenapi = (): typeof BlockfrostOpenapi => (openapi ??= require('@blockfrost/openapi') as typeof BlockfrostOpenapi);

/** The CIP-68 token classes Blockfrost reads metadata for, by their CIP-67 label. */
export type Cip68Class = 'nft' | 'ft' | 'rft';
const USER_LABELS: ReadonlyArray<[number, Cip68Class]> = [[222, 'nft'], [333, 'ft'], [444, 'rft']];
export const CIP68_REFERENCE_LABEL = 100;

/** CRC-8 (polynomial 0x07, initial value 0): CIP-67's checksum of a label's two bytes. */
function crc8(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** A CIP-67 label as the 4 bytes (8 hex digits) an asset name starts with: 0, the number, its checksum, 0. */
export function cip67Prefix(label: number): string {
  if (!Number.isInteger(label) || label < 0 || label > 0xffff) throw new RangeError(`A CIP-67 label is 0 to 65535, not ${label}.`);
  const number = label.toString(16).padStart(4, '0');
  return `0${number}${crc8(Buffer.from(number, 'hex')).toString(16).padStart(2, '0')}0`;
}

/** The label an asset name (hex) starts with, or null when its first 4 bytes are no CIP-67 label. */
export function cip67Label(assetNameHex: string): number | null {
  const prefix = assetNameHex.slice(0, 8).toLowerCase();
  if (prefix.length !== 8 || prefix[0] !== '0' || prefix[7] !== '0' || !/^[0-9a-f]{8}$/.test(prefix)) return null;
  const number = prefix.slice(1, 5);
  return prefix.slice(5, 7) === crc8(Buffer.from(number, 'hex')).toString(16).padStart(2, '0') ? Number.parseInt(number, 16) : null;
}

/** For a CIP-68 user token (unit in hex), its reference token's unit and its class; else null. */
export function cip68Reference(unit: string): { reference: string; class: Cip68Class } | null {
  const u = unit.toLowerCase();
  const name = u.slice(56);
  const label = cip67Label(name);
  const found = USER_LABELS.find(([l]) => l === label);
  if (!found) return null;
  return { reference: u.slice(0, 56) + cip67Prefix(CIP68_REFERENCE_LABEL) + name.slice(8), class: found[1] };
}

// The fields each class's CIP-68 metadata defines, with the form their values take in the datum.
// A field outside these keeps the CBOR of its value, as Blockfrost answers it.
type FieldForm = { type: 'bytestring' | 'number' } | { type: 'array'; items: Record<string, FieldForm> };
const BYTES: FieldForm = { type: 'bytestring' };
const NUMBER: FieldForm = { type: 'number' };
const FILES: FieldForm = { type: 'array', items: { name: BYTES, mediaType: BYTES, src: BYTES } };
const FIELDS: Record<Cip68Class, Record<string, FieldForm>> = {
  ft: { name: BYTES, description: BYTES, ticker: BYTES, url: BYTES, logo: BYTES, decimals: NUMBER },
  nft: { name: BYTES, image: BYTES, mediaType: BYTES, description: BYTES, files: FILES },
  rft: { name: BYTES, image: BYTES, mediaType: BYTES, description: BYTES, decimals: NUMBER, files: FILES },
};

/** Bytes as UTF-8 text when they are valid UTF-8, else as hex. */
export function utf8OrHex(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return Buffer.from(bytes).toString('hex');
  }
}

const own = <T>(record: Record<string, T>, key: string): T | undefined => (Object.hasOwn(record, key) ? record[key] : undefined);

/** A map key: its bytes as text (or hex), an integer in decimal. */
function keyText(key: CSL.PlutusData): string | null {
  const bytes = key.as_bytes();
  if (bytes) return utf8OrHex(bytes);
  const int = key.as_integer();
  return int ? int.to_str() : null;
}

/**
 * A datum value read for a field of the given form: bytes as text, a (safe) integer as a number, a
 * list of byte strings joined (CIP-68 v3 splits long texts into 64-byte chunks), a list or map read
 * item by item. Null when it has another form, and then the field keeps its CBOR.
 */
function readValue(data: CSL.PlutusData, form: FieldForm | Record<string, FieldForm> | undefined): unknown {
  if (!form) return null;
  const type = (form as FieldForm).type;
  const int = data.as_integer();
  if (type === 'number' && int) {
    const n = Number(int.to_str());
    return Number.isSafeInteger(n) ? n : null;
  }
  const bytes = data.as_bytes();
  if (type === 'bytestring' && bytes) return utf8OrHex(bytes);
  const list = data.as_list();
  if (type === 'bytestring' && list) {
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < list.len(); i++) {
      const chunk = list.get(i).as_bytes();
      if (!chunk) throw new Error('A byte string split into chunks holds something else than bytes.');
      chunks.push(chunk);
    }
    return utf8OrHex(Buffer.concat(chunks));
  }
  if (list) {
    const items = (form as { items?: Record<string, FieldForm> }).items;
    const out: unknown[] = [];
    for (let i = 0; i < list.len(); i++) {
      const v = readValue(list.get(i), items);
      if (v === null) return null;
      out.push(v);
    }
    return out;
  }
  const map = data.as_map();
  if (map) {
    const out: Record<string, unknown> = {};
    const keys = map.keys();
    for (let i = 0; i < keys.len(); i++) {
      const key = keys.get(i);
      const name = keyText(key);
      const value = map.get(key)?.get(0);
      if (name === null || !value) return null;
      const v = readValue(value, own(form as Record<string, FieldForm>, name));
      if (v === null) return null;
      out[name] = v;
    }
    return out;
  }
  return null;
}

export interface Cip68Datum {
  metadata: Record<string, unknown>;
  version: number;
  /** The CBOR of the datum's third field, when it has one. */
  extra: string | undefined;
}

/**
 * A reference token's datum (CBOR hex) read as CIP-68 metadata of the given class: a constructor
 * whose fields are the metadata map, the version and optionally anything extra. Null when it has
 * no such form; throws on CBOR that is no Plutus data.
 */
export function readCip68Datum(datumHex: string, cls: Cip68Class): Cip68Datum | null {
  const datum = CSL.PlutusData.from_hex(datumHex);
  const constr = datum.as_constr_plutus_data();
  if (!constr) return null;
  const fields = constr.data();
  if (fields.len() < 2) return null;
  const map = fields.get(0).as_map();
  if (!map) return null;
  const versionInt = fields.get(1).as_integer();
  const version = versionInt ? Number(versionInt.to_str()) : Number.NaN;
  const extra = fields.len() > 2 ? fields.get(2).to_hex() : undefined;
  const forms = FIELDS[cls];
  const metadata: Record<string, unknown> = {};
  const keys = map.keys();
  for (let i = 0; i < keys.len(); i++) {
    const key = keys.get(i);
    const value = map.get(key)?.get(0);
    if (!value) continue;
    const name = keyText(key) ?? key.to_hex();
    const form = own(forms, name);
    const read = form ? readValue(value, form) : null;
    metadata[name] = read !== null ? read : value.to_hex();
  }
  return { metadata, version, extra };
}

/** What /assets/{asset} answers about an asset's on-chain metadata. */
export interface OnchainMetadata {
  onchain_metadata: Record<string, unknown> | null;
  onchain_metadata_standard: 'CIP25v1' | 'CIP25v2' | 'CIP68v1' | 'CIP68v2' | 'CIP68v3' | null;
  onchain_metadata_extra: string | null;
}

/** The label-721 metadata of the asset's latest minting transaction that has any. */
export interface Cip25Source {
  /** The metadatum as db-sync renders it in JSON (bytes as "0x…" strings, keys as text). */
  json: unknown;
  /** The CBOR of the metadatum alone (the value under label 721). */
  cbor: string;
}

/**
 * A transaction metadatum (CBOR hex) in JSON as db-sync keeps it and Blockfrost answers it: byte
 * strings as "0x…" hex, integer and byte-string map keys as text. Null when it has no JSON form.
 */
export function metadatumJson(metadatumCbor: string): unknown {
  try {
    return JSON.parse(CSL.decode_metadatum_to_json_str(CSL.TransactionMetadatum.from_hex(metadatumCbor), CSL.MetadataJsonSchema.BasicConversions));
  } catch {
    return null;
  }
}

/** The CBOR db-sync keeps for one label's metadata: a map of that label to the metadatum. */
export function labelledMetadataCbor(label: number, metadatumCbor: string): string {
  const map = CSL.GeneralTransactionMetadata.new();
  map.insert(CSL.BigNum.from_str(String(label)), CSL.TransactionMetadatum.from_hex(metadatumCbor));
  return Buffer.from(map.to_bytes()).toString('hex');
}

/**
 * An asset's on-chain metadata by Blockfrost's rules: the CIP-68 reference datum first (when the
 * asset is a CIP-68 user token and the datum validates), else CIP-25 ('CIP25v1' with text keys,
 * 'CIP25v2' with the policy id and asset name as bytes), else nothing. Metadata that does not
 * validate is answered with standard null (CIP-25) or not at all (CIP-68).
 */
export function onchainMetadata(unit: string, sources: { referenceDatum: string | null; cip25: Cip25Source | null }): OnchainMetadata {
  const u = unit.toLowerCase();
  const ref = cip68Reference(u);
  if (ref && sources.referenceDatum) {
    let read: Cip68Datum | null = null;
    try {
      read = readCip68Datum(sources.referenceDatum, ref.class);
    } catch {
      read = null; // no Plutus data: as if there were no datum
    }
    const valid = read ? blockfrostOpenapi().validateCIP68Metadata(read, ref.class) : false;
    if (valid && valid.metadata) {
      return { onchain_metadata: valid.metadata as Record<string, unknown>, onchain_metadata_standard: valid.version, onchain_metadata_extra: valid.extra ?? null };
    }
  }
  if (!sources.cip25) return { onchain_metadata: null, onchain_metadata_standard: null, onchain_metadata_extra: null };
  const { getOnchainMetadata } = blockfrostOpenapi();
  const result = getOnchainMetadata(
    sources.cip25.json as Parameters<typeof getOnchainMetadata>[0],
    u.length > 56 ? u.slice(56) : null,
    u.slice(0, 56),
    labelledMetadataCbor(721, sources.cip25.cbor),
  );
  return { onchain_metadata: (result.onchainMetadata as Record<string, unknown> | null) ?? null, onchain_metadata_standard: result.validCIPversion, onchain_metadata_extra: null };
}
