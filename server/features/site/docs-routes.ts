// The built-in API reference at /docs: Scalar (a maintained OpenAPI viewer, bundled into the web
// build as docs/scalar.js) showing every service a key can call and the dashboard's: the data API
// (Blockfrost's published OpenAPI from @blockfrost/openapi, trimmed to what this server serves, IPFS
// included, and pointed at this server's gateway), Milkomeda's JSON-RPC (its allowed methods) and
// the dashboard API (/api/openapi.json, generated from the declared routes).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import express, { type Router } from 'express';
import { parse as parseYaml } from 'yaml';
import type { Config } from '../../config';
import { devnetNetwork, evmNetwork, isSandboxSlug, offeredNetworks, sandboxSlugs } from '../../../shared/networks';
import { devnetsApiDocument } from './devnets-doc';
import { ALLOWED_EVM_METHODS, MILKOMEDA_MAINNET } from '../../../shared/milkomeda';
import { pathShape } from '../../blockfrost/http';
import { CAIRN_VERSION } from '../../version';
import { APP_ICON_LINK } from '../../../shared/site';
import { TX_HASH_MESSAGE } from '../../../shared/txs';

const require = createRequire(import.meta.url);

type Doc = Record<string, unknown> & { paths: Record<string, unknown>; tags?: Array<{ name: string }>; info: Record<string, unknown> };

const GATEWAY_OWN = new Set(['/', '/health', '/health/clock']);

export interface DataApiOptions {
  config: Config;
  /** Path shapes of the sandbox chain; used when every Cardano network is served by it. */
  sandboxShapes: Set<string>;
}

let blockfrostSpec: Doc | undefined;
function loadBlockfrostSpec(): Doc {
  blockfrostSpec ??= parseYaml(fs.readFileSync(require.resolve('@blockfrost/openapi/openapi.yaml'), 'utf8')) as Doc;
  return structuredClone(blockfrostSpec);
}

/**
 * OpenAPI 3.0 has no `type: 'null'` (3.1 has): Blockfrost's document writes a nullable JSON value as
 * an anyOf with one, which validators refuse. Such a branch becomes `nullable: true` on its schema.
 */
function nullableInsteadOfNullType(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullableInsteadOfNullType);
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = o[key];
    if (!Array.isArray(branches)) continue;
    const kept = branches.filter((b) => !(b && typeof b === 'object' && (b as { type?: unknown }).type === 'null' && Object.keys(b).length === 1));
    if (kept.length !== branches.length) {
      o[key] = kept;
      o.nullable = true;
    }
  }
  for (const v of Object.values(o)) nullableInsteadOfNullType(v);
}

