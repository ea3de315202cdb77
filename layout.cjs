/**
 * The repository's layout: each place, what lives there and what it may import. The one source of
 * the import rules: .dependency-cruiser.cjs turns it into forbidden rules (`npm run lint`), and
 * tests/unit/lint/layout.test.ts holds the README's "Layout" table against it.
 */
const layout = [
  { place: 'shared/', path: '^shared/', what: 'isomorphic domain facts and rules: messages quoted by the spec, networks, plans, roles and the permission matrix, zod schemas, API types, the chain data model, Cardano encodings (`shared/cardano/`), the webhook matcher', mayImport: [] },
  { place: 'server/ kernel', path: '^server/(config|logger|errors|ticker|version|node-flags|session-secret|allowlist|metrics)\\.ts$|^server/types/', what: '`config.ts` (environment → typed configuration), `logger.ts`, `errors.ts`, `ticker.ts`, `version.ts`, `node-flags.ts`, `session-secret.ts`, `allowlist.ts`, `metrics.ts` (Prometheus registry and its listener)', mayImport: ['shared/'] },
  { place: 'server/db/', path: '^server/db/', what: 'knex set-up, dated migrations, `gateway-changes.ts` (the change feed the key cache polls)', mayImport: ['server/ kernel', 'shared/'] },
  { place: 'server/mail/', path: '^server/mail/', what: 'the mailer (SMTP, or the development mailbox)', mayImport: ['server/ kernel', 'shared/'] },
  { place: 'server/http/', path: '^server/http/', what: 'the `route()` helper (validation + permission per route), sessions, CSRF, error middleware, input guard, the loopback-only `/dev` guard', mayImport: ['server/ kernel', 'server/db/', 'server/mail/', 'shared/'], mayImportTypes: ["a feature's index.ts"] },
  { place: 'server/web/', path: '^server/web/', what: 'serving the built React app', mayImport: ['server/ kernel', 'shared/'] },
  { place: 'server/blockfrost/', path: '^server/blockfrost/', what: 'the Blockfrost contract: error bodies, messages, query and pagination parsing, its request checks in its order (`contract.ts`), the sandbox header, and `chain.ts`, the interfaces production reads a chain through (an upstream or the sandbox in process)', mayImport: ['server/ kernel', 'shared/'] },
  { place: 'server/gateway/', path: '^server/gateway/', what: 'the data plane: key cache, limits (memory, Redis), metering, proxy, upstream pools', mayImport: ['server/ kernel', 'server/db/', 'server/blockfrost/', 'shared/'], mayImportTypes: ["a feature's index.ts"] },
  { place: 'server/features/', path: '^server/features/', what: 'one folder per product feature: its routes (`*routes.ts`), services, store and workers, and an `index.ts`, its only public face', mayImport: ['server/ kernel', 'server/db/', 'server/mail/', 'server/http/', 'server/blockfrost/', 'server/gateway/', 'shared/', "another feature's index.ts"] },
  { place: 'server/sandbox/', path: '^server/sandbox/', what: 'simulators and development aids, never in production: sandbox Cardano chain, EVM development chain, faucet, wallets, development mailbox page, simulated payments', mayImport: ['server/ kernel', 'server/db/', 'server/mail/', 'server/http/', 'server/blockfrost/', 'shared/', "a feature's index.ts"] },
  { place: 'server/ composition root', path: '^server/(main|app|api-router|gateway-app)\\.ts$|^server/cli/', what: '`main.ts` (process entry, roles), `app.ts` (control plane), `api-router.ts` (the dashboard API), `gateway-app.ts` (the gateway role), `cli/`: they alone wire features, backends and workers together', mayImport: ['everything in server/', 'shared/'] },
  { place: 'desktop/main/', path: '^desktop/main/', what: 'Electron main process: pure modules and thin wiring in `start.ts`', mayImport: ['shared/', 'desktop/preload/'] },
  { place: 'desktop/preload/', path: '^desktop/preload/', what: 'the one typed bridge (`window.cairn`) between main and renderer', mayImport: ['shared/'] },
  { place: 'desktop/renderer/', path: '^desktop/renderer/', what: 'the React app (Vite, Mantine, TanStack Query): landing, sign-in, dashboard, one page per file; the same build for the browser and Electron', mayImport: ['shared/', 'desktop/preload/'] },
];

module.exports = { layout };
