import { describe, expect, it, vi } from 'vitest';
import { createBridge, type BridgeInvoke } from '../../../desktop/preload/bridge';

describe('createBridge', () => {
  it('exposes one object per domain, each method one invoke on a named channel', async () => {
    const invoke = vi.fn(async () => '0.1.0') as unknown as BridgeInvoke;
    const bridge = createBridge(invoke, 'linux');

    expect(Object.keys(bridge)).toEqual(['app']);
    expect(Object.keys(bridge.app).sort()).toEqual(['platform', 'version']);
    expect(bridge.app.platform).toBe('linux');
    await expect(bridge.app.version()).resolves.toBe('0.1.0');
    expect(invoke).toHaveBeenCalledWith('app:version');
  });
});
