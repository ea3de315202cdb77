// `npm run bench:web`: how fast the landing page is, in headless Chromium on loopback, against the real
// server (production mode, compression on) started here on a free port with a throwaway SQLite database.
//
// Targets: the landing page's JavaScript and CSS over the wire at most 150 KB, Largest
// Contentful Paint of / at most 0.8 s (median of the runs), and no dashboard chunk requested by /.
// The baseline measured in the same run is a static HTML page with the same headline and no script,
// served from loopback too: the LCP ratio tells how much the app adds over the floor of this machine.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { startLocalApp } from '../helpers/local-app';
import { ratio, row } from './lib/report';
import { LANDING_BUDGET_BYTES as TARGET_TRANSFER_BYTES, landingTransfer, measureTransfer, type Transfer } from './lib/landing-transfer';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WEB_DIR = path.resolve(process.env.CAIRN_WEB_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web'));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const TARGET_LCP_MS = 800;

// Source folders whose code belongs to the signed-in dashboard.
const DASHBOARD_SOURCES = /features\/(dashboard|projects|workspaces|workspace-invite|subscription|webhooks|settings|shell)\//;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  css?: string[];
}

function dashboardFiles(): Map<string, string> {
  const manifestFile = path.join(WEB_DIR, '.vite', 'manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const files = new Map<string, string>();
  for (const chunk of Object.values(manifest)) {
    if (!chunk.isDynamicEntry || !chunk.src || !DASHBOARD_SOURCES.test(chunk.src)) continue;
    files.set(chunk.file, chunk.src);
    for (const css of chunk.css ?? []) files.set(css, chunk.src);
  }
  return files;
}

/** LCP of one cold load (fresh context, no cache), in ms. */
async function measureLcp(browser: Browser, url: string, headline: RegExp): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1, name: headline }).waitFor();
  const lcp = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          const last = entries[entries.length - 1];
          if (last) resolve(last.startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => reject(new Error('no largest-contentful-paint entry')), 5000);
      }),
  );
  await context.close();
  return lcp;
}

/**
 * The entry imports only part of Mantine's stylesheet (main.tsx). Every Mantine class the landing page's
 * scripts can put on an element must be styled by its stylesheets, or a component added to the page later
 * would render unstyled there.
 */
