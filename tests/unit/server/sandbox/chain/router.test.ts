import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAddress } from '../../../../../shared/cardano/address';
import { SANDBOX_HEADER, SANDBOX_HEADER_VALUE, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { assertSchema, serve, testChain, TEST_NOW, type TestServer } from './support';

const NOT_FOUND = { status_code: 404, error: 'Not Found', message: 'The requested component has not been found.' };

let chain: SandboxChain;
let http: TestServer;
let tip: number;
/** A recent block with several transactions, one with a delegation and one with tokens. */
let busy: { height: number; hash: string; txs: string[] };
let delegationTx: string;
let assetTx: string;
let richAddress: string;

beforeAll(async () => {
  ({ chain } = testChain());
  http = await serve(chain);
  tip = chain.tipHeight();
  for (let h = tip - 10; h > tip - 130; h--) {
    const details = chain.blockTxDetails(h)!;
    if (!busy && details.length >= 8) busy = { height: h, hash: chain.blockAt(h)!.hash, txs: details.map((d) => d.tx.hash) };
    delegationTx ??= details.find((d) => d.delegations.length > 0)?.tx.hash as string;
    assetTx ??= details.find((d) => d.outputs.some((o) => o.amount.length > 1))?.tx.hash as string;
  }
  expect(busy && delegationTx && assetTx).toBeTruthy();
  richAddress = chain
    .catalog()
    .addresses.map((a) => a.address)
    .map((a) => ({ a, n: chain.addressTransactions(a)!.length }))
    .sort((x, y) => y.n - x.n)[0]!.a;
});

afterAll(async () => {
  await http.close();
});

async function ok(path: string, endpoint: string): Promise<any> {
  const res = await http.get(path);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(res.headers.get(SANDBOX_HEADER)).toBe(SANDBOX_HEADER_VALUE);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  assertSchema(endpoint, res.body);
  return res.body;
}

async function fails(path: string, status: 400 | 404, endpoint?: string): Promise<any> {
  const res = await http.get(path);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(status);
  expect(res.headers.get(SANDBOX_HEADER)).toBe(SANDBOX_HEADER_VALUE);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'message', 'status_code']);
  expect(res.body.status_code).toBe(status);
  expect(res.body.error).toBe(status === 400 ? 'Bad Request' : 'Not Found');
  if (status === 404) expect(res.body).toEqual(NOT_FOUND);
  if (endpoint) assertSchema(endpoint, res.body, status);
  return res.body;
}

