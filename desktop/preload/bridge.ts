/**
 * The contract between the Electron main process and the renderer, written once.
 *
 * This file must not import electron at runtime: the renderer imports `CairnBridge` from here (type only)
 * to type `window.cairn`, and the main process imports the channel table to register its handlers.
 */

/** Every IPC channel of the bridge with its arguments and result. Main handles exactly these. */
export interface BridgeChannels {
  'app:version': { args: []; result: string };
}

export type BridgeChannel = keyof BridgeChannels;
export type BridgeArgs<C extends BridgeChannel> = BridgeChannels[C]['args'];
export type BridgeResult<C extends BridgeChannel> = BridgeChannels[C]['result'];

export type BridgeInvoke = <C extends BridgeChannel>(channel: C, ...args: BridgeArgs<C>) => Promise<BridgeResult<C>>;

/**
 * Builds the object exposed as `window.cairn`: one small object per domain, each method a single invoke on a
 * named channel. The invoke function stays in this closure; the page never gets a generic way to call main.
 */
export function createBridge(invoke: BridgeInvoke, platform: string) {
  return {
    app: {
      /** The desktop app's version (package.json "version"). */
      version: (): Promise<string> => invoke('app:version'),
      /** Node's platform name: 'darwin', 'win32', 'linux', … */
      platform,
    },
  };
}

/** The type of `window.cairn` in the desktop app (absent in a plain browser). */
export type CairnBridge = ReturnType<typeof createBridge>;
