// Bundles the Electron main process and the preload into CommonJS files (package.json "main" points at the first).
// Run with `npm run build:desktop` (`-- --out-root <dir>` writes the dist folders under <dir> instead).
import { build, type Metafile } from 'esbuild';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const desktopBundles = [
  // The keychain binding loads a prebuilt native .node file per platform, so it stays a runtime require and
  // electron-builder.yml ships it (N-API: no rebuild for Electron's ABI).
  { name: 'main', entry: 'desktop/main/main.ts', outfile: 'desktop/main/dist/main.cjs', external: ['electron', '@napi-rs/keyring'] },
  { name: 'preload', entry: 'desktop/preload/preload.ts', outfile: 'desktop/preload/dist/preload.cjs', external: ['electron'] },
] as const;

/** The modules a bundle still requires at runtime (what esbuild left external). */
function runtimeRequires(metafile: Metafile): string[] {
  const required = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) if (imported.external) required.add(imported.path);
  }
  return [...required].sort();
}

interface BuildDesktopOptions {
  /** Where the dist folders are written; the repository root unless a test points elsewhere. */
  outRoot?: string;
}

export async function buildDesktop(options: BuildDesktopOptions = {}): Promise<string[]> {
  const outRoot = options.outRoot ?? repoRoot;
  const written: string[] = [];
  for (const bundle of desktopBundles) {
    const outfile = path.join(outRoot, bundle.outfile);
    const result = await build({
      absWorkingDir: repoRoot,
      entryPoints: [path.join(repoRoot, bundle.entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      // Electron 45 embeds Node 22 and Chromium 140.
      target: 'node22',
      external: [...bundle.external],
      sourcemap: true,
      metafile: true,
      logLevel: 'warning',
    });
    // A sandboxed preload can require nothing but electron; anything else would fail only at runtime.
    if (bundle.name === 'preload') {
      const extra = runtimeRequires(result.metafile).filter((name) => name !== 'electron');
      if (extra.length > 0) {
        throw new Error(`The sandboxed preload may only require electron, but it requires: ${extra.join(', ')}`);
      }
    }
    written.push(outfile);
  }
  return written;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;

if (invokedDirectly) {
  try {
    const at = process.argv.indexOf('--out-root');
    const files = await buildDesktop(at === -1 ? {} : { outRoot: path.resolve(process.argv[at + 1] ?? '.') });
    for (const file of files) console.log(`built ${path.relative(process.cwd(), file)}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