/** Blockfrost's OpenAPI, trimmed to what this server answers and with this server's gateway as its servers. */
export function dataApiDocument({ config, sandboxShapes }: DataApiOptions): Doc {
  const doc = loadBlockfrostSpec();
  nullableInsteadOfNullType(doc.components);
  const gw = config.gateway;
  const cardanoAllSandboxed = sandboxSlugs.every((slug) => !gw.upstreams[slug]);
  // IPFS is answered by its upstream or by the built-in backend, unless the operator turned it off.
  const ipfsServed = !config.disabledNetworks.includes('ipfs');
  const paths: Record<string, unknown> = {};
  for (const [p, item] of Object.entries(doc.paths)) {
    const isIpfs = p.startsWith('/ipfs/');
    const served = GATEWAY_OWN.has(p) || (isIpfs ? ipfsServed : !cardanoAllSandboxed || sandboxShapes.has(pathShape(p)));
    if (served) paths[p] = item;
  }
  doc.paths = paths;
  // Submissions are tracked on every Cardano network, whether the sandbox chain or an upstream serves it.
  const trackedSlugs = offeredNetworks(config.disabledNetworks).filter((n) => isSandboxSlug(n.slug));
  if (trackedSlugs.length > 0) {
    paths[CAIRN_TX_STATUS_PATH] = txStatusPathItem(gw.publicUrl, trackedSlugs.map((n) => n.slug));
    doc.tags = [...(doc.tags ?? []), { name: 'Cairn extensions' }];
  }
  const usedTags = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item as Record<string, { tags?: string[] }>)) for (const t of op?.tags ?? []) usedTags.add(t);
  }
  if (doc.tags) doc.tags = doc.tags.filter((t) => usedTags.has(t.name));
  // The networks this server offers (a network turned off by DISABLED_NETWORKS is left out) that this document describes.
  const served = offeredNetworks(config.disabledNetworks).filter((n) => n.family === 'cardano' || (n.family === 'ipfs' && ipfsServed));
  // First the URL the project page's examples use: the key's prefix picks the network.
  doc.servers = [
    { url: `${gw.publicUrl}/api/v0`, description: "The network of your project key (the URL the project page shows)" },
    ...served.map((n) => ({
      url: `${gw.publicUrl}/${n.slug}/api/v0`,
      description: `${n.label}${isSandboxSlug(n.slug) && !gw.upstreams[n.slug] ? ' (sandbox chain: simulated data)' : ''}`,
    })),
  ];
  const sandboxed = served.filter((n) => isSandboxSlug(n.slug) && !gw.upstreams[n.slug]);
  doc.info = {
    version: doc.info.version,
    title: 'Cairn data API (Blockfrost-compatible)',
    license: doc.info.license,
    description:
      'The data API of this Cairn server, compatible with the Blockfrost API: send your project key (from the dashboard) ' +
      'in the `project_id` header, or, for clients that take only a URL, as the first segment of the path ' +
      '(`/<key>/api/v0/…`) or as the basic-auth password. The first server, the URL the project page shows, serves the network of your key; ' +
      'a network\'s own server refuses a key of another network with 403 ' +
      '`Network token mismatch`. Pagination: `count` (1–100), `page`, `order=asc|desc`. Errors are ' +
      '`{status_code, error, message}`.\n\n' +
      (cardanoAllSandboxed
        ? 'Every Cardano network of this server is served by the built-in **sandbox chain** (simulated data); only the endpoints it answers are listed here.'
        : 'Cardano networks with a configured backend answer the whole Blockfrost API; a network served by the sandbox chain answers a subset.') +
      (sandboxed.length > 0 && !config.isProduction ? sandboxGuide(config, sandboxed.map((n) => n.slug)) : '') +
      WEBHOOK_GUIDE +
      PUSH_GUIDE +
      '\n\nThis reference is built from Blockfrost\'s published OpenAPI specification (`@blockfrost/openapi`, MIT licence).',
  };
  return doc;
}

const CAIRN_TX_STATUS_PATH = '/cairn/v1/txs/{hash}/status';

/**
 * GET /cairn/v1/txs/{hash}/status: a Cairn extension outside Blockfrost's paths (on the gateway's root,
 * not under /api/v0), so its path item names its own servers.
 */
