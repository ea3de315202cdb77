// Builds the real bundles into a temporary folder and runs them against a stand-in for the electron module,
// so the CommonJS output (esbuild's interop, the externals) is checked, not just the TypeScript sources.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildDesktop, desktopBundles } from '../../../desktop/build';

const nodeRequire = createRequire(import.meta.url);
const nodeBuiltins = new Set(builtinModules);
let outRoot = '';

/** Runs a CommonJS bundle with `electron` answered by `fakeElectron`; every other require is the real one. */
function runBundle(file: string, fakeElectron: unknown, processOverrides: Partial<NodeJS.Process> = {}): void {
  const code = readFileSync(file, 'utf8');
  const module = { exports: {} };
  const fakeRequire = (id: string): unknown => (id === 'electron' ? fakeElectron : nodeRequire(id));
  const fakeProcess = Object.assign(Object.create(process) as NodeJS.Process, processOverrides);
  new Function('require', 'module', 'exports', '__filename', '__dirname', 'process', code)(
    fakeRequire,
    module,
    module.exports,
    file,
    path.dirname(file),
    fakeProcess,
  );
}

beforeAll(async () => {
  outRoot = mkdtempSync(path.join(os.tmpdir(), 'cairn-desktop-build-'));
  await buildDesktop({ outRoot });
}, 30_000);

afterAll(() => {
  if (outRoot) rmSync(outRoot, { recursive: true, force: true });
});

describe('desktop/build.ts', () => {
  it('writes the two CommonJS bundles where package.json and the window expect them', () => {
    expect(desktopBundles.map((bundle) => bundle.outfile)).toEqual(['desktop/main/dist/main.cjs', 'desktop/preload/dist/preload.cjs']);
    const packageJson = JSON.parse(readFileSync(path.resolve('package.json'), 'utf8')) as { main: string };
    expect(packageJson.main).toBe('desktop/main/dist/main.cjs');
  });

  it('keeps the preload free of any require but electron (the sandbox allows nothing else)', () => {
    const preload = readFileSync(path.join(outRoot, 'desktop/preload/dist/preload.cjs'), 'utf8');
    const requires = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1]);
    expect(requires).toEqual(['electron']);
  });

  it('leaves only electron and the native keychain binding to runtime requires of main', () => {
    const main = readFileSync(path.join(outRoot, 'desktop/main/dist/main.cjs'), 'utf8');
    const requires = new Set([...main.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1]).filter((id) => !id!.startsWith('node:')));
    expect([...requires].filter((id) => !['electron', '@napi-rs/keyring'].includes(id!) && !nodeBuiltins.has(id!))).toEqual([]);
  });

  it('the preload bundle exposes window.cairn', async () => {
    const exposeInMainWorld = vi.fn();
    const invoke = vi.fn(async () => '0.1.0');
    runBundle(path.join(outRoot, 'desktop/preload/dist/preload.cjs'), { contextBridge: { exposeInMainWorld }, ipcRenderer: { invoke } });
    expect(exposeInMainWorld).toHaveBeenCalledWith('cairn', expect.objectContaining({ app: { version: expect.any(Function), platform: process.platform } }));
    const api = exposeInMainWorld.mock.calls[0]?.[1] as { app: { version(): Promise<string> } };
    await expect(api.app.version()).resolves.toBe('0.1.0');
    expect(invoke).toHaveBeenCalledWith('app:version');
  });

  it('the main bundle takes the single-instance lock and registers cairn://', () => {
    const app = {
      requestSingleInstanceLock: vi.fn(() => true),
      enableSandbox: vi.fn(),
      setAsDefaultProtocolClient: vi.fn(() => true),
      on: vi.fn(),
      whenReady: vi.fn(() => new Promise(() => undefined)),
    };
    runBundle(path.join(outRoot, 'desktop/main/dist/main.cjs'), { app, dialog: { showErrorBox: vi.fn() }, protocol: { registerSchemesAsPrivileged: vi.fn() } }, {
      env: {},
      argv: ['/opt/Cairn/cairn'],
    });
    expect(app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('cairn');
    expect(app.on.mock.calls.map((call) => call[0])).toEqual(
      expect.arrayContaining(['open-url', 'second-instance', 'window-all-closed', 'activate']),
    );
  });
});