describe('every endpoint answers the Blockfrost schema', () => {
  it('/, /health, /health/clock, /genesis, /network', async () => {
    const root = await ok('/', '/');
    expect(root).toEqual({ url: `${http.base}/`, version: '0.1.0' });
    expect(await ok('/health', '/health')).toEqual({ is_healthy: true });
    expect(await ok('/health/clock', '/health/clock')).toEqual({ server_time: TEST_NOW });
    const genesis = await ok('/genesis', '/genesis');
    expect(genesis.network_magic).toBe(1);
    const network = await ok('/network', '/network');
    expect(BigInt(network.supply.total)).toBeLessThanOrEqual(BigInt(network.supply.max));
  });

  it('/blocks/latest and /blocks/latest/txs', async () => {
    const latest = await ok('/blocks/latest', '/blocks/latest');
    expect(latest.height).toBe(tip);
    expect(latest.confirmations).toBe(0);
    expect(latest.next_block).toBeNull();
    const txs = await ok('/blocks/latest/txs', '/blocks/latest/txs');
    expect(txs).toEqual(chain.blockTxs(tip));
  });

  it('/blocks/{hash_or_number} by number and by hash, /next, /previous, /txs', async () => {
    const byNumber = await ok(`/blocks/${busy.height}`, '/blocks/{hash_or_number}');
    const byHash = await ok(`/blocks/${busy.hash}`, '/blocks/{hash_or_number}');
    expect(byHash).toEqual(byNumber);
    expect(byNumber.tx_count).toBe(busy.txs.length);
    await ok(`/blocks/${busy.hash.toUpperCase()}`, '/blocks/{hash_or_number}');
    const next = await ok(`/blocks/${busy.height}/next?count=3`, '/blocks/{hash_or_number}/next');
    expect(next.map((b: any) => b.height)).toEqual([busy.height + 1, busy.height + 2, busy.height + 3]);
    const previous = await ok(`/blocks/${busy.hash}/previous?count=3`, '/blocks/{hash_or_number}/previous');
    expect(previous.map((b: any) => b.height)).toEqual([busy.height - 3, busy.height - 2, busy.height - 1]);
    expect(await ok(`/blocks/${busy.hash}/txs`, '/blocks/{hash_or_number}/txs')).toEqual(busy.txs);
    // the genesis block has no previous block
    const genesis = await ok('/blocks/0', '/blocks/{hash_or_number}');
    expect(genesis.previous_block).toBeNull();
    expect(await ok('/blocks/0/previous', '/blocks/{hash_or_number}/previous')).toEqual([]);
  });

  it('/txs/{hash}, /txs/{hash}/utxos, /txs/{hash}/delegations', async () => {
    for (const hash of [...busy.txs.slice(0, 5), delegationTx, assetTx]) {
      const tx = await ok(`/txs/${hash}`, '/txs/{hash}');
      expect(tx.hash).toBe(hash);
      const utxos = await ok(`/txs/${hash}/utxos`, '/txs/{hash}/utxos');
      expect(utxos.inputs.length + utxos.outputs.length).toBe(tx.utxo_count);
      const delegations = await ok(`/txs/${hash}/delegations`, '/txs/{hash}/delegations');
      expect(delegations.length).toBe(tx.delegation_count);
    }
    const delegations = await ok(`/txs/${delegationTx}/delegations`, '/txs/{hash}/delegations');
    expect(delegations[0].pool_id).toMatch(/^pool1/);
    expect(delegations[0].address).toMatch(/^stake_test1/);
    // the genesis transaction (no inputs, registers the pools and mints the assets)
    const genesisTx = chain.blockTxs(0)![0]!;
    const tx = await ok(`/txs/${genesisTx}`, '/txs/{hash}');
    expect(tx.pool_update_count).toBeGreaterThan(0);
    expect((await ok(`/txs/${genesisTx}/utxos`, '/txs/{hash}/utxos')).inputs).toEqual([]);
  });

  it('/epochs/latest and /epochs/{number}', async () => {
    const latest = await ok('/epochs/latest', '/epochs/latest');
    expect(latest.epoch).toBe(chain.epochOfHeight(tip));
    const previous = await ok(`/epochs/${latest.epoch - 1}`, '/epochs/{number}');
    expect(previous.end_time).toBe(latest.start_time);
    await ok('/epochs/0', '/epochs/{number}');
  });

  it('/addresses/{address} and /addresses/{address}/transactions', async () => {
    const catalog = chain.catalog();
    const samples = [richAddress, ...catalog.addresses.filter((a) => a.script).slice(0, 2).map((a) => a.address), catalog.addresses[1]!.address];
    for (const address of samples) {
      const info = await ok(`/addresses/${address}`, '/addresses/{address}');
      expect(info.address).toBe(address);
      expect(info.amount[0].unit).toBe('lovelace');
      await ok(`/addresses/${address}/transactions`, '/addresses/{address}/transactions');
    }
    const rows = await ok(`/addresses/${richAddress}/transactions`, '/addresses/{address}/transactions');
    expect(rows.length).toBeGreaterThan(3);
  });

  it('/pools/{pool_id} by bech32 and by hex', async () => {
    for (const id of chain.catalog().pools.slice(0, 6)) {
      const pool = await ok(`/pools/${id}`, '/pools/{pool_id}');
      expect(pool.pool_id).toBe(id);
      expect(await ok(`/pools/${pool.hex}`, '/pools/{pool_id}')).toEqual(pool);
    }
  });

  it('/assets/{asset} for fungible tokens, NFTs and an empty asset name', async () => {
    for (const asset of chain.catalog().assets) {
      const body = await ok(`/assets/${asset.unit}`, '/assets/{asset}');
      expect(body.fingerprint).toBe(asset.fingerprint);
      expect(body.asset_name).toBe(asset.assetName === '' ? null : asset.assetName);
    }
  });
});

