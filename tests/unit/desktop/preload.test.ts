import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(), send: vi.fn(), on: vi.fn() },
}));

vi.mock('electron', () => electron);

describe('preload', () => {
  beforeEach(() => {
    vi.resetModules();
    electron.contextBridge.exposeInMainWorld.mockReset();
    electron.ipcRenderer.invoke.mockReset();
  });

  it('exposes window.cairn and nothing else', async () => {
    await import('../../../desktop/preload/preload');
    expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [key, api] = electron.contextBridge.exposeInMainWorld.mock.calls[0] as [string, Record<string, Record<string, unknown>>];
    expect(key).toBe('cairn');
    expect(Object.keys(api)).toEqual(['app', 'auth', 'keychain', 'apiConsole', 'jsonpath']);
    expect(api.app?.platform).toBe(process.platform);
  });

  it('never hands the page ipcRenderer or a generic invoke', async () => {
    await import('../../../desktop/preload/preload');
    const [, api] = electron.contextBridge.exposeInMainWorld.mock.calls[0] as [string, unknown];
    const values: unknown[] = [];
    const walk = (value: unknown): void => {
      values.push(value);
      if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(api);
    expect(values).not.toContain(electron.ipcRenderer);
    expect(values).not.toContain(electron.ipcRenderer.invoke);
    const functions = values.filter((value): value is (...args: unknown[]) => unknown => typeof value === 'function');
    // Each method is bound to its own channel: whatever the page passes, a channel name among them changes nothing.
    electron.ipcRenderer.invoke.mockResolvedValue(undefined);
    const channels = new Set<unknown>();
    for (const fn of functions) {
      electron.ipcRenderer.invoke.mockClear();
      await fn('app:version', 'keychain:remove');
      channels.add(electron.ipcRenderer.invoke.mock.calls[0]?.[0]);
    }
    expect(channels.size).toBe(functions.length);
  });

  it('app.version() invokes app:version', async () => {
    electron.ipcRenderer.invoke.mockResolvedValue('0.1.0');
    await import('../../../desktop/preload/preload');
    const [, api] = electron.contextBridge.exposeInMainWorld.mock.calls[0] as [string, { app: { version(): Promise<string> } }];
    await expect(api.app.version()).resolves.toBe('0.1.0');
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith('app:version');
  });
});
