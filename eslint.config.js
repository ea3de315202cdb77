import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '**/dist/**', 'data/**', 'tests/.artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // CommonJS configuration files (dependency-cruiser reads .cjs).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['desktop/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Tests read loosely-typed JSON bodies all the time; `any` there keeps assertions short.
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // shared/ is isomorphic: it runs in the browser and in Node, so it may not reach for either.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', '../server/*', '../desktop/*', 'express', 'knex', 'react', 'react-dom'] },
      ],
      // Nor for Node's globals: a schema of shared/ checking an address in the dashboard threw on Buffer.
      'no-restricted-globals': ['error', { name: 'Buffer', message: 'shared/ runs in the browser too: use Uint8Array and shared/cardano/bech32.ts (toHex, fromHex).' }, { name: 'process', message: 'shared/ runs in the browser too.' }],
    },
  },
  // Inside a feature folder (which folder may import which is layout.cjs's, checked by dependency-cruiser).
  {
    // Services take plain arguments and a db handle: nothing of HTTP. Only route files (*routes.ts) and
    // the passport strategies speak HTTP.
    files: ['server/features/**/*.ts'],
    ignores: ['server/features/**/*routes.ts', 'server/features/accounts/strategies.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['express', 'express/*', 'express-session', '**/http/*'], message: 'Services know nothing of HTTP: put the route in a *routes.ts file (README, Layout).' }] }],
    },
  },
  {
    // Routes are declarations and one-line handlers: the SQL lives in services.
    files: ['server/features/**/*routes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['knex', '**/db', '**/db/*'], allowTypeImports: true, message: 'Routes never reach knex directly: call a service (README, Layout).' }] },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name=/^(db|trx|knex)$/]", message: 'Routes never reach knex directly: move the query into a service (README, Layout).' },
        { selector: "MemberExpression[object.name=/^(db|trx|knex)$/][property.name=/^(raw|transaction|schema|select|from)$/]", message: 'Routes never reach knex directly: move the query into a service (README, Layout).' },
      ],
    },
  },
  {
    // The renderer runs in the browser (and Electron's sandboxed renderer): never the server's code.
    files: ['desktop/renderer/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server', '**/server/**', 'node:*', 'express', 'knex'], message: 'The renderer never imports server code (README, Layout).' }] }],
    },
  },
);