function unstyledMantineClasses(files: string[]): string[] {
  const read = (file: string) => fs.readFileSync(path.join(WEB_DIR, file), 'utf8');
  const mantineSheet = fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/@mantine/core/styles.layer.css'), 'utf8');
  const styled = new Set(files.filter((f) => f.endsWith('.css')).flatMap((f) => read(f).match(/m_[0-9a-f]{8}/g) ?? []));
  const used = new Set(files.filter((f) => f.endsWith('.js')).flatMap((f) => read(f).match(/m_[0-9a-f]{8}/g) ?? []));
  return [...used].filter((c) => !styled.has(c) && mantineSheet.includes(`.${c}`));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;

/** The floor: the same headline as static HTML with no script or stylesheet. */
async function startBaseline(): Promise<{ url: string; close: () => Promise<void> }> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Baseline</title></head>
<body style="margin:0;font-family:system-ui,sans-serif"><main style="padding:80px 16px;max-width:1320px;margin:auto"><h1 style="font-size:4.25rem;line-height:1.06;margin:0">Instant API access to Cardano</h1>
<p style="font-size:1.1875rem;max-width:580px">Query the Cardano blockchain, store files on IPFS with Filecoin backup and get secure webhooks for on-chain events.</p></main></body></html>`;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<number> {
  if (!fs.existsSync(path.join(WEB_DIR, 'index.html')) || !fs.existsSync(path.join(WEB_DIR, '.vite', 'manifest.json'))) {
    console.error(`No web build in ${WEB_DIR}: run \`npm run build:web\` first (npm run bench:web does).`);
    return 2;
  }
  if (!fs.existsSync(CHROMIUM)) {
    console.error(`Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH).`);
    return 2;
  }
  const dashboard = dashboardFiles();
  const app = await startLocalApp({ env: { NODE_ENV: 'production' }, webDir: WEB_DIR });
  const baseline = await startBaseline();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const landing = `${app.url}/`;
    // One warm-up load so the first measured run does not pay for the server's first requests.
    await measureTransfer(browser, landing);

    const { assets, js, css } = await landingTransfer(browser, landing);
    // Files under the server's compression threshold (256 bytes, server/app.ts) are sent as they are, rightly.
    const bodyBytes = (t: Transfer) => fs.statSync(path.join(WEB_DIR, new URL(t.url).pathname)).size;
    const uncompressed = assets.filter((t) => t.encoding !== 'gzip' && bodyBytes(t) >= 256);
    const dashboardRequested = assets
      .map((t) => new URL(t.url).pathname.replace(/^\//, ''))
      .filter((file) => dashboard.has(file));

    const unstyled = unstyledMantineClasses(assets.map((t) => new URL(t.url).pathname.replace(/^\//, '')));

    const lcps: number[] = [];
    const baselineLcps: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      lcps.push(await measureLcp(browser, landing, /Instant API access to/));
      baselineLcps.push(await measureLcp(browser, baseline.url, /Instant API access to/));
    }
    const lcp = median(lcps);
    const baseLcp = median(baselineLcps);

    console.log(`Landing page ${landing} (headless Chromium, loopback, cache disabled)\n`);
    console.log('JavaScript and CSS requested by /:');
    for (const t of assets) {
      console.log(`  ${kb(t.bytes).padStart(9)}  ${t.encoding.padEnd(8)} ${new URL(t.url).pathname}`);
    }
    console.log('');
    const rows: Array<[string, string, string, boolean]> = [
      [
        'JS + CSS over the wire (gzip)',
        `${kb(js + css)} (JS ${kb(js)}, CSS ${kb(css)}; ${((100 * (js + css)) / TARGET_TRANSFER_BYTES).toFixed(0)}% of budget)`,
        `<= ${kb(TARGET_TRANSFER_BYTES)}`,
        js + css <= TARGET_TRANSFER_BYTES,
      ],
      [
        `Largest Contentful Paint of / (median of ${RUNS})`,
        `${ms(lcp)} (runs ${lcps.map(ms).join(', ')}; ${(lcp / baseLcp).toFixed(2)}x the static-HTML baseline of ${ms(baseLcp)})`,
        `<= ${ms(TARGET_LCP_MS)}`,
        lcp <= TARGET_LCP_MS,
      ],
      [
        'Dashboard chunks requested by /',
        dashboardRequested.length ? dashboardRequested.join(', ') : `none (of ${dashboard.size} dashboard files in the build)`,
        'none',
        dashboardRequested.length === 0,
      ],
      [
        'Mantine classes used by / without their styles',
        unstyled.length ? unstyled.join(', ') : 'none',
        'none (add the component to the style imports in main.tsx)',
        unstyled.length === 0,
      ],
    ];
    const figures = [`${kb(js + css)} (JS ${kb(js)}, CSS ${kb(css)})`, ms(lcp), rows[2]![1], rows[3]![1]];
    rows.forEach(([name, , target, pass], i) =>
      row({
        bench: 'web',
        measure: name,
        figure: figures[i]!,
        baseline: i === 1 ? `${ms(baseLcp)} static HTML` : '',
        ratio: i === 1 ? ratio(lcp, baseLcp) : '',
        target: target.replace(/^<= /, '≤ '),
        pass,
      }),
    );
    if (uncompressed.length) row({ bench: 'web', measure: 'JS and CSS sent gzip', figure: `not: ${uncompressed.map((t) => new URL(t.url).pathname).join(', ')}`, baseline: '', ratio: '', target: 'all', pass: false });
    return rows.every(([, , , pass]) => pass) ? 0 : 1;
  } finally {
    await browser.close();
    await baseline.close();
    await app.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