function txStatusPathItem(gatewayUrl: string, slugs: readonly string[]): Record<string, unknown> {
  const change = { type: 'object', properties: { state: { type: 'string' }, block_height: { type: 'integer', nullable: true }, block_hash: { type: 'string', nullable: true }, resubmitted: { type: 'boolean', description: 'This change was Cairn sending the rolled-back transaction to the mempool again (the project setting)' }, at: { type: 'integer', description: 'Unix seconds' } } };
  const example = {
    tx_hash: '6f1b0e3c6bd4b8e9e0c7d6c1f1f3f08ad4c8a4b7d3e2a1f0e9d8c7b6a5f4e3d2',
    state: 'in_block',
    block_height: 1204,
    block_hash: '9c2f1e0d5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0',
    depth: 4,
    confirmations_needed: 10,
    ttl_slot: 74531200,
    reason: null,
    submitted_at: 1764412800,
    history: [
      { state: 'pending', block_height: null, block_hash: null, resubmitted: false, at: 1764412800 },
      { state: 'in_block', block_height: 1204, block_hash: '9c2f1e0d5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0', resubmitted: false, at: 1764412820 },
    ],
  };
  const error = (status: number, message: string) => ({ 'application/json': { example: { status_code: status, error: status === 400 ? 'Bad Request' : 'Not Found', message } } });
  return {
    servers: [
      { url: gatewayUrl, description: 'The network of your project key' },
      ...slugs.map((slug) => ({ url: `${gatewayUrl}/${slug}`, description: slug })),
    ],
    get: {
      tags: ['Cairn extensions'],
      operationId: 'cairnTxStatus',
      summary: 'Status of a submitted transaction',
      description:
        'A Cairn extension, outside Blockfrost\'s paths: where a transaction your project submitted through `/tx/submit` (on a Cardano network, served by the sandbox chain or by an upstream) stands. ' +
        '`pending` (accepted, waiting in the mempool), `in_block` (`depth` blocks so far, its own included), `confirmed` (reached `confirmations_needed`, ' +
        '10 unless the project sets its own), `rolled_back` (its block was dropped by a rollback; pending again once back in the mempool), `expired` ' +
        '(its validity end `ttl_slot` passed before it landed), `invalid` (refused at submit; `reason` is the ledger\'s). `history` lists every change with its time; a project that turned on resubmission on rollback has a rolled-back transaction sent to the mempool again while it is valid, a `pending` change with `resubmitted: true`. ' +
        'Counted like any request. Another project\'s transaction answers 404. Settled transactions (confirmed, expired, invalid) are kept 7 days.',
      parameters: [{ name: 'hash', in: 'path', required: true, description: 'The hash `/tx/submit` answered (64 hexadecimal characters).', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } }],
      responses: {
        '200': {
          description: 'The transaction\'s state, block, depth and history.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  tx_hash: { type: 'string' },
                  state: { type: 'string', enum: ['pending', 'in_block', 'confirmed', 'rolled_back', 'expired', 'invalid'] },
                  block_height: { type: 'integer', nullable: true },
                  block_hash: { type: 'string', nullable: true },
                  depth: { type: 'integer' },
                  confirmations_needed: { type: 'integer' },
                  ttl_slot: { type: 'integer', nullable: true },
                  reason: { type: 'string', nullable: true },
                  submitted_at: { type: 'integer', description: 'Unix seconds' },
                  history: { type: 'array', items: change },
                },
              },
              example,
            },
          },
        },
        '400': { description: 'Not a transaction hash.', content: error(400, TX_HASH_MESSAGE) },
        '404': { description: 'Your project never submitted it (or it was pruned).', content: error(404, 'The requested component has not been found.') },
      },
    },
  };
}

/** Blocks per sandbox epoch (the sandbox chain's default, which /genesis's epoch_length reflects). */
const SANDBOX_BLOCKS_PER_EPOCH = 30;

/** What a developer on the sandbox chain needs first: test ada, funded wallets, how long an epoch is, slots and time. */
function sandboxGuide(config: Config, slugs: readonly string[]): string {
  const blockSeconds = config.gateway.sandboxBlockIntervalMs / 1000;
  const epochMinutes = (SANDBOX_BLOCKS_PER_EPOCH * blockSeconds) / 60;
  return (
    '\n\n## Building on the sandbox chain\n\n' +
    `${slugs.join(', ')} run on the sandbox chain here: a simulated chain for development, not the real network.\n\n` +
    `- **Faucet**: \`POST /dev/faucet\` on this dashboard server (not the gateway) with \`{"network":"${slugs.find((s) => s === 'cardano-preprod') ?? slugs[0]}","address":"addr_test1…","lovelace":"10000000"}\` ` +
    '(and optionally `"assets":[{"name":"TOKEN","quantity":100}]`, minted under the faucet\'s policy) pays test ada to any address in the next block; ' +
    "'Get test ada' on a sandbox project's page does the same. It answers this machine only (loopback) and does not exist in production.\n" +
    `- **Development wallets**: \`GET /dev/wallets\` lists three funded wallets per sandbox network (24-word mnemonic and address, 11,000 test ada each), ` +
    'also printed in the start-up log. Their keys are the same on every Cairn: test keys only, never for real funds.\n' +
    `- **Epochs**: a block every ${blockSeconds} s and an epoch every ${SANDBOX_BLOCKS_PER_EPOCH} blocks, so an epoch lasts ${epochMinutes} minutes; ` +
    'a delegation is active two epochs after it is made. `/genesis` answers `epoch_length` and `slot_length`, `/epochs/latest` the current epoch\'s `start_time` and `end_time`.\n' +
    '- **Slots and time**: a slot means the same time as on the real network, so an SDK\'s built-in slot configuration for mainnet, preprod or preview ' +
    '(Lucid Evolution, Mesh, Blaze) gives the current slot and a transaction\'s validity interval works unchanged; `/genesis` (`system_start`, `slot_length`) and ' +
    '`/network/eras` (each era\'s start and end in time, slot and epoch, and its `slot_length`) convert between them too, as a client does on a real network.'
  );
}

