// Blockfrost's refusals on the sandbox router, word for word and in Blockfrost's order (the texts and
// the order are blockfrost-backend-ryo's, on @blockfrost/blockfrost-utils).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import cbor from 'cbor';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockfrostQueryParameters, scanQueryParameters } from '../../../../../server/blockfrost/methods';
import { blockReference, isQueryableAddress } from '../../../../../server/blockfrost/contract';
import { BlockfrostHttpError } from '../../../../../server/blockfrost/http';
import { LedgerRefusal, memoryLedgerStore, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { assertSchema, serve, testChain, type TestServer } from './support';
import { keysOf, payment } from './tx-builder';

const require = createRequire(import.meta.url);

const HASH = 'Missing or malformed block hash.';
const NUMBER = 'Missing, out of range or malformed block number.';
const ADDRESS = 'Invalid address for this network or malformed address format.';
const INVALID_PATH = { status_code: 400, error: 'Bad Request', message: 'Invalid path. Please check https://docs.blockfrost.io/' };

function byron(attributes: Map<number, Buffer>): string {
  const inner = cbor.encode([Buffer.alloc(28, 3), attributes, 0]);
  return CSL.ByronAddress.from_bytes(cbor.encode([new cbor.Tagged(24, inner), zlib.crc32(inner)])).to_base58();
}
const icarusMainnet = byron(new Map());
const daedalusMainnet = byron(new Map([[1, cbor.encode(Buffer.alloc(28, 5))]]));
const icarusPreprod = byron(new Map([[2, cbor.encode(1)]]));

const refusal = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(BlockfrostHttpError);
    expect((err as BlockfrostHttpError).status).toBe(400);
    return (err as Error).message;
  }
};

describe('a block hash or number', () => {
  it('reads whatever is a number as a block number, 0 to 2^31-1, and anything else as a 64-hex hash', () => {
    expect(blockReference('0')).toBe('0');
    expect(blockReference('2147483647')).toBe('2147483647');
    expect(blockReference('AB'.repeat(32))).toBe('ab'.repeat(32));
    for (const ref of ['2147483648', '-1', '1.5', '1e20', 'Infinity', '9'.repeat(64)]) expect(refusal(() => blockReference(ref)), ref).toBe(NUMBER);
    for (const ref of ['', 'zz', 'latest', 'a'.repeat(63), 'a'.repeat(65), 'g'.repeat(64)]) expect(refusal(() => blockReference(ref)), ref).toBe(HASH);
  });
});

describe('addresses Blockfrost answers about', () => {
  it('takes any well-formed Byron address, Icarus (Ae2…) or Daedalus (DdzFF…) style, of any network', () => {
    expect(icarusMainnet).toMatch(/^Ae2/);
    expect(daedalusMainnet).toMatch(/^DdzFF/);
    for (const network of ['mainnet', 'preprod', 'preview'] as const) {
      for (const a of [icarusMainnet, daedalusMainnet, icarusPreprod]) expect(isQueryableAddress(a, network), `${a} on ${network}`).toBe(true);
    }
    const broken = icarusMainnet.slice(0, -2) + (icarusMainnet.endsWith('zz') ? 'yy' : 'zz');
    for (const a of [broken, 'Ae2tdPwUPEZ', 'DdzFF', '0'.repeat(60), '']) expect(isQueryableAddress(a, 'mainnet'), a).toBe(false);
  });
});

