// The endpoints the desktop app's API console offers, per kind of network: the gateway's Blockfrost paths,
// IPFS calls and Milkomeda JSON-RPC. `{name}` parts are filled in by the user before sending.
import { findNetwork } from './networks';

interface ConsoleEndpoint {
  method: 'GET' | 'POST';
  path: string;
  label: string;
  /** A starting body for POST calls. */
  body?: string;
}

const cardano: ConsoleEndpoint[] = [
  { method: 'GET', path: '/', label: 'API root' },
  { method: 'GET', path: '/health', label: 'Health' },
  { method: 'GET', path: '/health/clock', label: 'Server clock' },
  { method: 'GET', path: '/blocks/latest', label: 'Latest block' },
  { method: 'GET', path: '/blocks/{hash_or_number}', label: 'A block' },
  { method: 'GET', path: '/blocks/{hash_or_number}/txs', label: 'Transactions of a block' },
  { method: 'GET', path: '/epochs/latest', label: 'Latest epoch' },
  { method: 'GET', path: '/epochs/latest/parameters', label: 'Protocol parameters' },
  { method: 'GET', path: '/txs/{hash}', label: 'A transaction' },
  { method: 'GET', path: '/txs/{hash}/utxos', label: 'Inputs and outputs of a transaction' },
  { method: 'GET', path: '/addresses/{address}', label: 'An address' },
  { method: 'GET', path: '/addresses/{address}/utxos', label: 'UTXOs of an address' },
  { method: 'GET', path: '/accounts/{stake_address}', label: 'A stake account' },
  { method: 'GET', path: '/assets/{asset}', label: 'An asset' },
  { method: 'GET', path: '/pools?count=10', label: 'Stake pools' },
  { method: 'GET', path: '/network', label: 'Network supply and stake' },
];

const ipfs: ConsoleEndpoint[] = [
  { method: 'GET', path: '/ipfs/pin/list', label: 'Pinned objects' },
  { method: 'GET', path: '/ipfs/pin/list/{cid}', label: 'A pinned object' },
  { method: 'POST', path: '/ipfs/pin/add/{cid}', label: 'Pin an object' },
  { method: 'POST', path: '/ipfs/pin/remove/{cid}', label: 'Unpin an object' },
  { method: 'GET', path: '/ipfs/gateway/{cid}', label: 'Object bytes' },
];

const rpc = (method: string, params: unknown[] = []): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }, null, 2);

const milkomeda: ConsoleEndpoint[] = [
  { method: 'POST', path: '/', label: 'eth_blockNumber', body: rpc('eth_blockNumber') },
  { method: 'POST', path: '/', label: 'eth_chainId', body: rpc('eth_chainId') },
  { method: 'POST', path: '/', label: 'eth_gasPrice', body: rpc('eth_gasPrice') },
  { method: 'POST', path: '/', label: 'eth_getBalance', body: rpc('eth_getBalance', ['0x0000000000000000000000000000000000000000', 'latest']) },
  { method: 'POST', path: '/', label: 'eth_getBlockByNumber', body: rpc('eth_getBlockByNumber', ['latest', false]) },
];

/** The console's endpoints for a project on this network (by the network's value). */
export function consoleEndpointsFor(networkId: number): ConsoleEndpoint[] {
  const prefix = findNetwork(networkId)?.prefix ?? '';
  if (prefix === 'ipfs') return ipfs;
  if (prefix.startsWith('milk')) return milkomeda;
  return cardano;
}

/** The `{name}` placeholders of a path, in order. */
export const pathPlaceholders = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
