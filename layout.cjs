/**
 * The repository's layout: each place, what lives there and what it may import. The one source of
 * the import rules: .dependency-cruiser.cjs turns it into forbidden rules (`npm run lint`), and
 * tests/unit/lint/layout.test.ts holds the README's "Layout" table against it.
 */
const layout = [
  { place: 'shared/', path: '^shared/', what: 'isomorphic rules and types: plans, networks, permissions, messages, the webhook matcher, Cardano encodings', mayImport: [] },
  { place: 'server/ kernel', path: '^server/(config|logger|errors|ticker|version|node-flags|session-secret|allowlist)\\.ts$|^server/types/', what: 'configuration, logger, domain errors, ticker, version', mayImport: ['shared/'] },
  { place: 'server/db/', path: '^server/db/', what: 'knex, migrations, the change feed the gateway polls', mayImport: ['server/ kernel', 'shared/'] },
  { place: 'server/mail/', path: '^server/mail/', what: 'the mailer (SMTP, or the log in development)', mayImport: ['server/ kernel', 'shared/'] },
  { place: 'server/http/', path: '^server/http/', what: 'route(), sessions, CSRF, error middleware, the /dev guard', mayImport: ['server/ kernel', 'server/db/', 'server/mail/', 'shared/'], mayImportTypes: ["a feature's index.ts"] },
  { place: 'server/web/', path: '^server/web/', what: 'serving the built React app', mayImport: ['server/ kernel', 'shared/'] },
  { place: 'server/blockfrost/', path: '^server/blockfrost/', what: "the Blockfrost contract: error bodies, messages, paging", mayImport: ['server/ kernel', 'shared/'] },
  { place: 'server/gateway/', path: '^server/gateway/', what: 'the data plane: key cache, limits, metering, forwarding to backends', mayImport: ['server/ kernel', 'server/db/', 'server/blockfrost/', 'shared/'], mayImportTypes: ["a feature's index.ts", 'server/sandbox/'] },
  { place: 'server/features/', path: '^server/features/', what: 'one folder per product feature (routes, service, store, worker); index.ts is its only public face', mayImport: ['server/ kernel', 'server/db/', 'server/mail/', 'server/http/', 'server/blockfrost/', 'server/gateway/', 'shared/', "another feature's index.ts"], mayImportTypes: ['server/sandbox/'] },
  { place: 'server/sandbox/', path: '^server/sandbox/', what: 'simulators and development aids: sandbox chain, EVM development chain, faucet, mailbox page', mayImport: ['server/ kernel', 'server/db/', 'server/mail/', 'server/http/', 'server/blockfrost/', 'shared/', "a feature's index.ts"] },
  { place: 'server/ composition root', path: '^server/(main|app|api-router|gateway-app)\\.ts$|^server/cli/', what: 'main.ts, app.ts, api-router.ts, gateway-app.ts, cli/: wire features, backends and workers', mayImport: ['everything in server/', 'shared/'] },
  { place: 'desktop/main/', path: '^desktop/main/', what: 'Electron main process', mayImport: ['shared/', 'desktop/preload/'] },
  { place: 'desktop/preload/', path: '^desktop/preload/', what: 'the typed bridge between main and renderer', mayImport: ['shared/'] },
  { place: 'desktop/renderer/', path: '^desktop/renderer/', what: 'the React app (landing, sign-in, dashboard), one page per file', mayImport: ['shared/', 'desktop/preload/'] },
];

module.exports = { layout };
