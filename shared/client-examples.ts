// The project page's examples: each client a customer is likely to start with, in the exact form it
// needs to reach this gateway with the project's key. Clients that can set a header send
// `project_id`; clients that take only a URL (Mesh's BlockfrostProvider with a custom URL, viem in a
// wallet-like set-up) carry the key as the URL's first path segment. tests/integration/client-examples.test.ts
// runs every snippet as printed against a running Cairn.
import { devnetNetwork } from './networks';
import { MILKOMEDA_MAINNET, rpcUrlWithKey, type EvmChainInfo } from './milkomeda';

export type ExampleFlavour = 'cardano' | 'ipfs' | 'milkomeda';

export interface ClientExample {
  /** Tab value and test id. */
  value: 'curl' | 'blockfrost-js' | 'mesh' | 'lucid' | 'blaze' | 'ipfs-sdk' | 'ethers' | 'viem';
  tab: string;
  /** What the snippet does and how it passes the key, shown above it. */
  description: string;
  /** A shell command, or an ES module (Node 20, top-level await) that prints its answer. */
  language: 'shell' | 'javascript';
  code: string;
}

/** The network's flavour from a key's prefix. */
export function exampleFlavour(key: string): ExampleFlavour {
  if (key.startsWith('ipfs')) return 'ipfs';
  if (key.startsWith('milk')) return 'milkomeda';
  return 'cardano';
}

const trim = (url: string) => url.replace(/\/+$/, '');

/** The Lucid network name of a Cardano key ('Mainnet', 'Preprod', 'Preview'). */
const lucidNetwork = (key: string) => (key.startsWith('preprod') ? 'Preprod' : key.startsWith('preview') ? 'Preview' : 'Mainnet');

/** Blaze's network name of a Cardano key. */
const blazeNetwork = (key: string) => `cardano-${lucidNetwork(key).toLowerCase()}`;

function cardanoExamples(gateway: string, key: string): ClientExample[] {
  const base = `${gateway}/api/v0`;
  // A devnet key's chain has its own slots and no network name in the SDKs' tables (Blaze has none to give it).
  const devnet = key.startsWith(devnetNetwork.prefix);
  const examples: ClientExample[] = [
    {
      value: 'curl',
      tab: 'cURL',
      description: 'Fetch the latest block; the key goes in the project_id header.',
      language: 'shell',
      code: `curl -H "project_id: ${key}" \\\n  ${base}/blocks/latest`,
    },
    {
      value: 'blockfrost-js',
      tab: 'blockfrost-js',
      description: 'The Blockfrost JavaScript SDK pointed at this gateway with customBackend; it sends the key in the header.',
      language: 'javascript',
      code: [
        '// npm install @blockfrost/blockfrost-js',
        "import { BlockFrostAPI } from '@blockfrost/blockfrost-js';",
        '',
        'const api = new BlockFrostAPI({',
        `  projectId: '${key}',`,
        `  customBackend: '${base}',`,
        '});',
        '',
        'const latestBlock = await api.blocksLatest();',
        'console.log(latestBlock);',
      ].join('\n'),
    },
    {
      value: 'mesh',
      tab: 'Mesh',
      description:
        "Mesh's BlockfrostProvider given a custom URL sends no header: the key is the URL's first path segment. As the builder's evaluator it measures every transaction's scripts.",
      language: 'javascript',
      code: [
        '// npm install @meshsdk/core',
        "import { BlockfrostProvider, MeshTxBuilder } from '@meshsdk/core';",
        '',
        `const provider = new BlockfrostProvider('${gateway}/${key}/api/v0');`,
        'const txBuilder = new MeshTxBuilder({ fetcher: provider, submitter: provider, evaluator: provider });',
        '',
        'const latestBlock = await provider.fetchLatestBlock();',
        'console.log(latestBlock);',
      ].join('\n'),
    },
    devnet
      ? {
          value: 'lucid',
          tab: 'Lucid Evolution',
          description: "Lucid Evolution's Blockfrost provider takes this gateway's URL and the key. A devnet's slots are its own: its /genesis gives Lucid's Custom slot configuration.",
          language: 'javascript',
          code: [
            '// npm install @lucid-evolution/lucid',
            "import { Blockfrost, Lucid, SLOT_CONFIG_NETWORK } from '@lucid-evolution/lucid';",
            '',
            `const genesis = await fetch('${base}/genesis', { headers: { project_id: '${key}' } }).then((r) => r.json());`,
            'SLOT_CONFIG_NETWORK.Custom = { zeroTime: genesis.system_start * 1000, zeroSlot: 0, slotLength: genesis.slot_length * 1000 };',
            `const lucid = await Lucid(new Blockfrost('${base}', '${key}'), 'Custom');`,
            '',
            'const parameters = await lucid.config().provider.getProtocolParameters();',
            "console.log({ slot: lucid.currentSlot(), minFeeA: parameters.minFeeA });",
          ].join('\n'),
        }
      : {
          value: 'lucid',
          tab: 'Lucid Evolution',
          description: "Lucid Evolution's Blockfrost provider takes this gateway's URL and the key, which it sends in the header. Its built-in slot configuration is this network's.",
          language: 'javascript',
          code: [
            '// npm install @lucid-evolution/lucid',
            "import { Blockfrost, Lucid } from '@lucid-evolution/lucid';",
            '',
            `const lucid = await Lucid(new Blockfrost('${base}', '${key}'), '${lucidNetwork(key)}');`,
            '',
            'const parameters = await lucid.config().provider.getProtocolParameters();',
            "console.log({ slot: lucid.currentSlot(), minFeeA: parameters.minFeeA });",
          ].join('\n'),
        },
    {
      value: 'blaze',
      tab: 'Blaze',
      description: "Blaze's Blockfrost provider with its URL set to this gateway; it sends the key in the header.",
      language: 'javascript',
      code: [
        '// npm install @blaze-cardano/sdk',
        "import { Blockfrost } from '@blaze-cardano/sdk';",
        '',
        `const provider = new Blockfrost({ network: '${blazeNetwork(key)}', projectId: '${key}' });`,
        `provider.url = '${base}/';`,
        '',
        'const parameters = await provider.getParameters();',
        'console.log({ minFeeCoefficient: parameters.minFeeCoefficient });',
      ].join('\n'),
    },
  ];
  return devnet ? examples.filter((e) => e.value !== 'blaze') : examples;
}

