import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '**/dist/**', 'data/**', 'tests/.artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
    },
  },
  // The import rules of the README's layout table.
  {
    // Services take plain arguments and a db handle: nothing of HTTP.
    files: ['server/services/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['express', 'express/*', 'express-session', '../http/*', '../api/*'], message: 'Services know nothing of HTTP (README, layout).' }] }],
    },
  },
  {
    // Routes are declarations and one-line handlers: the SQL lives in services.
    files: ['server/api/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['knex', '../db', '../db/*'], allowTypeImports: true, message: 'Routes never reach knex directly: call a service (README, layout).' }] },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name=/^(db|trx|knex)$/]", message: 'Routes never reach knex directly: move the query into a service (README, layout).' },
        { selector: "MemberExpression[object.name=/^(db|trx|knex)$/][property.name=/^(raw|transaction|schema|select|from)$/]", message: 'Routes never reach knex directly: move the query into a service (README, layout).' },
      ],
    },
  },
  {
    // The renderer runs in the browser (and Electron's sandboxed renderer): never the server's code.
    files: ['desktop/renderer/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server', '**/server/**', 'node:*', 'express', 'knex'], message: 'The renderer never imports server code (README, layout).' }] }],
    },
  },
  {
    // The one exception: the JSONPath sandbox runs the webhook matcher itself (isomorphic: shared/jsonpath.ts
    // and pure Cardano encodings), so its verdict can never differ from delivery's. Only that module and its
    // types (this file imports nothing else); the web build fails if the matcher takes a Node-only import.
    files: ['desktop/renderer/src/features/jsonpath-sandbox/evaluate.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Configuration is read first and by everything: it may import shared/ and small helpers, no feature module.
    files: ['server/config.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['./api/*', './services/*', './gateway/*', './webhooks/*', './auth/*', './chain/*', './http/*', './mail/*', './web/*', './db/*', './app', './main'],
              message: 'server/config.ts imports no feature module (README, layout).',
            },
          ],
        },
      ],
    },
  },
);
