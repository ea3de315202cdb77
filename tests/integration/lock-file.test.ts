// The lock file answers for package.json: `npm ci` (which CI and the production install run) refuses
// a lock file that lacks an entry package.json implies, such as a native package's platform binaries
// that the registry did not have when the lock file was written. A dry run of each install checks it
// in seconds, on every `npm test`, not only in CI's production install.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-lock-'));
for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(root, file), path.join(dir, file));

async function dryRun(...extra: string[]): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', ...extra], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? String(err) }));
  return stdout + stderr;
}

describe('the lock file', () => {
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is in step with package.json for a full install and for a production one', async () => {
    for (const extra of [[], ['--omit=dev']]) {
      const out = await dryRun(...extra);
      expect(out, `npm ci ${extra.join(' ')}`).not.toMatch(/npm error|Missing: /);
      expect(out).toMatch(/added \d+ packages/);
    }
  }, 120_000);
});
