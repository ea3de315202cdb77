// Compiles the server to JavaScript for production (`npm run build:server`, part of `npm run build`): esbuild
// bundles each process entry with its code from server/ and shared/ into dist/server, ES modules with
// source maps. Packages stay imports of node_modules, so `npm ci --omit=dev` beside the build is the whole
// install, and no TypeScript tooling (tsx, typescript, esbuild) runs in production.
import { build, type Metafile } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Every file node starts from: the server (main.js), the metering worker thread (metering.ts starts
 * metering-worker.js beside it), the sandbox chains' sweep worker (sandbox-sweep-worker.js, started by
 * server/sandbox/chain/sweep.ts), the devnets' sums worker (sandbox-devnet-sums-worker.js, started by
 * server/sandbox/chain/devnet-sums.ts) and the operator CLI. All land in dist/server itself, as do the chunks
 * they share (the EVM development chain is one, imported only where it runs), so each module's
 * import.meta.url is one folder below Cairn's root.
 */
export const serverEntries = [
  { out: 'main', in: 'server/main.ts' },
  { out: 'metering-worker', in: 'server/gateway/metering-worker.ts' },
  { out: 'sandbox-sweep-worker', in: 'server/sandbox/chain/sweep-worker.ts' },
  { out: 'sandbox-devnet-sums-worker', in: 'server/sandbox/chain/devnet-sums-worker.ts' },
  { out: 'operator', in: 'server/cli/operator.ts' },
] as const;

export const SERVER_OUT_DIR = 'dist/server';

interface BuildServerOptions {
  /** The folder holding dist/server; the repository root unless a test points elsewhere. */
  outRoot?: string;
}

/** The packages the build imports at run time (everything esbuild left external). */
export function runtimePackages(metafile: Metafile): string[] {
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external || imported.path.startsWith('node:')) continue;
      const parts = imported.path.split('/');
      names.add(imported.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  }
  return [...names].sort();
}

export async function buildServer(options: BuildServerOptions = {}): Promise<{ outDir: string; files: string[]; packages: string[] }> {
  const outDir = path.join(options.outRoot ?? repoRoot, SERVER_OUT_DIR);
  fs.rmSync(outDir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: serverEntries.map((e) => ({ in: path.join(repoRoot, e.in), out: e.out })),
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  const files = Object.keys(result.metafile.outputs).map((f) => path.resolve(repoRoot, f));
  return { outDir, files, packages: runtimePackages(result.metafile) };
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;

if (invokedDirectly) {
  try {
    const { outDir, files } = await buildServer();
    const js = files.filter((f) => f.endsWith('.js'));
    console.log(`built ${js.length} files into ${path.relative(process.cwd(), outDir) || '.'} (${serverEntries.map((e) => `${e.out}.js`).join(', ')} and shared chunks, with source maps)`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