/** What a webhook delivery looks like and how to check it came from this server. */
const WEBHOOK_GUIDE =
  '\n\n## Webhooks\n\n' +
  'A webhook (Dashboard → Webhooks) POSTs JSON to your endpoint: `{"id", "webhook_id", "created" (Unix seconds), "api_version": 1, ' +
  '"type": "transaction" | "block" | "delegation" | "epoch" | "tx_status", "payload"}`. The payload of a **block** event is the block as `/blocks/{hash}` answers it; ' +
  'of a **transaction** event a list of `{tx, inputs, outputs}` (as `/txs/{hash}` and `/txs/{hash}/utxos`); of a **delegation** event a list of ' +
  '`{tx, delegations}`; of an **epoch** event `{previous_epoch, current_epoch}`; of a **tx_status** event (a transaction your project submitted changed state) ' +
  '`{tx_hash, project, state, previous_state, block_height, block_hash, depth, confirmations_needed, at}`. A retried delivery keeps its `id`.\n\n' +
  'Each request carries `Blockfrost-Signature: t=<unix seconds>,v1=<signature>`: the hex HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook\'s ' +
  'auth token (on the webhook\'s page). Compute it over the body exactly as received, compare, and refuse a `t` too far from now; during a secret ' +
  'rotation\'s overlap the header has one `v1` per live token. blockfrost-js\'s `verifyWebhookSignature` does all of this.';

const PUSH_GUIDE =
  '\n\n## Push API (websocket)\n\n' +
  'Blockfrost\'s websocket-link protocol is served on the gateway at `/ws` (also `/{network}/ws`, and `/<key>/ws` for clients that take only a URL; ' +
  'or send the key in the `project_id` header of the upgrade), for the Cardano networks. @trezor/blockchain-link\'s Blockfrost worker connects unchanged. ' +
  'Send `{"id": "1", "command": "GET_SERVER_INFO", "params": {}}`; the answer is `{"id": "1", "type": "message", "data": {"name": "Cardano", "shortcut": "tada", ' +
  '"testnet": true, "version": "…", "decimals": 6, "blockHeight": 1204, "blockHash": "…"}}`, an error `{"id": "1", "type": "error", "data": {"error": {"message": "…"}}}`. ' +
  'Commands: `GET_SERVER_INFO`, `GET_BLOCK` `{hashOrNumber}`, `GET_TRANSACTION` `{txId}`, `GET_ACCOUNT_INFO` `{descriptor, details: basic|tokens|tokenBalances|txids|txs, page, pageSize}`, ' +
  '`GET_ACCOUNT_UTXO` `{descriptor}`, `GET_BALANCE_HISTORY` `{descriptor, groupBy, from, to}`, `ESTIMATE_FEE` (`{lovelacePerByte}`), `PUSH_TRANSACTION` `{txData}` (hex; answers the hash, ' +
  'tracked like `/tx/submit`), `SUBSCRIBE_BLOCK`, `UNSUBSCRIBE_BLOCK`, `SUBSCRIBE_ADDRESS` `{addresses}`, `UNSUBSCRIBE_ADDRESS`. A descriptor is an account public key (128 hex characters) ' +
  'or an address. Notifications carry the id of the message that subscribed: a block as `/blocks/{hash}` answers it when the block is added, and for each transaction touching a subscribed ' +
  'address `{address, txHash, txData, txUtxos, blockInfo}`; a rollback sends the new tip\'s block and the abandoned blocks\' notifications again. Every message counts as a request ' +
  '(rate limit and daily quota); each plan caps the connections a project holds open; a connection silent for the idle timeout, or whose key stops working, is closed.';