describe('pagination', () => {
  it('count, page and order slice the block transactions', async () => {
    const all = chain.blockTxs(busy.height)!;
    expect(await ok(`/blocks/${busy.height}/txs?count=3&page=2`, '/blocks/{hash_or_number}/txs')).toEqual(all.slice(3, 6));
    expect(await ok(`/blocks/${busy.height}/txs?order=desc`, '/blocks/{hash_or_number}/txs')).toEqual(all.slice().reverse());
    expect(await ok(`/blocks/${busy.height}/txs?order=desc&count=2&page=2`, '/blocks/{hash_or_number}/txs')).toEqual(all.slice().reverse().slice(2, 4));
    expect(await ok(`/blocks/${busy.height}/txs?page=1000`, '/blocks/{hash_or_number}/txs')).toEqual([]);
  });

  it('count defaults to 100 and pages walk /next and /previous', async () => {
    const far = tip - 300;
    const next = await ok(`/blocks/${far}/next`, '/blocks/{hash_or_number}/next');
    expect(next).toHaveLength(100);
    expect(next[0].height).toBe(far + 1);
    const page2 = await ok(`/blocks/${far}/next?count=5&page=2`, '/blocks/{hash_or_number}/next');
    expect(page2.map((b: any) => b.height)).toEqual([6, 7, 8, 9, 10].map((k) => far + k));
    const prev2 = await ok(`/blocks/${far}/previous?count=5&page=2`, '/blocks/{hash_or_number}/previous');
    expect(prev2.map((b: any) => b.height)).toEqual([10, 9, 8, 7, 6].map((k) => far - k));
    const clipped = await ok('/blocks/3/previous?count=5', '/blocks/{hash_or_number}/previous');
    expect(clipped.map((b: any) => b.height)).toEqual([0, 1, 2]);
    const nearTip = await ok(`/blocks/${tip - 2}/next`, '/blocks/{hash_or_number}/next');
    expect(nearTip.map((b: any) => b.height)).toEqual([tip - 1, tip]);
  });

  it('address transactions page, order and from/to', async () => {
    const all = chain.addressTransactions(richAddress)!;
    const asc = await ok(`/addresses/${richAddress}/transactions?count=2&page=2`, '/addresses/{address}/transactions');
    expect(asc).toEqual(all.slice(2, 4));
    const desc = await ok(`/addresses/${richAddress}/transactions?order=desc&count=3`, '/addresses/{address}/transactions');
    expect(desc).toEqual(all.slice().reverse().slice(0, 3));
    const pivot = all[Math.floor(all.length / 2)]!;
    const from = await ok(`/addresses/${richAddress}/transactions?from=${pivot.block_height}`, '/addresses/{address}/transactions');
    expect(from.every((r: any) => r.block_height >= pivot.block_height)).toBe(true);
    const to = await ok(`/addresses/${richAddress}/transactions?to=${pivot.block_height}:${pivot.tx_index}`, '/addresses/{address}/transactions');
    expect(to[to.length - 1]).toEqual(pivot);
  });

  it.each([
    ['count=0', 'querystring/count must be >= 1'],
    ['count=101', 'querystring/count must be <= 100'],
    ['count=abc', 'querystring/count must be integer'],
    ['count=1.5', 'querystring/count must be integer'],
    ['page=0', 'querystring/page must be >= 1'],
    ['page=-2', 'querystring/page must be >= 1'],
    ['page=x', 'querystring/page must be integer'],
    ['order=up', 'querystring/order must be equal to one of the allowed values'],
    ['count=1&count=2', 'querystring/count must be integer'],
  ])('%s answers 400', async (query, message) => {
    for (const path of [`/blocks/${busy.height}/txs`, '/blocks/latest/txs', `/addresses/${richAddress}/transactions`]) {
      const body = await fails(`${path}?${query}`, 400, '/blocks/latest/txs');
      expect(body.message).toBe(message);
    }
  });

  it('bad count or page answers 400 on /next and /previous too', async () => {
    await fails(`/blocks/${busy.height}/next?count=500`, 400);
    await fails(`/blocks/${busy.height}/previous?page=0`, 400);
    await fails(`/addresses/${richAddress}/transactions?from=yesterday`, 400);
  });
});

