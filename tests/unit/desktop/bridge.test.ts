import { describe, expect, it, vi } from 'vitest';
import { createBridge, type BridgeInvoke } from '../../../desktop/preload/bridge';

describe('createBridge', () => {
  it('exposes one object per domain, each method one invoke on a named channel', async () => {
    const invoke = vi.fn(async () => '0.1.0') as unknown as BridgeInvoke;
    const bridge = createBridge(invoke, 'linux');

    expect(Object.keys(bridge)).toEqual(['app', 'auth', 'keychain', 'apiConsole', 'jsonpath']);
    expect(Object.keys(bridge.app).sort()).toEqual(['platform', 'version']);
    expect(bridge.app.platform).toBe('linux');
    await expect(bridge.app.version()).resolves.toBe('0.1.0');
    expect(invoke).toHaveBeenCalledWith('app:version');

    const uuid = '3f0e8c1a-5b7d-4e2f-9a61-0c2d4e6f8a10';
    await bridge.auth.signIn();
    await bridge.keychain.keep(uuid);
    await bridge.keychain.list();
    await bridge.keychain.remove(uuid);
    await bridge.apiConsole.send({ projectUuid: uuid, method: 'GET', path: '/blocks/latest' });
    await bridge.jsonpath.openSandbox();
    expect(vi.mocked(invoke).mock.calls.slice(1)).toEqual([
      ['auth:sign-in'],
      ['keychain:keep', uuid],
      ['keychain:list'],
      ['keychain:remove', uuid],
      ['console:send', { projectUuid: uuid, method: 'GET', path: '/blocks/latest' }],
      ['sandbox:open'],
    ]);
  });
});
