import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { isTrustedSender, registerBridgeHandlers, type BridgeHandlers } from '../../../desktop/main/ipc';

const refuse = () => {
  throw new Error('not called in this test');
};
/** Every channel answered; the test overrides the ones it calls. */
const handlers = (overrides: Partial<BridgeHandlers> = {}): BridgeHandlers => ({
  'app:version': () => '1.2.3',
  'auth:sign-in': refuse,
  'keychain:keep': refuse,
  'keychain:list': async () => [],
  'keychain:remove': async () => true,
  'console:send': refuse,
  'sandbox:open': () => undefined,
  ...overrides,
});

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
    registerBridgeHandlers(ipcMain, origin, handlers());
    expect([...listeners.keys()].sort()).toEqual(['app:version', 'auth:sign-in', 'console:send', 'keychain:keep', 'keychain:list', 'keychain:remove', 'sandbox:open']);
  });

  it('validates arguments in main before a handler runs', async () => {
    const remove = vi.fn(async () => true);
    const send = vi.fn(async () => ({ status: 200, statusText: 'OK', headers: [], timeMs: 1, body: '', truncated: false, url: '' }));
    const { ipcMain, invoke } = fakeIpcMain();
    registerBridgeHandlers(ipcMain, origin, handlers({ 'keychain:remove': remove, 'console:send': send }));
    const page = 'http://localhost:3000/dashboard';
    const uuid = '3f0e8c1a-5b7d-4e2f-9a61-0c2d4e6f8a10';

    expect(() => invoke('keychain:remove', page, '../../etc')).toThrow(/Refused keychain:remove: 0: projectUuid must be a project uuid/);
    expect(() => invoke('keychain:remove', page)).toThrow(/Refused keychain:remove/);
    expect(() => invoke('keychain:remove', page, uuid, 'extra')).toThrow(/Refused keychain:remove/);
    expect(() => invoke('app:version', page, 'unexpected')).toThrow(/Refused app:version/);
    // The console's path stays under the network's API: no other host, no dot segments, no body on GET.
    expect(() => invoke('console:send', page, { projectUuid: uuid, method: 'GET', path: '//evil.example/x' })).not.toThrow();
    for (const bad of [
      { projectUuid: uuid, method: 'GET', path: 'blocks/latest' },
      { projectUuid: uuid, method: 'GET', path: '/../../admin' },
      { projectUuid: uuid, method: 'DELETE', path: '/blocks/latest' },
      { projectUuid: uuid, method: 'GET', path: '/blocks/latest', body: '{}' },
      { projectUuid: uuid, method: 'GET', path: '/blocks/latest', key: 'mainnetXYZ' },
    ]) {
      expect(() => invoke('console:send', page, bad), JSON.stringify(bad)).toThrow(/Refused console:send/);
    }
    expect(remove).not.toHaveBeenCalled();
    await invoke('keychain:remove', page, uuid);
    expect(remove).toHaveBeenCalledWith(uuid);
    await invoke('console:send', page, { projectUuid: uuid, method: 'POST', path: '/', body: '{"jsonrpc":"2.0"}' });
    expect(send).toHaveBeenLastCalledWith({ projectUuid: uuid, method: 'POST', path: '/', body: '{"jsonrpc":"2.0"}' });
  });

  it('answers Cairn pages', async () => {
    const { ipcMain, invoke } = fakeIpcMain();
    registerBridgeHandlers(ipcMain, origin, handlers());
    await expect(Promise.resolve(invoke('app:version', 'http://localhost:3000/dashboard'))).resolves.toBe('1.2.3');
  });

  it('refuses callers that are not Cairn pages', () => {
    const handler = vi.fn(() => '1.2.3');
    const { ipcMain, invoke } = fakeIpcMain();
    registerBridgeHandlers(ipcMain, origin, handlers({ 'app:version': handler }));
    expect(() => invoke('app:version', 'https://evil.example/')).toThrow(/not a Cairn page/);
    expect(() => invoke('app:version', null)).toThrow(/not a Cairn page/);
    expect(handler).not.toHaveBeenCalled();
  });
});