describe('errors', () => {
  it('unknown things answer the Blockfrost 404', async () => {
    const unknownHash = 'ab'.repeat(32);
    await fails(`/blocks/${unknownHash}`, 404, '/blocks/{hash_or_number}');
    await fails(`/blocks/${tip + 1}`, 404, '/blocks/{hash_or_number}');
    await fails(`/blocks/${tip + 1}/next`, 404);
    await fails(`/blocks/${tip + 5}/txs`, 404);
    await fails(`/txs/${unknownHash}`, 404, '/txs/{hash}');
    await fails(`/txs/${unknownHash}/utxos`, 404);
    await fails(`/txs/${unknownHash}/delegations`, 404);
    // a block hash is not a transaction hash
    await fails(`/txs/${busy.hash}`, 404);
    await fails(`/epochs/${chain.epochOfHeight(tip) + 1}`, 404, '/epochs/{number}');
    const stranger = baseAddress('preprod', new Uint8Array(28).fill(7), new Uint8Array(28).fill(9));
    await fails(`/addresses/${stranger}`, 404, '/addresses/{address}');
    await fails(`/addresses/${stranger}/transactions`, 404);
    await fails(`/pools/${'0'.repeat(56)}`, 404, '/pools/{pool_id}');
    await fails(`/assets/${'0'.repeat(60)}`, 404, '/assets/{asset}');
    // A path Blockfrost's document does not define is Blockfrost's 400.
    expect((await http.get('/no/such/path')).body).toEqual({ status_code: 400, error: 'Bad Request', message: 'Invalid path. Please check https://docs.blockfrost.io/' });
    await fails('/accounts/stake_test1uqehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gssrtvn', 404);
  });

  it('a transaction of a block above the tip is not found until the block is made', async () => {
    const { chain: early, clock } = testChain();
    const nextHeight = early.tipHeight() + 1;
    const lateServer = await serve(early);
    try {
      // block hashes can be computed ahead, but the chain does not serve them before their time
      const ahead = testChain({ now: () => TEST_NOW + 20_000 }).chain.blockAt(nextHeight)!;
      expect((await lateServer.get(`/blocks/${ahead.hash}`)).status).toBe(404);
      clock.now += 20_000;
      expect((await lateServer.get(`/blocks/${ahead.hash}`)).body.height).toBe(nextHeight);
    } finally {
      await lateServer.close();
    }
  });

  it('malformed parameters answer 400', async () => {
    await fails('/blocks/not-a-block', 400, '/blocks/{hash_or_number}');
    await fails('/blocks/-1', 400);
    await fails('/blocks/12345678901234567890', 400);
    await fails(`/blocks/${'a'.repeat(63)}`, 400);
    await fails('/txs/xyz', 400, '/txs/{hash}');
    await fails('/txs/xyz/utxos', 400);
    await fails('/epochs/latest-ish', 400);
    await fails('/epochs/-3', 400);
    await fails('/addresses/addr_test1notanaddress', 400, '/addresses/{address}');
    // a mainnet address on a preprod chain
    const mainnetAddress = baseAddress('mainnet', new Uint8Array(28).fill(1), new Uint8Array(28).fill(2));
    const body = await fails(`/addresses/${mainnetAddress}`, 400);
    expect(body.message).toBe('Invalid address for this network or malformed address format.');
    await fails('/pools/pool1xyz', 400, '/pools/{pool_id}');
    await fails('/assets/nothex', 400, '/assets/{asset}');
  });
});
