// Milkomeda C1 (an EVM chain bridged to Cardano): chain parameters as in the Blockfrost compatibility
// contract, the JSON-RPC methods the gateway lets through, and the wallet_addEthereumChain request.
// Chain ids come from the network table (shared/networks.ts).
import { networkBySlug } from './networks';

export interface EvmChainInfo {
  slug: 'milkomeda-mainnet' | 'milkomeda-testnet';
  chainId: string;
  chainIdNumber: number;
  chainName: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  publicRpcUrl: string;
  blockExplorerUrl: string;
}

/** The chain id of an EVM network, from the network table (hex, as wallets take it, and as a number). */
const chainIdOf = (slug: EvmChainInfo['slug']) => {
  const chainId = networkBySlug(slug)!.chainId!;
  return { slug, chainId, chainIdNumber: parseInt(chainId, 16) };
};

export const MILKOMEDA_MAINNET: EvmChainInfo = {
  ...chainIdOf('milkomeda-mainnet'),
  chainName: 'Milkomeda C1 Mainnet',
  nativeCurrency: { name: 'milkAda', symbol: 'mADA', decimals: 18 },
  publicRpcUrl: 'https://rpc-mainnet-cardano-evm.c1.milkomeda.com',
  blockExplorerUrl: 'https://explorer-mainnet-cardano-evm.c1.milkomeda.com',
};

export const MILKOMEDA_TESTNET: EvmChainInfo = {
  ...chainIdOf('milkomeda-testnet'),
  chainName: 'Milkomeda C1 Testnet',
  nativeCurrency: { name: 'milkTAda', symbol: 'mTAda', decimals: 18 },
  publicRpcUrl: 'https://rpc-devnet-cardano-evm.c1.milkomeda.com',
  blockExplorerUrl: 'https://explorer-devnet-cardano-evm.c1.milkomeda.com',
};

export const evmChainByNetworkId: Readonly<Record<number, EvmChainInfo>> = Object.fromEntries(
  [MILKOMEDA_MAINNET, MILKOMEDA_TESTNET].map((chain) => [networkBySlug(chain.slug)!.value, chain]),
);

/** The contract's read methods plus eth_sendRawTransaction; everything else is refused at the gateway. */
export const ALLOWED_EVM_METHODS: ReadonlySet<string> = new Set([
  'net_version',
  'eth_chainId',
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_getBalance',
  'eth_gasPrice',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_protocolVersion',
  'eth_sendRawTransaction',
]);

/** JSON-RPC error codes the gateway answers with itself. */
export const JSON_RPC_ERRORS = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  internal: -32603,
  /** Used by public Ethereum RPC providers for rate and quota limits. */
  limitExceeded: -32005,
} as const;

export const methodNotAllowedMessage = (method: string) => `The method ${method} does not exist/is not available on this gateway.`;

/**
 * The RPC URL of a project: the key is the path's first segment (`/<key>/milkomeda-mainnet/api/v0/`),
 * so wallets and libraries that take only a URL work (fetch-based ones, viem among them, refuse a URL
 * with basic-auth credentials in it).
 */
export function rpcUrlWithKey(gatewayUrl: string, key: string, chain: EvmChainInfo = MILKOMEDA_MAINNET): string {
  return new URL(`${gatewayUrl.replace(/\/+$/, '')}/${encodeURIComponent(key)}/${chain.slug}/api/v0/`).toString();
}

/** The parameters of wallet_addEthereumChain (EIP-3085) for a project. */
export function addEthereumChainParameters(gatewayUrl: string, key: string, chain: EvmChainInfo = MILKOMEDA_MAINNET) {
  return {
    // Lower case, as eth_chainId answers: wallets compare the two.
    chainId: `0x${chain.chainIdNumber.toString(16)}`,
    chainName: chain.chainName,
    nativeCurrency: { ...chain.nativeCurrency },
    rpcUrls: [rpcUrlWithKey(gatewayUrl, key, chain)],
    blockExplorerUrls: [chain.blockExplorerUrl],
  };
}

/** GET /api/milkomeda/dev-chain: the embedded EVM development chain and its funded accounts (never in production). */
export interface DevChainInfo {
  chainId: number;
  /** Each account's starting balance in wei, as a decimal string. */
  balanceWei: string;
  accounts: Array<{ address: string; privateKey: string }>;
}
