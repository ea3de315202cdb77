import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The README's layout table, enforced by ESLint (eslint.config.js).
const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

const problems = async (file: string, code: string) => {
  const [result] = await eslint.lintText(code, { filePath: file });
  return result!.messages.filter((m) => m.ruleId?.endsWith('no-restricted-imports') || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
};

describe('layout import rules', () => {
  it.each([
    ['a service importing express', 'server/services/new-thing.ts', "import express from 'express';\nexport const x = express;\n", /Services know nothing of HTTP/],
    ['a route importing knex', 'server/api/new-thing.ts', "import knex from 'knex';\nexport const x = knex;\n", /Routes never reach knex directly/],
    ['a route importing the db module', 'server/api/new-thing.ts', "import { createDb } from '../db/index';\nexport const x = createDb;\n", /Routes never reach knex directly/],
    ['a route querying through its deps', 'server/api/new-thing.ts', "export const rows = (db: (t: string) => unknown) => db('projects');\n", /move the query into a service/],
    ['the renderer importing server code', 'desktop/renderer/src/features/x/page.tsx', "import { loadConfig } from '../../../../../server/config';\nexport const x = loadConfig;\n", /never imports server code/],
    ['config importing a feature module', 'server/config.ts', "import { parseAllowlist } from './webhooks/ssrf';\nexport const x = parseAllowlist;\n", /imports no feature module/],
  ])('refuses %s', async (_what, file, code, message) => {
    expect((await problems(file, code)).join('\n')).toMatch(message);
  });

  it.each([
    ['a route importing the Db type', 'server/api/new-thing.ts', "import type { Db } from '../db/index';\nexport type X = Db;\n"],
    ['a service importing the db module', 'server/services/new-thing.ts', "import { isPostgres } from '../db/index';\nexport const x = isPostgres;\n"],
    ['the renderer importing shared/', 'desktop/renderer/src/features/x/page.tsx', "import { can } from '../../../../../shared/permissions';\nexport const x = can;\n"],
    ['config importing shared/ and the allowlist syntax', 'server/config.ts', "import { isValidAllowlistEntry } from './allowlist';\nimport type { SiteInfo } from '../shared/site';\nexport const x = isValidAllowlistEntry;\nexport type Y = SiteInfo;\n"],
  ])('allows %s', async (_what, file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });

  it('holds for every route file as it is, with no file exempted', async () => {
    const dir = path.join(root, 'server/api');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files).toEqual(expect.arrayContaining(['webhooks.ts', 'workspaces.ts']));
    for (const f of files) {
      const file = `server/api/${f}`;
      expect(await problems(file, fs.readFileSync(path.join(root, file), 'utf8')), file).toEqual([]);
      // And the rule applies to it: a query added to the file is refused.
      expect((await problems(file, "export const q = (db: (t: string) => unknown) => db('addons');\n")).join('\n'), file).toMatch(/move the query into a service/);
    }
  });
});
