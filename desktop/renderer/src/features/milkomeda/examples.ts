import { MILKOMEDA_MAINNET, rpcUrlWithKey, type EvmChainInfo } from '../../../../../shared/milkomeda';

interface EvmExample {
  value: 'curl' | 'ethers' | 'viem';
  tab: string;
  description: string;
  code: string;
}

/** curl, ethers and viem snippets calling this gateway's Milkomeda RPC with the project's key. */
export function evmExamples(gatewayUrl: string, key: string, chain: EvmChainInfo = MILKOMEDA_MAINNET): EvmExample[] {
  const rpc = `${gatewayUrl.replace(/\/+$/, '')}/${chain.slug}/api/v0/`;
  return [
    {
      value: 'curl',
      tab: 'cURL',
      description: 'Ask for the latest block number (JSON-RPC 2.0).',
      code:
        `curl -X POST -H "project_id: ${key}" -H "Content-Type: application/json" \\\n` +
        `  -d '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' \\\n` +
        `  ${rpc}`,
    },
    {
      value: 'ethers',
      tab: 'ethers',
      description: 'Read the chain with ethers v6; the key goes in the project_id header.',
      code: [
        '// npm install ethers',
        "import { FetchRequest, JsonRpcProvider } from 'ethers';",
        '',
        `const request = new FetchRequest('${rpc}');`,
        `request.setHeader('project_id', '${key}');`,
        `const provider = new JsonRpcProvider(request, ${chain.chainIdNumber}, { staticNetwork: true });`,
        '',
        'console.log(await provider.getBlockNumber());',
      ].join('\n'),
    },
    {
      value: 'viem',
      tab: 'viem',
      description: 'The same with viem; wallets that cannot set headers use the URL with the key as password.',
      code: [
        '// npm install viem',
        "import { createPublicClient, defineChain, http } from 'viem';",
        '',
        'const milkomeda = defineChain({',
        `  id: ${chain.chainIdNumber},`,
        `  name: '${chain.chainName}',`,
        `  nativeCurrency: { name: '${chain.nativeCurrency.name}', symbol: '${chain.nativeCurrency.symbol}', decimals: ${chain.nativeCurrency.decimals} },`,
        `  rpcUrls: { default: { http: ['${rpc}'] } },`,
        '});',
        'const client = createPublicClient({',
        '  chain: milkomeda,',
        `  transport: http('${rpc}', { fetchOptions: { headers: { project_id: '${key}' } } }),`,
        '});',
        '',
        'console.log(await client.getBlockNumber());',
      ].join('\n'),
    },
  ];
}

export { rpcUrlWithKey };
