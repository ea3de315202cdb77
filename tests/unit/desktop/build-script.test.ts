// `npm run build:desktop` as a person runs it, on this Node: the script itself must load (tsx follows
// the nearest package.json, desktop/package.json, to decide between ESM and CommonJS), not only the
// buildDesktop() that build.test.ts imports.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const outRoot = mkdtempSync(path.join(os.tmpdir(), 'cairn-build-desktop-'));

afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

describe('npm run build:desktop', () => {
  it('builds the main process and preload bundles', async () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const { stdout } = await run(npm, ['run', '--silent', 'build:desktop', '--', '--out-root', outRoot], { cwd: root, timeout: 60_000 });
    expect(stdout).toContain('built');
    for (const file of ['desktop/main/dist/main.cjs', 'desktop/preload/dist/preload.cjs']) expect(existsSync(path.join(outRoot, file)), file).toBe(true);
  });
});
