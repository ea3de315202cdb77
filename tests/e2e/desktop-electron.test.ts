// The real desktop app under Playwright's Electron launcher. Electron's binary cannot be downloaded on every
// machine (this project's CI has no route to its release host), so the test runs where one exists
// (the desktop tools' desktop/node_modules/electron/dist, or ELECTRON_PATH) and otherwise says loudly that it was skipped.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _electron, type ElectronApplication } from 'playwright-core';
import { buildDesktop } from '../../desktop/build';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** The Electron binary npm installed, without requiring the package (that would try to download it). */
function electronBinary(): string | null {
  if (process.env.ELECTRON_PATH) return fs.existsSync(process.env.ELECTRON_PATH) ? process.env.ELECTRON_PATH : null;
  const pkg = path.join(repoRoot, 'desktop', 'node_modules', 'electron');
  try {
    const relative = fs.readFileSync(path.join(pkg, 'path.txt'), 'utf8').trim();
    const binary = path.join(pkg, 'dist', relative);
    return fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
if (!binary) {
  console.warn('SKIPPING the Electron app test: no Electron binary (desktop/node_modules/electron/dist is empty: install the desktop tools with npm ci --prefix desktop, set ELECTRON_PATH or let npm download it).');
}

describe.runIf(binary !== null)('the desktop app (Electron)', () => {
  let app: TestApp & { database: TestDatabase };
  let electron: ElectronApplication;

  beforeAll(async () => {
    app = await startTestApp();
    await buildDesktop();
    electron = await _electron.launch({
      executablePath: binary!,
      args: [repoRoot, '--no-sandbox'],
      env: { ...process.env, CAIRN_URL: `${app.url}/dashboard` },
    });
  });
  afterAll(async () => {
    await electron?.close();
    await app?.stop();
    await app?.database.drop();
  });

  it('opens the dashboard, signed out: offers sign-in through the browser, with the bridge and no Node in the page', async () => {
    const window = await electron.firstWindow();
    await window.waitForURL(/\/auth\/signin/);
    await window.getByRole('button', { name: 'Sign in with your browser' }).waitFor();
    const bridge = await window.evaluate(() => {
      const cairn = (window as unknown as { cairn: Record<string, Record<string, unknown>> }).cairn;
      return { domains: Object.keys(cairn), node: typeof (window as unknown as { require?: unknown }).require, process: typeof (window as unknown as { process?: unknown }).process };
    });
    expect(bridge).toEqual({ domains: ['app', 'auth', 'keychain', 'apiConsole', 'jsonpath'], node: 'undefined', process: 'undefined' });
    expect(await window.evaluate(() => (window as unknown as { cairn: { app: { version(): Promise<string> } } }).cairn.app.version())).toBe('0.1.0');
  });

  it('opens the JSONPath sandbox in a window of its own that needs no server', async () => {
    const window = await electron.firstWindow();
    await window.evaluate(() => (window as unknown as { cairn: { jsonpath: { openSandbox(): Promise<void> } } }).cairn.jsonpath.openSandbox());
    const sandbox = await electron.waitForEvent('window');
    await sandbox.waitForURL('cairn-app://app/jsonpath-sandbox');
    await sandbox.getByText('This event would fire').waitFor();
    expect(await sandbox.evaluate(() => 'cairn' in window)).toBe(false);
  });
});
