// The built-in API reference at /docs: Scalar (a maintained OpenAPI viewer, bundled into the web
// build as docs/scalar.js) showing two documents: the data API (Blockfrost's published OpenAPI from
// @blockfrost/openapi, trimmed to what this server serves and pointed at this server's gateway) and
// the dashboard API (/api/openapi.json, generated from the declared routes).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import express, { type Router } from 'express';
import { parse as parseYaml } from 'yaml';
import type { Config } from '../../config';
import { isSandboxSlug, offeredNetworks, sandboxSlugs } from '../../../shared/networks';
import { pathShape } from '../../blockfrost/http';
import { CAIRN_VERSION } from '../../version';
import { APP_ICON_LINK } from '../../../shared/site';

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

/** Blockfrost's OpenAPI, trimmed to what this server answers and with this server's gateway as its servers. */
export function dataApiDocument({ config, sandboxShapes }: DataApiOptions): Doc {
  const doc = loadBlockfrostSpec();
  const gw = config.gateway;
  const cardanoAllSandboxed = sandboxSlugs.every((slug) => !gw.upstreams[slug]);
  const ipfsServed = !!gw.upstreams.ipfs;
  const paths: Record<string, unknown> = {};
  for (const [p, item] of Object.entries(doc.paths)) {
    const isIpfs = p.startsWith('/ipfs/');
    const served = GATEWAY_OWN.has(p) || (isIpfs ? ipfsServed : !cardanoAllSandboxed || sandboxShapes.has(pathShape(p)));
    if (served) paths[p] = item;
  }
  doc.paths = paths;
  const usedTags = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item as Record<string, { tags?: string[] }>)) for (const t of op?.tags ?? []) usedTags.add(t);
  }
  if (doc.tags) doc.tags = doc.tags.filter((t) => usedTags.has(t.name));
  // The networks this server offers (a network turned off by DISABLED_NETWORKS is left out) that this document describes.
  const served = offeredNetworks(config.disabledNetworks).filter((n) => n.family === 'cardano' || (n.family === 'ipfs' && ipfsServed));
  doc.servers = served.map((n) => ({
    url: `${gw.publicUrl}/${n.slug}/api/v0`,
    description: `${n.label}${isSandboxSlug(n.slug) && !gw.upstreams[n.slug] ? ' (sandbox chain: simulated data)' : ''}`,
  }));
  doc.info = {
    version: doc.info.version,
    title: 'Cairn data API (Blockfrost-compatible)',
    license: doc.info.license,
    description:
      'The data API of this Cairn server, compatible with the Blockfrost API: send your project key (from the dashboard) ' +
      'in the `project_id` header. Pick the server of your key\'s network; a key of another network is refused with 403 ' +
      '`Network token mismatch`. Pagination: `count` (1–100), `page`, `order=asc|desc`. Errors are ' +
      '`{status_code, error, message}`.\n\n' +
      (cardanoAllSandboxed
        ? 'Every Cardano network of this server is served by the built-in **sandbox chain** (simulated data); only the endpoints it answers are listed here.'
        : 'Cardano networks with a configured backend answer the whole Blockfrost API; a network served by the sandbox chain answers a subset.') +
      '\n\nThis reference is built from Blockfrost\'s published OpenAPI specification (`@blockfrost/openapi`, MIT licence).',
  };
  return doc;
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
    <div id="app"></div>
    <noscript>The API reference needs JavaScript. The documents themselves: <a href="/docs/data-api.json">data API</a>, <a href="/api/openapi.json">dashboard API</a>.</noscript>
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
  const init = `// Cairn ${CAIRN_VERSION}: the API reference's configuration.
Scalar.createApiReference('#app', ${JSON.stringify({
    sources: [
      { title: 'Data API (Blockfrost-compatible)', slug: 'data-api', url: '/docs/data-api.json' },
      { title: 'Dashboard API', slug: 'dashboard-api', url: '/api/openapi.json' },
    ],
    withDefaultFonts: false,
    // Nothing leaves this server: no hosted developer tools, AI agent or registry look-ups.
    showDeveloperTools: 'never',
    agent: { disabled: true },
    telemetry: false,
    metaData: { title: 'API reference · Cairn' },
    authentication: { preferredSecurityScheme: 'project_id' },
  })});
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
  router.get('/docs/data-api.json', (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('application/json').send(dataApi());
  });
  return router;
}
