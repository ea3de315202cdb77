/**
 * The contract between the Electron main process and the renderer, written once.
 *
 * This file must not import electron or anything else at runtime: the renderer imports `CairnBridge` from here
 * (type only) to type `window.cairn`, the main process imports the channel table to register its handlers and
 * validates every argument against it (desktop/main/bridge-schemas.ts), and tests implement the same contract.
 */

/** A project key kept in the OS keychain, as the renderer sees it: everything but the key itself. */
export interface KeptKey {
  projectUuid: string;
  projectName: string;
  networkId: number;
  workspaceId: number;
  workspaceName: string;
  /** Epoch milliseconds. */
  keptAt: number;
  /**
   * 'deleted' when the server no longer knows the project; 'rolled' when the project's key was rolled
   * since it was kept and the kept one no longer works (keep the key again); 'unknown' when the server
   * could not be asked (offline, signed out).
   */
  status: 'active' | 'rolled' | 'deleted' | 'unknown';
}

export const consoleMethods = ['GET', 'POST'] as const;

/** One request of the API console; the main process adds the kept key and the gateway's address. */
export interface ConsoleRequest {
  projectUuid: string;
  method: (typeof consoleMethods)[number];
  /** The path under the network's /api/v0, e.g. `/blocks/latest`; may carry a query string. */
  path: string;
  /** A JSON body for POST (Milkomeda JSON-RPC, IPFS calls that take JSON); none for GET. */
  body?: string;
}

export interface ConsoleResponse {
  status: number;
  statusText: string;
  headers: Array<[name: string, value: string]>;
  /** Time to the last byte, in milliseconds. */
  timeMs: number;
  body: string;
  /** The body was longer than the console shows and was cut. */
  truncated: boolean;
  /** The URL the request went to (the key is sent in a header, never in the URL). */
  url: string;
}

/** Every IPC channel of the bridge with its arguments and result. Main handles exactly these. */
interface BridgeChannels {
  'app:version': { args: []; result: string };
  /** Signs the app in through the system browser; resolves with the e-mail once the app holds its session. */
  'auth:sign-in': { args: []; result: { email: string } };
  'keychain:keep': { args: [projectUuid: string]; result: KeptKey };
  'keychain:list': { args: []; result: KeptKey[] };
  'keychain:remove': { args: [projectUuid: string]; result: boolean };
  'console:send': { args: [request: ConsoleRequest]; result: ConsoleResponse };
  /** Opens the JSONPath sandbox in a window of its own (it needs no server). */
  'sandbox:open': { args: []; result: void };
}

export type BridgeChannel = keyof BridgeChannels;
export type BridgeArgs<C extends BridgeChannel> = BridgeChannels[C]['args'];
export type BridgeResult<C extends BridgeChannel> = BridgeChannels[C]['result'];

export type BridgeInvoke = <C extends BridgeChannel>(channel: C, ...args: BridgeArgs<C>) => Promise<BridgeResult<C>>;

/** What main answers each channel with (desktop/main/ipc.ts registers them). */
export type BridgeHandlers = {
  [C in BridgeChannel]: (...args: BridgeArgs<C>) => BridgeResult<C> | Promise<BridgeResult<C>>;
};

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
    auth: {
      signIn: (): Promise<{ email: string }> => invoke('auth:sign-in'),
    },
    keychain: {
      keep: (projectUuid: string): Promise<KeptKey> => invoke('keychain:keep', projectUuid),
      list: (): Promise<KeptKey[]> => invoke('keychain:list'),
      remove: (projectUuid: string): Promise<boolean> => invoke('keychain:remove', projectUuid),
    },
    apiConsole: {
      send: (request: ConsoleRequest): Promise<ConsoleResponse> => invoke('console:send', request),
    },
    jsonpath: {
      openSandbox: (): Promise<void> => invoke('sandbox:open'),
    },
  };
}

/** The type of `window.cairn` in the desktop app (absent in a plain browser). */
export type CairnBridge = ReturnType<typeof createBridge>;
