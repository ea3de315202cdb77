import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../helpers/db-template';
import { freePort } from '../helpers/server-process';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Runs the real entry point (server/main.ts) with the given environment until it exits or prints
 * `until`; killed after `killAfterMs` (a development start builds its sandbox chains and their workers
 * first: some 10 s alone on two cores, twice that and more beside the rest of the suite).
 */
function runMain(env: Record<string, string>, until?: RegExp, killAfterMs = 20_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    });
    let stdout = '';
    let stderr = '';
    const check = () => {
      if (until && until.test(stdout)) child.kill('SIGTERM');
    };
    child.stdout.on('data', (d) => ((stdout += d), check()));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    setTimeout(() => child.kill('SIGKILL'), killAfterMs).unref();
  });
}


describe('start-up configuration', () => {
  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT must be a whole number between 1 and 65535 \(got "abc"\)$/],
    [{ DATABASE_URL: 'nonsense' }, /^Invalid configuration: DATABASE_URL must be a PostgreSQL URL/],
    [{ SESSION_SECRET: 'short' }, /^Invalid configuration: SESSION_SECRET must be at least 32 characters long$/],
    [{ NODE_ENV: 'staging' }, /^Invalid configuration: NODE_ENV must be development, production or test/],
    [{ NODE_ENV: 'production' }, /^Invalid configuration: SMTP_URL must be set when NODE_ENV is production/],
    [
      { DISABLED_NETWORKS: 'cardano-mainnet,cardano-testnet' },
      /^Invalid configuration: DISABLED_NETWORKS names "cardano-testnet", which is not a network of Cairn: use a comma-separated list of cardano-mainnet, ipfs, milkomeda-mainnet, cardano-preview, cardano-preprod, cardano-devnet \(got "cardano-mainnet,cardano-testnet"\)$/,
    ],
  ])('stops with one line naming the variable: %o', async (env, line) => {
    const res = await runMain(env);
    expect(res.code).toBe(1);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
  });

  it('does not echo secret values', async () => {
    const res = await runMain({ DATABASE_URL: 'mysql://root:hunter2@db/x' });
    expect(res.stderr).not.toContain('hunter2');
  });

  it('creates and migrates the SQLite file under DATA_DIR on start, then serves', async () => {
    const dataDir = path.join(ARTIFACTS, `start-${process.pid}-${Date.now()}`);
    try {
      const port = await freePort();
      const res = await runMain({ DATA_DIR: dataDir, PORT: String(port), GATEWAY_PORT: String(await freePort()), HOST: '127.0.0.1' }, /gateway listening/, 75_000);
      expect(res.stdout).toContain(`Cairn is running at http://localhost:${port}`);
      expect(res.stdout).toMatch(/database: SQLite at .*cairn\.sqlite \(migrated\)/);
      expect(fs.existsSync(path.join(dataDir, 'cairn.sqlite'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'session-secret'))).toBe(true);
      expect(res.code).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