function ipfsExamples(gateway: string, key: string): ClientExample[] {
  const base = `${gateway}/api/v0`;
  return [
    {
      value: 'curl',
      tab: 'cURL',
      description: 'List the objects pinned by this project; the key goes in the project_id header.',
      language: 'shell',
      code: `curl -H "project_id: ${key}" \\\n  ${base}/ipfs/pin/list`,
    },
    {
      value: 'ipfs-sdk',
      tab: 'blockfrost-js IPFS',
      description: "The Blockfrost JavaScript SDK's IPFS client pointed at this gateway: add a file, pin it, list the pins.",
      language: 'javascript',
      code: [
        '// npm install @blockfrost/blockfrost-js',
        "import { writeFile } from 'node:fs/promises';",
        "import { BlockFrostIPFS } from '@blockfrost/blockfrost-js';",
        '',
        'const ipfs = new BlockFrostIPFS({',
        `  projectId: '${key}',`,
        `  customBackend: '${base}',`,
        '});',
        '',
        "await writeFile('hello.txt', 'Hello, IPFS!');",
        "const added = await ipfs.add('hello.txt');",
        'await ipfs.pin(added.ipfs_hash);',
        'console.log(await ipfs.list());',
      ].join('\n'),
    },
  ];
}

/** curl, ethers and viem calling this gateway's Milkomeda RPC with the project's key. */
export function evmExamples(gatewayUrl: string, key: string, chain: EvmChainInfo = MILKOMEDA_MAINNET): ClientExample[] {
  const rpc = `${trim(gatewayUrl)}/${chain.slug}/api/v0/`;
  const rpcWithKey = rpcUrlWithKey(gatewayUrl, key, chain);
  return [
    {
      value: 'curl',
      tab: 'cURL',
      description: 'Ask for the latest block number (JSON-RPC 2.0); the key goes in the project_id header.',
      language: 'shell',
      code:
        `curl -X POST -H "project_id: ${key}" -H "Content-Type: application/json" \\\n` +
        `  -d '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' \\\n` +
        `  ${rpc}`,
    },
    {
      value: 'ethers',
      tab: 'ethers',
      description: 'Read the chain with ethers v6; the key goes in the project_id header.',
      language: 'javascript',
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
      description: "The same with viem, given only the RPC URL: the key is the URL's first path segment, as wallets use it.",
      language: 'javascript',
      code: [
        '// npm install viem',
        "import { createPublicClient, defineChain, http } from 'viem';",
        '',
        'const milkomeda = defineChain({',
        `  id: ${chain.chainIdNumber},`,
        `  name: '${chain.chainName}',`,
        `  nativeCurrency: { name: '${chain.nativeCurrency.name}', symbol: '${chain.nativeCurrency.symbol}', decimals: ${chain.nativeCurrency.decimals} },`,
        `  rpcUrls: { default: { http: ['${rpcWithKey}'] } },`,
        '});',
        'const client = createPublicClient({ chain: milkomeda, transport: http() });',
        '',
        'console.log(await client.getBlockNumber());',
      ].join('\n'),
    },
  ];
}

/** The examples of a project: its key's network picks the clients; `gatewayUrl` is this deployment's gateway. */
export function clientExamples(gatewayUrl: string, key: string): ClientExample[] {
  const gateway = trim(gatewayUrl);
  switch (exampleFlavour(key)) {
    case 'ipfs':
      return ipfsExamples(gateway, key);
    case 'milkomeda':
      return evmExamples(gateway, key);
    default:
      return cardanoExamples(gateway, key);
  }
}
