import http from 'node:http';
import {
  ContractDecoder,
  EdrContext,
  L1_CHAIN_TYPE,
  l1GenesisState,
  l1HardforkLatest,
  l1HardforkToString,
  l1ProviderFactory,
  MineOrdering,
  type Provider,
} from '@nomicfoundation/edr';
import { MILKOMEDA_MAINNET } from '../../shared/milkomeda';
import { DEV_ACCOUNTS, DEV_ACCOUNT_BALANCE_WEI } from './evm-accounts';
import { keptAlive } from '../http/keep-alive';

export { DEV_ACCOUNTS };

// The embedded Milkomeda stand-in: a real EVM development chain (Hardhat's EDR runtime, the same
// engine as `hardhat node`) with Milkomeda mainnet's chain id (from the network table), served as a
// JSON-RPC endpoint on loopback so the gateway reaches it exactly like a configured
// UPSTREAM_MILKOMEDA_MAINNET_URL. Never in production.

/** Longest JSON-RPC body the dev chain reads (a contract deployment fits easily). */
const MAX_BODY = 5 * 1024 * 1024;

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'));

// EDR allows one context per process ("Should only be called once!").
let context: Promise<EdrContext> | null = null;
function edrContext(): Promise<EdrContext> {
  context ??= (async () => {
    const ctx = new EdrContext();
    await ctx.registerProviderFactory(L1_CHAIN_TYPE, l1ProviderFactory());
    return ctx;
  })();
  return context;
}

type Id = string | number | null;
interface Call {
  jsonrpc?: unknown;
  id?: Id;
  method?: unknown;
  params?: unknown;
}

/** One mined transaction of the chain's history (seq 0 is the genesis, with no transaction). */
export interface EvmChainEntry {
  seq: number;
  blockNumber: number;
  /** The block's timestamp, in seconds. */
  blockTime: number;
  txHash: string | null;
  rawTx: string | null;
}

/** Where the chain keeps its history, so a restart replays it (evm_dev_chain in the database). */
export interface EvmChainStore {
  entries(): Promise<EvmChainEntry[]>;
  append(entry: EvmChainEntry): Promise<void>;
}

