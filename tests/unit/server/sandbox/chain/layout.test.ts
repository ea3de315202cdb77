import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../../../server/sandbox/chain/resources';
import type { SandboxChain } from '../../../../../server/sandbox/chain/index';

// server/sandbox/README.md's table "Where each path is served" says which resource module serves
// each path; this reads the table and checks it against the routes each module registers.
const root = path.resolve(import.meta.dirname, '../../../../..');
const readme = fs.readFileSync(path.join(root, 'server/sandbox/README.md'), 'utf8');

interface Row {
  /** `/x/*` (every path under /x, /x included) or an exact path. */
  patterns: string[];
  module: string;
}

function table(text: string): Row[] {
  const at = text.indexOf('| path (under /api/v0) | module');
  expect(at).toBeGreaterThan(-1);
  const lines = text.slice(at).split('\n');
  const rows: Row[] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith('|')) break;
    const [paths, module] = line.split('|').slice(1, 3).map((c) => c.trim());
    rows.push({
      patterns: [...paths!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/^(GET|POST) /, '')),
      module: /^`([a-z-]+)\/`/.exec(module!)?.[1] ?? module!,
    });
  }
  return rows;
}

const covers = (pattern: string, route: string): boolean =>
  pattern.endsWith('/*') ? route === pattern.slice(0, -2) || route.startsWith(pattern.slice(0, -1)) : route === pattern;

/** The paths (Express patterns) a resource module registers. */
function routesOf(mount: (typeof RESOURCES)[number]['mount']): string[] {
  const router = Router();
  mount(router, { network: 'preprod' } as unknown as SandboxChain, { version: '0' });
  return (router.stack as Array<{ route?: { path: string } }>).flatMap((l) => (l.route ? [l.route.path] : []));
}

describe("the sandbox's resource modules", () => {
  const rows = table(readme);

  it('reads a table row per module', () => {
    expect(rows.map((r) => r.module).sort()).toEqual(RESOURCES.map((r) => r.name).sort());
  });

  it('serves every path from the module the table names for it, and only from it', () => {
    for (const resource of RESOURCES) {
      const routes = routesOf(resource.mount);
      expect(routes.length, resource.name).toBeGreaterThan(0);
      for (const route of routes) {
        const owners = rows.filter((r) => r.patterns.some((p) => covers(p, route)));
        expect(owners.map((o) => o.module), route).toEqual([resource.name]);
      }
    }
  });

  it('registers something under every path the table names', () => {
    for (const row of rows) {
      const routes = routesOf(RESOURCES.find((r) => r.name === row.module)!.mount);
      for (const pattern of row.patterns) expect(routes.some((r) => covers(pattern, r)), `${pattern} in ${row.module}`).toBe(true);
    }
  });

  it('keeps each module in its own folder, with its routes', () => {
    const dir = path.join(root, 'server/sandbox/chain/resources');
    const folders = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.sort()).toEqual(RESOURCES.map((r) => r.name).sort());
    for (const f of folders) expect(fs.existsSync(path.join(dir, f, 'routes.ts')), f).toBe(true);
  });

  it("gives each module its own query interface, never the whole chain's (api.ts composes SandboxChain from them)", () => {
    const dir = path.join(root, 'server/sandbox/chain/resources');
    // index.ts, which mounts them all, hands each the whole chain; the modules' own files never name it.
    const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && f.includes(path.sep));
    expect(files.length).toBeGreaterThan(RESOURCES.length);
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      expect(text, f).not.toMatch(/from '(\.\.\/)+api'/);
      expect(text, f).not.toMatch(/\bSandboxChain\b/);
    }
  });
});