/** Milkomeda's JSON-RPC as an OpenAPI document: one POST carrying a call of an allowed method. */
export function milkomedaApiDocument(config: Config): Doc {
  const methods = [...ALLOWED_EVM_METHODS].sort();
  const rpcError = {
    type: 'object',
    required: ['jsonrpc', 'id', 'error'],
    properties: {
      jsonrpc: { type: 'string', enum: ['2.0'] },
      id: { oneOf: [{ type: 'string' }, { type: 'number' }], nullable: true },
      error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
    },
  };
  const call = {
    type: 'object',
    required: ['jsonrpc', 'method', 'id'],
    properties: {
      jsonrpc: { type: 'string', enum: ['2.0'] },
      id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      method: { type: 'string', enum: methods, description: 'Only these methods reach the chain; any other is answered with JSON-RPC error -32601.' },
      params: { type: 'array', items: {} },
    },
  };
  const doc = {
    openapi: '3.0.3',
    info: {
      title: 'Cairn Milkomeda JSON-RPC',
      version: CAIRN_VERSION,
      description:
        `Ethereum JSON-RPC 2.0 for ${MILKOMEDA_MAINNET.chainName} (chain id ${MILKOMEDA_MAINNET.chainIdNumber}) with a Milkomeda project key: in the ` +
        '`project_id` header, as the first segment of the path (`/<key>/milkomeda-mainnet/api/v0/`, the form wallets and viem use) or as the basic-auth password. ' +
        'Send one call or a batch (an array of at most 100 calls); each call counts as a request. A missing or wrong key is answered with ' +
        'the HTTP status Blockfrost uses and a JSON-RPC error (code -32001) saying why.',
    },
    servers: offeredNetworks(config.disabledNetworks)
      .filter((n) => n.slug === evmNetwork.slug)
      .map((n) => ({ url: `${config.gateway.publicUrl}/${n.slug}/api/v0`, description: n.label })),
    security: [{ project_id: [] }],
    tags: [{ name: 'JSON-RPC', description: `Allowed methods: ${methods.join(', ')}.` }],
    paths: {
      '/': {
        post: {
          tags: ['JSON-RPC'],
          operationId: 'jsonRpc',
          summary: 'Call an allowed JSON-RPC method',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { oneOf: [call, { type: 'array', items: call, minItems: 1, maxItems: 100 }] },
                example: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
              },
            },
          },
          responses: {
            '200': {
              description: 'The call\'s result, or a JSON-RPC error for a method that is not allowed or that failed.',
              content: { 'application/json': { schema: { type: 'object', properties: { jsonrpc: { type: 'string' }, id: {}, result: {}, error: rpcError.properties.error } } } },
            },
            '402': { description: 'The daily request limit is used up.', content: { 'application/json': { schema: rpcError } } },
            '403': { description: 'Missing or invalid project key, or a key of another network.', content: { 'application/json': { schema: rpcError } } },
            '429': { description: 'Rate limit hit.', content: { 'application/json': { schema: rpcError } } },
          },
        },
      },
    },
    components: {
      securitySchemes: { project_id: { type: 'apiKey', in: 'header', name: 'project_id', description: 'Your Milkomeda project key from the dashboard.' } },
    },
  };
  return doc as Doc;
}

const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Cairn</title>
    ${APP_ICON_LINK}
  </head>
  <body>
    <nav aria-label="Cairn" style="display:flex;gap:16px;align-items:center;padding:8px 16px;border-bottom:1px solid #dee2e6;font:14px system-ui,sans-serif">
      <a href="/" style="font-weight:700;color:inherit;text-decoration:none">Cairn</a>
      <a href="/dashboard">Dashboard</a>
      <a href="/status">Status</a>
    </nav>
    <div id="app"></div>
    <noscript>The API reference needs JavaScript. The documents themselves: <a href="/docs/data-api.json">data API</a>, <a href="/docs/milkomeda-api.json">Milkomeda JSON-RPC</a>, <a href="/api/openapi.json">dashboard API</a>.</noscript>
    <script src="/docs/scalar.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/** GET /docs (the reference page), /docs/init.js (its configuration) and /docs/data-api.json. */
