// The second half of `npm run typecheck`: the Electron main process, the preload and their tests, against
// Electron's own types. Those come with the desktop tools (desktop/package.json: Electron wants Node 22.12+),
// which a web-only install does not have: without them this says so and passes, except in CI (CI=true),
// which installs the tools and must check this code.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const desktop = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(desktop, '..', 'package.json'));

if (!fs.existsSync(path.join(desktop, 'node_modules', 'electron', 'electron.d.ts'))) {
  const line = 'desktop/main and desktop/preload: not type-checked, Electron\'s types come with the desktop tools (Node 22.12+: npm ci --prefix desktop)';
  if (process.env.CI === 'true') {
    console.error(`${line}; CI must install them`);
    process.exit(1);
  }
  console.warn(`SKIPPING ${line}`);
  process.exit(0);
}
const tsc = require.resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(desktop, 'tsconfig.json'), '--noEmit'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
