import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { ESLint } from 'eslint';
import { afterEach, describe, expect, it } from 'vitest';

// The layout's import rules: layout.cjs is the one source, dependency-cruiser enforces it
// (.dependency-cruiser.cjs, `npm run lint:layout`), ESLint adds the rules inside a feature folder,
// and the README's "Layout" table is rendered from layout.cjs.
const root = path.resolve(import.meta.dirname, '../../..');
const { layout } = createRequire(import.meta.url)(path.join(root, 'layout.cjs')) as {
  layout: Array<{ place: string; what: string; mayImport: string[]; mayImportTypes?: string[] }>;
};
const depcruise = path.join(root, 'node_modules/.bin/depcruise');

/** The README's table, as layout.cjs says it. */
function layoutTable(): string {
  const rows = layout.map((p) => {
    const may = [...(p.mayImport.length ? p.mayImport : ['nothing outside itself']), ...(p.mayImportTypes ?? []).map((t) => `${t} (types only)`)];
    return `| \`${p.place}\` | ${p.what} | ${may.join(', ')} |`;
  });
  return ['| place | what lives there | may import |', '|---|---|---|', ...rows, '| `tests/` | unit, integration, e2e and bench tests, helpers | everything |'].join('\n');
}

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}
interface Cruise {
  modules: Array<{ source: string; dependencies: Array<{ resolved: string }> }>;
  summary: { violations: Violation[] };
}
function cruise(files: string[]): Cruise {
  let out: string;
  try {
    out = execFileSync(depcruise, [...files, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (err) {
    out = (err as { stdout: string }).stdout;
  }
  return JSON.parse(out) as Cruise;
}

/**
 * The renderer's features as a graph (a feature imports another when any of its files imports that
 * one's index.ts), and its cycles: each as the features on it, in order.
 */
function rendererFeatureCycles(modules: Cruise['modules']): string[][] {
  const featureOf = (file: string) => /^desktop\/renderer\/src\/features\/([^/]+)\//.exec(file)?.[1];
  const edges = new Map<string, Set<string>>();
  for (const m of modules) {
    const from = featureOf(m.source);
    if (!from) continue;
    for (const d of m.dependencies) {
      const to = featureOf(d.resolved);
      if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  const cycles: string[][] = [];
  const walk = (path: string[]) => {
    for (const next of edges.get(path.at(-1)!) ?? []) {
      if (next === path[0]) cycles.push(path);
      // Each cycle once, from its alphabetically first feature.
      else if (next > path[0]! && !path.includes(next)) walk([...path, next]);
    }
  };
  for (const start of [...edges.keys()].sort()) walk([start]);
  return cycles;
}

/** Files the test writes or changes, put back after each test. */
const touched = new Map<string, string | null>();
function write(file: string, code: string): string {
  const full = path.join(root, file);
  if (!touched.has(file)) touched.set(file, fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : null);
  fs.writeFileSync(full, code);
  return file;
}
function restore(): void {
  for (const [file, original] of touched) {
    if (original === null) fs.rmSync(path.join(root, file), { force: true });
    else fs.writeFileSync(path.join(root, file), original);
  }
  touched.clear();
}
afterEach(restore);

// Each dependency-cruiser run is a process that loads TypeScript and resolves the files' imports, so
// the rules are tried in two runs, not one per rule: the repository as it is, and every probe below
// written at once (each in a file of its own), their violations then told apart by the file they come from.
const REFUSED: Array<[what: string, file: string, code: string, rule: string]> = [
    ["a feature reaching past another feature's index.ts", 'server/features/billing/layout-probe.ts', "import { findProjectRef } from '../projects/projects';\nexport const x = findProjectRef;\n", 'feature public face'],
    ['the gateway loading the sandbox at run time', 'server/gateway/layout-probe.ts', "import { createSandboxChain } from '../sandbox/chain/index';\nexport const x = createSandboxChain;\n", 'layout: server/gateway/'],
    ['a feature loading the sandbox at run time', 'server/features/status/layout-probe.ts', "import { createSandboxChain } from '../../sandbox/chain/index';\nexport const x = createSandboxChain;\n", 'layout: server/features/'],
    ['a feature importing a type of the sandbox', 'server/features/status/layout-probe.ts', "import type { SandboxChain } from '../../sandbox/chain/index';\nexport type X = SandboxChain;\n", 'layout: server/features/'],
    ['the gateway importing a type of a feature', 'server/gateway/layout-probe.ts', "import type { IpfsBackend } from '../features/ipfs/index';\nexport type X = IpfsBackend;\n", 'layout: server/gateway/'],
    ['the gateway loading a feature at run time', 'server/gateway/layout-probe.ts', "import { createJsonRpcBackend } from '../features/milkomeda/index';\nexport const x = createJsonRpcBackend;\n", 'layout: server/gateway/'],
    ['the gateway importing a type of the sandbox', 'server/gateway/layout-probe.ts', "import type { SandboxChain } from '../sandbox/chain/index';\nexport type X = SandboxChain;\n", 'layout: server/gateway/'],
    ['the Blockfrost contract importing a type of the sandbox', 'server/blockfrost/layout-probe.ts', "import type { SandboxNetwork } from '../sandbox/chain/index';\nexport type X = SandboxNetwork;\n", 'layout: server/blockfrost/'],
    ['shared/ importing the server', 'shared/layout-probe.ts', "import { loadConfig } from '../server/config';\nexport const x = loadConfig;\n", 'layout: shared/'],
    ['the database layer importing a feature', 'server/db/layout-probe.ts', "import { isOperator } from '../features/accounts/index';\nexport const x = isOperator;\n", 'layout: server/db/'],
    ["a renderer feature reaching past another feature's index.ts", 'desktop/renderer/src/features/pricing/layout-probe.ts', "import { billingQueries } from '../subscription/queries';\nexport const x = billingQueries;\n", 'renderer feature public face'],
    ["the renderer's router loading a page past its feature's index.ts", 'desktop/renderer/src/app/layout-probe.ts', "export const load = () => import('../features/projects/projects-page');\n", 'renderer feature public face'],
    ['a shared component importing a renderer feature', 'desktop/renderer/src/components/layout-probe.ts', "import { siteQueries } from '../features/site/index';\nexport const x = siteQueries;\n", 'layout: desktop/renderer/src/components/'],
    ["the renderer's kernel importing a component", 'desktop/renderer/src/lib/layout-probe.ts', "import { PageLoader } from '../components/page-loader';\nexport const x = PageLoader;\n", 'layout: desktop/renderer/ kernel'],
    ['a renderer feature importing the app', 'desktop/renderer/src/features/projects/layout-probe.ts', "import { queryClient } from '../../app/query-client';\nexport const x = queryClient;\n", 'layout: desktop/renderer/src/features/'],
];
const ALLOWED: [file: string, code: string] = ['server/features/status/layout-probe-allowed.ts', "import type { LocalChain } from '../../blockfrost/chain';\nexport type X = LocalChain;\n"];
/** index.ts re-exports the routes; the routes import a module that imports index.ts. */
const CYCLE_ROUTES = 'server/features/quota/routes.ts';
/** The subscription pages show pricing's plan cards; pricing reading subscription's queries closes a loop. */
const FEATURE_CYCLE: [file: string, code: string] = ['desktop/renderer/src/features/pricing/layout-probe-cycle.ts', "import { StatusBadge } from '../subscription/index';\nexport const x = StatusBadge;\n"];

/** Probe i's own file: the rule's folder, a name no other probe has. */
const probeFile = (file: string, i: number) => file.replace(/layout-probe\.ts$/, `layout-probe-${i}.ts`);

let asItIs: Cruise | undefined;
const repository = (): Cruise => (asItIs ??= cruise(['server', 'shared', 'desktop']));
let probed: Cruise | undefined;
function probes(): Cruise {
  if (probed) return probed;
  try {
    const files = REFUSED.map(([, file, code], i) => write(probeFile(file, i), code));
    write(ALLOWED[0], ALLOWED[1]);
    write(FEATURE_CYCLE[0], FEATURE_CYCLE[1]);
    write('server/features/quota/layout-probe.ts', "import { registerQuotaRoutes } from './index';\nexport const x = registerQuotaRoutes;\n");
    write(CYCLE_ROUTES, "import './layout-probe';\n" + fs.readFileSync(path.join(root, CYCLE_ROUTES), 'utf8'));
    probed = cruise([...files, ALLOWED[0], FEATURE_CYCLE[0], CYCLE_ROUTES]);
  } finally {
    restore();
  }
  return probed;
}
const violationsFrom = (c: Cruise, file: string) => c.summary.violations.filter((v) => v.from === file).map((v) => v.rule.name);

describe('layout import rules (dependency-cruiser)', () => {
  it('hold for the repository as it is', () => {
    expect(repository().summary.violations).toEqual([]);
  }, 60_000);

  it.each(REFUSED.map(([what, file, , rule], i) => [what, probeFile(file, i), rule] as const))('refuses %s', (_what, file, rule) => {
    expect(violationsFrom(probes(), file)).toContain(rule);
  }, 120_000);

  it('refuses an import cycle', () => {
    const cycles = probes().summary.violations.filter((v) => v.rule.name === 'no-circular');
    expect(cycles.map((v) => v.from).filter((f) => f.startsWith('server/features/quota/'))).not.toEqual([]);
  }, 120_000);

  it('allows a feature to import the chain interfaces of the Blockfrost contract', () => {
    expect(violationsFrom(probes(), ALLOWED[0])).toEqual([]);
  }, 120_000);

  it('finds no cycle between renderer features as they are', () => {
    expect(rendererFeatureCycles(repository().modules)).toEqual([]);
  }, 60_000);

  it('refuses a cycle between renderer features, even through their index.ts', () => {
    expect(rendererFeatureCycles(probes().modules)).toContainEqual(['pricing', 'subscription']);
  }, 120_000);

  it("is the README's Layout table", () => {
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toContain(layoutTable());
  });
});

describe('rules inside a feature folder (ESLint)', () => {
  const eslint = new ESLint({ cwd: root });
  const problems = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: file });
    return result!.messages.filter((m) => m.ruleId?.endsWith('no-restricted-imports') || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };

  it.each([
    ['a service importing express', 'server/features/projects/new-thing.ts', "import express from 'express';\nexport const x = express;\n", /Services know nothing of HTTP/],
    ['a route importing knex', 'server/features/projects/new-routes.ts', "import knex from 'knex';\nexport const x = knex;\n", /Routes never reach knex directly/],
    ['a route importing the db module', 'server/features/projects/new-routes.ts', "import { createDb } from '../../db/index';\nexport const x = createDb;\n", /Routes never reach knex directly/],
    ['a route querying through its deps', 'server/features/projects/new-routes.ts', "export const rows = (db: (t: string) => unknown) => db('projects');\n", /move the query into a service/],
    ['the renderer importing server code', 'desktop/renderer/src/features/x/page.tsx', "import { loadConfig } from '../../../../../server/config';\nexport const x = loadConfig;\n", /never imports server code/],
  ])('refuses %s', async (_what, file, code, message) => {
    expect((await problems(file, code)).join('\n')).toMatch(message);
  }, 60_000);

  it.each([
    ['a route importing the Db type', 'server/features/projects/new-routes.ts', "import type { Db } from '../../db/index';\nexport type X = Db;\n"],
    ['a service importing the db module', 'server/features/projects/new-thing.ts', "import { isPostgres } from '../../db/index';\nexport const x = isPostgres;\n"],
    ['the renderer importing shared/', 'desktop/renderer/src/features/x/page.tsx', "import { can } from '../../../../../shared/permissions';\nexport const x = can;\n"],
  ])('allows %s', async (_what, file, code) => {
    expect(await problems(file, code)).toEqual([]);
  }, 60_000);

  it('holds for every route file as it is, with no file exempted', async () => {
    const featuresDir = path.join(root, 'server/features');
    const files = fs.readdirSync(featuresDir).flatMap((f) => fs.readdirSync(path.join(featuresDir, f)).filter((n) => n.endsWith('routes.ts')).map((n) => `server/features/${f}/${n}`));
    expect(files).toEqual(expect.arrayContaining(['server/features/webhooks/routes.ts', 'server/features/workspaces/routes.ts']));
    for (const file of files) {
      expect(await problems(file, fs.readFileSync(path.join(root, file), 'utf8')), file).toEqual([]);
      // And the rule applies to it: a query added to the file is refused.
      expect((await problems(file, "export const q = (db: (t: string) => unknown) => db('addons');\n")).join('\n'), file).toMatch(/move the query into a service/);
    }
  }, 60_000);
});
