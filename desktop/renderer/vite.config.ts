import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, defineConfig, type Plugin, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
// With its extension: Vite's native config loader (its future default) resolves no other way.
import { APP_ICON } from '../../shared/site.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const backend = process.env.CAIRN_DEV_BACKEND ?? 'http://localhost:3000';

// Server paths a browser navigates to as pages (OAuth redirects, e-mail links, the dev mailbox).
const SERVER_PAGES = /^\/(api|dev)\/|^\/auth\/(signin|callback)\//;

// In `vite dev`, page loads of client routes (/auth/signin, /auth/error, …) are served by Vite;
// everything else under these prefixes goes to the Cairn server (`npm run dev`, port 3000).
const toServer: ProxyOptions = {
  target: backend,
  bypass: (req) => {
    const path = (req.url ?? '').split(/[?#]/)[0] ?? '';
    const wantsHtml = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
    return wantsHtml && !SERVER_PAGES.test(path) ? '/index.html' : undefined;
  },
};

// One id per build. The bundle knows its own (__CAIRN_BUILD_ID__) and the build writes it to
// dist/web/version.json, which GET /api/has-new-deploy reads: an open page whose id differs from the
// file's learns that a new version was deployed. CAIRN_BUILD_ID pins it (reproducible builds, CI).
const buildId =
  process.env.CAIRN_BUILD_ID ?? `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}-${crypto.randomBytes(4).toString('hex')}`;

// Cairn's icon lives once, in shared/site.ts: the server's own pages link it too.
const appIcon = (): Plugin => ({
  name: 'cairn-app-icon',
  transformIndexHtml: (html) => html.replace('__CAIRN_ICON__', APP_ICON),
});

const versionFile = (): Plugin => ({
  name: 'cairn-version-file',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version: buildId }) + '\n' });
  },
});

// The built-in API reference (/docs) runs Scalar's standalone bundle; the build ships it beside the
// app (dist/web/docs/scalar.js) so the server needs no dev dependency at run time.
const require = createRequire(import.meta.url);
const apiReferenceBundle = (): Plugin => ({
  name: 'cairn-api-reference',
  apply: 'build',
  generateBundle() {
    const file = require.resolve('@scalar/api-reference/browser/standalone.js');
    this.emitFile({ type: 'asset', fileName: 'docs/scalar.js', source: fs.readFileSync(file) });
  },
});

// The landing page's first screen (header and hero, signed out, before any data) rendered at build time
// into dist/web/landing.html, which the server answers / with (server/web/static.ts): the browser paints
// the headline as soon as the HTML and the stylesheet are in, and main.tsx hydrates it once the scripts
// run. index.html stays the empty shell for every other page. prerender.tsx is built for Node by a
// second, small build beside the node_modules it imports, run, and removed.
const ROOT_MARKUP = '<div id="root"></div>';
const ENTRY_SCRIPT = /<script type="module" crossorigin src="\/assets\/([^"]+\.js)"><\/script>/;

/**
 * landing.html starts the app only after the browser has painted the prerendered page. Evaluating the
 * entry's modules (React, Mantine, the landing page: a few hundred milliseconds on a slow machine) ran
 * before the first frame, since deferred module scripts run as soon as the document is parsed, and held
 * back the paint of markup that needs no script: Largest Contentful Paint came at the end of it. The
 * entry is still fetched at once (modulepreload) but imported by a small loader the frame after the
 * first paint (at once in a hidden tab, which paints nothing until shown). A file of its own, not an
 * inline script: the Content-Security-Policy allows scripts from 'self' only.
 */
function paintFirst(html: string, outDir: string): string {
  const entry = ENTRY_SCRIPT.exec(html);
  if (!entry) throw new Error('index.html has no module entry script for landing.html to load after its first paint');
  const loader =
    `// landing.html's loader (desktop/renderer/vite.config.ts paintFirst): the app starts the frame after the first paint.\n` +
    `const start = () => import('./${entry[1]}');\n` +
    `if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));\n` +
    `else start();\n`;
  const file = `landing-boot-${crypto.createHash('sha256').update(loader).digest('hex').slice(0, 8)}.js`;
  fs.writeFileSync(path.join(outDir, 'assets', file), loader);
  return html.replace(
    entry[0],
    `<link rel="modulepreload" crossorigin href="/assets/${entry[1]}">\n    <script type="module" crossorigin src="/assets/${file}"></script>`,
  );
}
const prerenderLanding = (): Plugin => {
  let outDir = '';
  let isSsrBuild = false;
  return {
    name: 'cairn-prerender-landing',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      isSsrBuild = !!config.build.ssr;
    },
    async closeBundle() {
      if (isSsrBuild) return;
      // One folder per build process, so two builds of the same checkout at once do not share it.
      const serverDir = fileURLToPath(new URL(`../../node_modules/.cache/cairn-prerender-${process.pid}`, import.meta.url));
      try {
        await build({
          configFile: false,
          root: here,
          logLevel: 'warn',
          plugins: [react()],
          define: { __CAIRN_BUILD_ID__: JSON.stringify(buildId) },
          build: {
            ssr: 'prerender.tsx',
            outDir: serverDir,
            emptyOutDir: true,
            minify: false,
            rolldownOptions: { output: { entryFileNames: 'prerender.mjs' } },
          },
        });
        const { renderLanding } = (await import(`${pathToFileURL(path.join(serverDir, 'prerender.mjs')).href}?${buildId}`)) as {
          renderLanding: () => string;
        };
        const shell = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
        if (!shell.includes(ROOT_MARKUP)) throw new Error(`index.html has no ${ROOT_MARKUP} to prerender the landing page into`);
        let markup: string;
        try {
          markup = renderLanding();
        } catch (err) {
          throw new Error(
            'Prerendering the landing page failed: what it shows before any data must render without a browser ' +
              '(read window, document and cookies in effects or useSyncExternalStore, not while rendering)',
            { cause: err },
          );
        }
        fs.writeFileSync(path.join(outDir, 'landing.html'), paintFirst(shell.replace(ROOT_MARKUP, `<div id="root">${markup}</div>`), outDir));
      } finally {
        fs.rmSync(serverDir, { recursive: true, force: true });
      }
    },
  };
};

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react(), appIcon(), versionFile(), apiReferenceBundle(), prerenderLanding()],
  define: { __CAIRN_BUILD_ID__: JSON.stringify(buildId) },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // .vite/manifest.json maps source modules to chunks; `npm run bench:web` reads it to check that the
    // landing page requests no dashboard chunk. The server never serves dot-directories.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React in a chunk of its own: the same file from one deploy to the next, so it stays cached.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            // Everything the entry imports statically (the landing page, Mantine's core, TanStack Query) in
            // one chunk beside it. Left to itself the bundler cut the modules the landing shares with lazy
            // pages into a dozen small chunks, each one more request with its ~1.2 KB of headers and
            // gzipped on its own; the lazy pages import them from this chunk instead.
            { name: 'app', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': toServer, '/auth': toServer, '/dev': toServer },
  },
});
