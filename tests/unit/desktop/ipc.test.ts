import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { isTrustedSender, registerBridgeHandlers } from '../../../desktop/main/ipc';

const origin = 'http://localhost:3000';

type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;

function fakeIpcMain() {
  const listeners = new Map<string, Listener>();
  const ipcMain: Pick<IpcMain, 'handle'> = {
    handle: vi.fn((channel: string, listener: Listener) => {
      listeners.set(channel, listener);
    }),
  };
  const invoke = (channel: string, senderUrl: string | null, ...args: unknown[]) => {
    const listener = listeners.get(channel);
    if (!listener) throw new Error(`no handler for ${channel}`);
    const event = { senderFrame: senderUrl === null ? null : { url: senderUrl } } as unknown as IpcMainInvokeEvent;
    return listener(event, ...args);
  };
  return { ipcMain, listeners, invoke };
}

describe('isTrustedSender', () => {
  it('trusts only frames on the Cairn origin', () => {
    const event = (url: string | undefined) => ({ senderFrame: url === undefined ? null : { url } }) as IpcMainInvokeEvent;
    expect(isTrustedSender(event('http://localhost:3000/dashboard'), origin)).toBe(true);
    expect(isTrustedSender(event('https://github.com/login'), origin)).toBe(false);
    expect(isTrustedSender(event('data:text/html,x'), origin)).toBe(false);
    expect(isTrustedSender(event(undefined), origin)).toBe(false);
  });
});

describe('registerBridgeHandlers', () => {
  it('registers exactly the bridge channels', () => {
    const { ipcMain, listeners } = fakeIpcMain();
    registerBridgeHandlers(ipcMain, origin, { 'app:version': () => '1.2.3' });
    expect([...listeners.keys()]).toEqual(['app:version']);
  });

  it('answers Cairn pages', async () => {
    const { ipcMain, invoke } = fakeIpcMain();
    registerBridgeHandlers(ipcMain, origin, { 'app:version': () => '1.2.3' });
    await expect(Promise.resolve(invoke('app:version', 'http://localhost:3000/dashboard'))).resolves.toBe('1.2.3');
  });

  it('refuses callers that are not Cairn pages', () => {
    const handler = vi.fn(() => '1.2.3');
    const { ipcMain, invoke } = fakeIpcMain();
    registerBridgeHandlers(ipcMain, origin, { 'app:version': handler });
    expect(() => invoke('app:version', 'https://evil.example/')).toThrow(/not a Cairn page/);
    expect(() => invoke('app:version', null)).toThrow(/not a Cairn page/);
    expect(handler).not.toHaveBeenCalled();
  });
});