export interface DevChain {
  /** Loopback JSON-RPC URL, e.g. http://127.0.0.1:41234 */
  url: string;
  chainId: number;
  accounts: typeof DEV_ACCOUNTS;
  /** Transactions replayed from the store at start (0 on a fresh chain, or without a store). */
  replayed: number;
  /** One JSON-RPC call in, one JSON-RPC response envelope out. */
  call(call: Call): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Starts the chain and its loopback JSON-RPC server. With a store, the chain keeps its state across
 * restarts: EDR cannot load a state, so the genesis keeps its first time and every transaction the
 * chain mined is replayed in order into a block of its recorded timestamp, which gives the same
 * accounts, contracts, blocks and hashes as before.
 */
export async function startDevChain(opts: { host?: string; port?: number; store?: EvmChainStore; now?: () => number } = {}): Promise<DevChain> {
  const ctx = await edrContext();
  const hardfork = l1HardforkLatest();
  const now = opts.now ?? Date.now;
  const history = opts.store ? await opts.store.entries() : [];
  let genesis = history.find((e) => e.seq === 0);
  if (!genesis) {
    genesis = { seq: 0, blockNumber: 0, blockTime: Math.floor(now() / 1000), txHash: null, rawTx: null };
    await opts.store?.append(genesis);
  }
  const provider: Provider = await ctx.createProvider(
    L1_CHAIN_TYPE,
    {
      allowBlocksWithSameTimestamp: false,
      allowUnlimitedContractSize: false,
      bailOnCallFailure: false,
      bailOnTransactionFailure: false,
      chainId: BigInt(MILKOMEDA_MAINNET.chainIdNumber),
      coinbase: bytes('0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e'),
      defaultTransactionGasLimit: 16_000_000n,
      genesisState: [...l1GenesisState(hardfork), ...DEV_ACCOUNTS.map((a) => ({ address: bytes(a.address), balance: DEV_ACCOUNT_BALANCE_WEI }))],
      hardfork: l1HardforkToString(hardfork),
      initialBaseFeePerGas: 1_000_000_000n,
      minGasPrice: 0n,
      // Every transaction is mined at once into its own block, as hardhat node does by default.
      mining: { autoMine: true, memPool: { order: MineOrdering.Priority } },
      network: { genesisBlockGasLimit: 60_000_000n, genesisBlockTime: BigInt(genesis.blockTime) },
      networkId: BigInt(MILKOMEDA_MAINNET.chainIdNumber),
      observability: {},
      ownedAccounts: [],
      precompileOverrides: [],
    },
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} },
    { subscriptionCallback: () => {} },
    new ContractDecoder(),
  );

  const call = async (c: Call): Promise<Record<string, unknown>> => {
    const id = c.id ?? null;
    if (c === null || typeof c !== 'object' || typeof c.method !== 'string') return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } };
    const res = await provider.handleRequest(JSON.stringify({ jsonrpc: '2.0', id, method: c.method, params: c.params ?? [] }));
    const data = (typeof res.data === 'string' ? JSON.parse(res.data) : res.data) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (data.error) {
      // EDR echoes the whole request in error.data; a client only needs code and message (and revert data).
      const { code, message } = data.error;
      const revert = typeof data.error.data === 'string' || (data.error.data && typeof data.error.data === 'object' && 'data' in (data.error.data as object)) ? data.error.data : undefined;
      return { jsonrpc: '2.0', id, error: revert === undefined ? { code, message } : { code, message, data: revert } };
    }
    return { jsonrpc: '2.0', id, result: data.result ?? null };
  };

  const rpc = async (method: string, params: unknown[]) => {
    const out = await call({ jsonrpc: '2.0', id: 1, method, params });
    if (out.error) throw new Error(`${method}: ${(out.error as { message: string }).message}`);
    return out.result;
  };

  // The history, replayed in order: each transaction into its own block at its recorded time.
  let replayed = 0;
  let seq = 0;
  for (const e of history) {
    seq = Math.max(seq, e.seq);
    if (!e.rawTx) continue;
    try {
      await rpc('evm_setNextBlockTimestamp', [`0x${e.blockTime.toString(16)}`]);
      await rpc('eth_sendRawTransaction', [e.rawTx]);
      replayed++;
    } catch {
      // A history another chain wrote into the same database (a test running two): what does not fit is skipped.
    }
  }
  // Blocks mined from now on carry the wall clock's time again, not the last replayed block's.
  const latest = (await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string };
  const behind = Math.floor(now() / 1000) - Number.parseInt(latest.timestamp, 16);
  if (behind > 0) await rpc('evm_increaseTime', [behind]);

  // Every transaction the chain mines is added to the history before its sender hears of it.
  let appending: Promise<void> = Promise.resolve();
  const record = (rawTx: string, txHash: string) => {
    appending = appending.then(async () => {
      const receipt = (await rpc('eth_getTransactionReceipt', [txHash])) as { blockNumber: string } | null;
      if (!receipt || !opts.store) return;
      const block = (await rpc('eth_getBlockByNumber', [receipt.blockNumber, false])) as { timestamp: string };
      await opts.store.append({ seq: ++seq, blockNumber: Number.parseInt(receipt.blockNumber, 16), blockTime: Number.parseInt(block.timestamp, 16), txHash, rawTx });
    }).catch(() => undefined);
    return appending;
  };
  const callAndRecord = async (c: Call): Promise<Record<string, unknown>> => {
    const out = await call(c);
    const raw = Array.isArray(c.params) ? c.params[0] : undefined;
    if (opts.store && c.method === 'eth_sendRawTransaction' && typeof out.result === 'string' && typeof raw === 'string') await record(raw, out.result);
    return out;
  };

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (req.method !== 'POST') return send(405, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'JSON-RPC needs POST' } });
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
      const work = Array.isArray(body) ? Promise.all((body as Call[]).map(callAndRecord)) : callAndRecord(body as Call);
      work.then(
        (out) => send(200, out),
        (err: unknown) => send(500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: (err as Error).message } }),
      );
    });
  });
  keptAlive(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    chainId: MILKOMEDA_MAINNET.chainIdNumber,
    accounts: DEV_ACCOUNTS,
    replayed,
    call: callAndRecord,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