describe('the query parameters of the document', () => {
  it('are read by the scan as a YAML parser reads them', { timeout: 60_000 }, () => {
    const text = fs.readFileSync(require.resolve('@blockfrost/openapi/openapi.yaml'), 'utf8');
    const doc = parse(text) as { paths: Record<string, { get?: { parameters?: Array<{ in: string; name: string }> } }> };
    const parsed = new Map<string, Set<string>>();
    for (const [path, item] of Object.entries(doc.paths)) {
      const names = (item.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      if (names.length > 0) parsed.set(path, new Set(names));
    }
    expect(scanQueryParameters(text)).toEqual(parsed);
    expect(blockfrostQueryParameters().get('/blocks/{hash_or_number}/txs')).toEqual(new Set(['count', 'page', 'order']));
    expect(blockfrostQueryParameters().get('/blocks/{hash_or_number}/next')).toEqual(new Set(['count', 'page']));
  });
});

describe('the sandbox router', () => {
  let chain: SandboxChain;
  let http: TestServer;
  beforeAll(async () => {
    ({ chain } = testChain({ network: 'mainnet' }));
    http = await serve(chain);
  });
  afterAll(async () => {
    await http.close();
  });
  const bad = (message: string) => ({ status: 400, body: { status_code: 400, error: 'Bad Request', message } });
  const get = async (path: string) => {
    const res = await http.get(path);
    return { status: res.status, body: res.body as unknown };
  };

  it("answers Blockfrost's 400 'Invalid path' for a path its document does not define", async () => {
    for (const path of ['/nothing', '/blocks', '/blocks/1/nope', '/txs/ab/nope/x', '/api/v0/blocks/latest']) expect(await get(path), path).toEqual({ status: 400, body: INVALID_PATH });
  });

  it('gives a block hash and a block number their own messages on every /blocks/{hash_or_number} path', async () => {
    for (const suffix of ['', '/next', '/previous', '/txs']) {
      expect(await get(`/blocks/zz${suffix}`), suffix).toEqual(bad(HASH));
      expect(await get(`/blocks/2147483648${suffix}`), suffix).toEqual(bad(NUMBER));
      expect((await get(`/blocks/2147483647${suffix}`)).status, suffix).toBe(404);
      expect((await get(`/blocks/${chain.tipHeight() - 1}${suffix}`)).status, suffix).toBe(200);
    }
  });

  it('checks the query string first, as Blockfrost validates it against the schema before its handler runs', async () => {
    expect(await get('/blocks/zz/txs?count=500')).toEqual(bad('querystring/count must be <= 100'));
    expect(await get('/blocks/-5/previous?page=0')).toEqual(bad('querystring/page must be >= 1'));
    expect(await get('/addresses/nope/transactions?order=up')).toEqual(bad('querystring/order must be equal to one of the allowed values'));
    expect(await get('/accounts/nope/utxos?count=1.5')).toEqual(bad('querystring/count must be integer'));
    expect(await get('/metadata/txs/labels/x?count=0')).toEqual(bad('querystring/count must be >= 1'));
    // A query parameter the path does not name is ignored (Blockfrost's schema drops it).
    expect(await get('/blocks/zz/next?order=up')).toEqual(bad(HASH));
    expect(await get('/blocks/zz?count=500')).toEqual(bad(HASH));
    // Then the path's own checks.
    expect(await get('/addresses/nope/transactions?order=desc')).toEqual(bad(ADDRESS));
  });

  it('serves doubled slashes as single ones; an empty block id between two slashes is a malformed hash, /blocks/ no path (blockfrost-tests)', async () => {
    const latest = (await get('/blocks/latest')).body as { hash: string };
    expect(await get('//blocks//latest')).toMatchObject({ status: 200, body: { hash: latest.hash } });
    for (const suffix of ['txs', 'next', 'previous', 'addresses']) expect(await get(`/blocks//${suffix}`), suffix).toEqual(bad(HASH));
    expect(await get('/blocks/')).toEqual({ status: 400, body: INVALID_PATH });
  });

  it("answers a method the document does not define for a path with 400 'Invalid path', never the sandbox's 404", async () => {
    for (const [method, path] of [['POST', '/blocks/latest'], ['DELETE', '/tx/submit'], ['GET', '/tx/submit'], ['PUT', '/utils/txs/evaluate']] as const) {
      const res = await fetch(http.base + path, { method });
      expect({ status: res.status, body: await res.json() }, `${method} ${path}`).toEqual({ status: 400, body: INVALID_PATH });
    }
  });

  it("refuses from after to with Blockfrost's from/to sentence (a higher height, or a higher index at the same height)", async () => {
    const FROM_TO = 'Invalid (malformed or out of range) from/to parameter(s).';
    const address = chain.catalog().addresses[0]!.address;
    const unit = chain.catalog().assets[0]!.unit;
    const stake = chain.catalog().stakeAddresses[0]!;
    for (const base of [`/addresses/${address}/transactions`, `/addresses/${address}/txs`, `/assets/${unit}/transactions`, `/accounts/${stake}/transactions`]) {
      for (const q of ['from=200&to=100', 'from=100:5&to=100:1', 'from=2147483648', 'to=1:2147483648']) expect(await get(`${base}?${q}`), `${base}?${q}`).toEqual(bad(FROM_TO));
      for (const q of ['from=100&to=200', 'from=100:1&to=100:5', 'from=100:5&to=100', 'from=100&to=100']) expect((await get(`${base}?${q}`)).status, `${base}?${q}`).toBe(200);
    }
    expect(await get(`/assets/${unit}/utxos?from=9&to=3`)).toEqual(bad(FROM_TO));
  });

  it("refuses a committee id that is no CIP-129 cc_hot1… or cc_cold1… with Blockfrost's sentence (blockfrost-tests)", async () => {
    const CC = 'Invalid or malformed cc credential id.';
    for (const id of ['drep1000002hneyj7jl9y95m0zxdsg6dp9n9y59lvlm7xjqp4qh2jx7h', 'cc_hot1deadbeef', 'cc_hot1' + 'q'.repeat(50)]) {
      expect(await get(`/governance/committee/${id}/votes`), id).toEqual(bad(CC));
    }
  });

  it("answers a /tx/submit body that is no CBOR list with cardano-submit-api's decode failure, as Blockfrost passes it on (blockfrost-tests)", async () => {
    const res = await fetch(`${http.base}/tx/submit`, { method: 'POST', headers: { 'content-type': 'application/cbor' }, body: 'invalid CBOR' });
    const decode = '"DecoderErrorDeserialiseFailure \\"Shelley Tx\\" (DeserialiseFailure 0 \\"expected list len or indef\\")"';
    expect({ status: res.status, body: await res.json() }).toEqual(bad(`{"contents":{"contents":[${Array(6).fill(decode).join(',')}],"tag":"TxCmdTxReadError"},"tag":"TxSubmitFail"}`));
  });

  it('answers a Byron address never seen with 404, on every /addresses path, and a malformed one with 400', async () => {
    for (const a of [icarusMainnet, daedalusMainnet, icarusPreprod]) {
      for (const suffix of ['', '/extended', '/utxos', '/utxos/lovelace', '/transactions']) {
        expect((await get(`/addresses/${a}${suffix}`)).status, `${a}${suffix}`).toBe(404);
      }
    }
    expect(await get('/addresses/Ae2tdPwUPEZ')).toEqual(bad(ADDRESS));
  });
});

describe('a Byron address on the sandbox ledger', () => {
  it('receives a payment and then answers 200 on /addresses/{address} (type byron), /utxos and /transactions; spending from it is refused', async () => {
    const { chain, clock } = testChain({ store: memoryLedgerStore() });
    const http = await serve(chain);
    try {
      const [alice] = chain.devWallets();
      const keys = keysOf(alice!.mnemonic);
      const funding = chain.addressUtxos(alice!.address)!.find((u) => u.amount.length === 1)!;
      const hash = await chain.submit(payment({ inputs: [funding], to: icarusPreprod, lovelace: 5_000_000n, change: alice!.address, signers: [keys.payment] }));
      clock.now += chain.params.blockIntervalMs;

      const info = await http.get(`/addresses/${icarusPreprod}`);
      expect(info.status, JSON.stringify(info.body)).toBe(200);
      assertSchema('/addresses/{address}', info.body);
      expect(info.body).toEqual({ address: icarusPreprod, amount: [{ unit: 'lovelace', quantity: '5000000' }], stake_address: null, type: 'byron', script: false });
      const utxos = await http.get(`/addresses/${icarusPreprod}/utxos`);
      assertSchema('/addresses/{address}/utxos', utxos.body);
      expect(utxos.body.map((u: { tx_hash: string; address: string }) => [u.tx_hash, u.address])).toEqual([[hash, icarusPreprod]]);
      expect((await http.get(`/addresses/${icarusPreprod}/transactions`)).body.map((t: { tx_hash: string }) => t.tx_hash)).toEqual([hash]);
      expect((await http.get(`/txs/${hash}/utxos`)).body.outputs[0].address).toBe(icarusPreprod);

      // A mainnet Byron address is another network's output; spending a Byron output needs a bootstrap witness.
      const more = chain.addressUtxos(alice!.address)!.find((u) => u.amount.length === 1 && u.tx_hash !== hash)!;
      const other = await chain.submit(payment({ inputs: [more], to: icarusMainnet, lovelace: 5_000_000n, change: alice!.address, signers: [keys.payment] })).catch((e: unknown) => e);
      expect(other).toBeInstanceOf(LedgerRefusal);
      expect((other as Error).message).toBe('Output 0 pays an address of another network.');
      const spend = await chain.submit(payment({ inputs: utxos.body, to: alice!.address, lovelace: 2_000_000n, change: alice!.address, signers: [keys.payment] })).catch((e: unknown) => e);
      expect(spend).toBeInstanceOf(LedgerRefusal);
      expect((spend as Error).message).toMatch(/^Input [0-9a-f]{64}#0 is at a Byron address: spending it needs a bootstrap witness/);
    } finally {
      await http.close();
    }
  });
});