/** `sandboxShapes`: the path shapes the sandbox chain answers (from the composition root, which owns the sandbox). */
export function docsRouter(config: Config, sandboxShapes: () => Set<string>, webDir: string): Router {
  const router = express.Router();
  let dataDoc: string | undefined;
  const dataApi = () => {
    dataDoc ??= JSON.stringify(dataApiDocument({ config, sandboxShapes: sandboxShapes() }));
    return dataDoc;
  };
  const gatewayOrigin = new URL(config.gateway.publicUrl).origin;
  const base = {
    withDefaultFonts: false,
    // Nothing leaves this server: no hosted developer tools, AI agent or registry look-ups.
    showDeveloperTools: 'never',
    agent: { disabled: true },
    telemetry: false,
    metaData: { title: 'API reference · Cairn' },
  };
  const sources = [
    { title: 'Data API (Blockfrost-compatible)', slug: 'data-api', url: '/docs/data-api.json', key: 'cardano' },
    { title: 'Milkomeda JSON-RPC', slug: 'milkomeda-api', url: '/docs/milkomeda-api.json', key: 'milkomeda' },
    ...(config.disabledNetworks.includes(devnetNetwork.slug) ? [] : [{ title: 'Devnets', slug: 'devnets-api', url: '/docs/devnets-api.json', key: 'devnet' }]),
    { title: 'Dashboard API', slug: 'dashboard-api', url: '/api/openapi.json', key: null },
  ];
  // A signed-in visitor's 'Try it' starts with one of their own keys for each document (the first
  // Cardano key for the data API, the first Milkomeda key for JSON-RPC); a visitor pastes one.
  // /api/session answers visitors too, so a visitor's page makes no failed request.
  const init = `// Cairn ${CAIRN_VERSION}: the API reference's configuration.
(async () => {
  const base = ${JSON.stringify(base)};
  const sources = ${JSON.stringify(sources)};
  const keys = {};
  try {
    const session = await fetch('/api/session', { credentials: 'same-origin' }).then((r) => r.json());
    if (session && session.data) {
      const workspaces = (await fetch('/api/workspaces', { credentials: 'same-origin' }).then((r) => r.json())).data || [];
      for (const w of workspaces) {
        const projects = (await fetch('/api/workspaces/' + w.id + '/projects', { credentials: 'same-origin' }).then((r) => r.json())).data || [];
        for (const p of projects) {
          const k = p.project_id;
          const family = k.startsWith('ipfs') ? 'ipfs' : k.startsWith('milk') ? 'milkomeda' : k.startsWith('devnet') ? 'devnet' : 'cardano';
          if (!keys[family]) keys[family] = k;
        }
      }
    }
  } catch (e) {
    // No keys: the reference works the same, with an empty key field.
  }
  Scalar.createApiReference('#app', sources.map((s) => ({
    ...base,
    title: s.title,
    slug: s.slug,
    url: s.url,
    authentication: s.key
      ? { preferredSecurityScheme: 'project_id', securitySchemes: { project_id: { value: keys[s.key] || '' } } }
      : {},
  })));
})();
`;
  router.get('/docs', (_req, res) => {
    if (!fs.existsSync(`${webDir}/docs/scalar.js`)) {
      res.status(503).type('text').send('The API reference is not built yet: run `npm run build:web` (npm start does it for you).');
      return;
    }
    // 'Try it' calls the gateway from the browser: allow exactly that origin.
    res.setHeader(
      'Content-Security-Policy',
      `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self' ${gatewayOrigin}; object-src 'none'; base-uri 'self'; frame-ancestors 'self'`,
    );
    res.set('Cache-Control', 'no-cache').type('html').send(html);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('application/javascript').send(init);
  });
  const milkomedaDoc = JSON.stringify(milkomedaApiDocument(config));
  router.get('/docs/milkomeda-api.json', (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('application/json').send(milkomedaDoc);
  });
  const devnetsDoc = JSON.stringify(devnetsApiDocument(config));
  router.get('/docs/devnets-api.json', (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('application/json').send(devnetsDoc);
  });
  router.get('/docs/data-api.json', (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('application/json').send(dataApi());
  });
  return router;
}
