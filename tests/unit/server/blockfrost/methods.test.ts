import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { blockfrostMethods, methodTable, scanPathMethods } from '../../../../server/blockfrost/methods';

const require = createRequire(import.meta.url);
const text = fs.readFileSync(require.resolve('@blockfrost/openapi/openapi.yaml'), 'utf8');

describe('the methods Blockfrost defines per path', () => {
  it('reads the same paths and methods from the document as a YAML parser does', { timeout: 60_000 }, () => {
    const doc = parse(text) as { paths: Record<string, Record<string, unknown>> };
    const parsed = new Map(
      Object.entries(doc.paths).map(([p, item]) => [p, new Set(Object.keys(item).filter((k) => ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(k)).map((k) => k.toUpperCase()))]),
    );
    expect(scanPathMethods(text)).toEqual(parsed);
  });

  it('matches request paths to templates: literals before parameters, an IPFS path to the end', () => {
    const t = blockfrostMethods();
    expect(t.allowed('/')).toEqual(['GET', 'HEAD']);
    expect(t.allowed('/blocks/latest')).toEqual(['GET', 'HEAD']);
    expect(t.allowed('/blocks/123/txs')).toEqual(['GET', 'HEAD']);
    expect(t.allowed('/tx/submit')).toEqual(['POST']);
    expect(t.allowed('/utils/txs/evaluate')).toEqual(['POST']);
    expect(t.allowed('/utils/txs/evaluate/utxos')).toEqual(['POST']);
    expect(t.allowed('/ipfs/add')).toEqual(['POST']);
    expect(t.allowed('/ipfs/pin/add/QmX')).toEqual(['POST']);
    expect(t.allowed('/ipfs/gateway/QmX/dir/file')).toEqual(['GET', 'HEAD']);
    expect(t.allowed('/ipfs/gateway/')).toBeUndefined();
    expect(t.allowed('/txs/')).toBeUndefined();
    expect(t.allowed('/nothing/here')).toBeUndefined();
  });

  it("names a path's endpoint by its template, for metering and request insight", () => {
    const t = blockfrostMethods();
    expect(t.match('/tx/submit')?.template).toBe('/tx/submit');
    expect(t.match('/txs/abc/utxos')?.template).toBe('/txs/{hash}/utxos');
    expect(t.match('/addresses/addr1xyz/utxos/lovelace')?.template).toBe('/addresses/{address}/utxos/{asset}');
    expect(t.match('/blocks/latest')?.template).toBe('/blocks/latest');
    expect(t.match('/blocks/123')?.template).toBe('/blocks/{hash_or_number}');
    expect(t.match('/ipfs/gateway/QmX/dir/file')?.template).toBe('/ipfs/gateway/{IPFS_path}');
    expect(t.match('/ipfs/pin/list')?.template).toBe('/ipfs/pin/list');
    expect(t.match('/no/such/path')).toBeUndefined();
  });

  it('refuses a document without paths', () => {
    expect(() => scanPathMethods('openapi: 3.0.3\ninfo: {}\n')).toThrow(/no paths/);
    expect(methodTable(new Map([['/a/{x}', new Set(['POST'])]])).allowed('/a/b')).toEqual(['POST']);
  });
});
