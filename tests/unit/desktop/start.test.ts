// The main-process wiring, with Electron stubbed at the module boundary (its binary cannot run here).
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesktopProcess } from '../../../desktop/main/start';

const fake = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => unknown;

  class Emitter {
    readonly listeners = new Map<string, Listener[]>();
    on(name: string, listener: Listener): this {
      this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
      return this;
    }
    once(name: string, listener: Listener): this {
      return this.on(name, listener);
    }
    emit(name: string, ...args: unknown[]): void {
      for (const listener of this.listeners.get(name) ?? []) listener(...args);
    }
  }

  interface OpenHandlerResult {
    action: string;
  }

  class FakeWebContents extends Emitter {
    openHandler: ((details: { url: string }) => OpenHandlerResult) | null = null;
    setWindowOpenHandler(handler: (details: { url: string }) => OpenHandlerResult): void {
      this.openHandler = handler;
    }
  }

  const windows: FakeBrowserWindow[] = [];

  class FakeBrowserWindow extends Emitter {
    static getAllWindows = (): FakeBrowserWindow[] => windows.filter((window) => !window.destroyed);
    readonly webContents = new FakeWebContents();
    destroyed = false;
    minimized = false;
    readonly loadURL = vi.fn(async (_url: string) => undefined);
    readonly restore = vi.fn();
    readonly show = vi.fn();
    readonly focus = vi.fn();
    constructor(readonly options: { webPreferences?: Record<string, unknown> }) {
      super();
      windows.push(this);
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    isMinimized(): boolean {
      return this.minimized;
    }
    close(): void {
      this.destroyed = true;
      this.emit('closed');
    }
  }

  let resolveReady: () => void = () => undefined;
  let readyPromise = Promise.resolve();

  const app = Object.assign(new Emitter(), {
    ready: false,
    requestSingleInstanceLock: vi.fn(() => true),
    quit: vi.fn(),
    exit: vi.fn(),
    enableSandbox: vi.fn(),
    setAsDefaultProtocolClient: vi.fn(() => true),
    isDefaultProtocolClient: vi.fn(() => true),
    getAppPath: vi.fn(() => '/opt/Cairn/resources/app.asar'),
    getVersion: vi.fn(() => '0.1.0'),
    isReady: (): boolean => app.ready,
    whenReady: vi.fn(() => readyPromise),
  });

  const ipcHandlers = new Map<string, Listener>();
  const ipcMain = { handle: vi.fn((channel: string, listener: Listener) => void ipcHandlers.set(channel, listener)) };
  const cookieJar: Array<{ url: string; name: string; value: string }> = [];
  const session = {
    defaultSession: {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      cookies: {
        get: vi.fn(async (filter: { url: string; name: string }) => cookieJar.filter((c) => c.url === filter.url && c.name === filter.name)),
        set: vi.fn(async (cookie: { url: string; name: string; value: string }) => void cookieJar.push(cookie)),
      },
    },
  };
  class FakeNotification extends Emitter {
    static isSupported = () => true;
    static shown: FakeNotification[] = [];
    constructor(readonly options: { title: string; body: string }) {
      super();
    }
    show(): void {
      FakeNotification.shown.push(this);
    }
  }
  const protocolHandlers = new Map<string, (request: { url: string }) => Promise<Response>>();
  const protocol = {
    registerSchemesAsPrivileged: vi.fn(),
    handle: vi.fn((scheme: string, handler: (request: { url: string }) => Promise<Response>) => void protocolHandlers.set(scheme, handler)),
  };
  const shell = { openExternal: vi.fn(async (_url: string) => undefined) };
  const dialog = {
    showErrorBox: vi.fn(),
    showMessageBox: vi.fn(async () => ({ response: 0, checkboxChecked: false })),
  };

  const reset = (): void => {
    windows.length = 0;
    cookieJar.length = 0;
    FakeNotification.shown.length = 0;
    protocolHandlers.clear();
    app.listeners.clear();
    app.ready = false;
    ipcHandlers.clear();
    readyPromise = new Promise<void>((resolve) => {
      resolveReady = resolve;
    });
  };

  const becomeReady = async (): Promise<void> => {
    app.ready = true;
    resolveReady();
    await new Promise((resolve) => setImmediate(resolve));
  };

  return {
    windows,
    ipcHandlers,
    protocolHandlers,
    cookieJar,
    reset,
    becomeReady,
    module: { app, BrowserWindow: FakeBrowserWindow, ipcMain, session, shell, dialog, protocol, Notification: FakeNotification },
  };
});

vi.mock('electron', () => fake.module);

const { startCairnDesktop } = await import('../../../desktop/main/start');
const { app, ipcMain, session, shell, dialog } = fake.module;

const launch = (overrides: Partial<DesktopProcess> = {}): DesktopProcess => ({
  env: {},
  argv: ['/opt/Cairn/cairn'],
  platform: 'linux',
  execPath: '/opt/Cairn/cairn',
  defaultApp: false,
  ...overrides,
});

const flush = () => new Promise((resolve) => setImmediate(resolve));

async function startReady(overrides: Partial<DesktopProcess> = {}) {
  startCairnDesktop(launch(overrides));
  await fake.becomeReady();
  expect(fake.windows).toHaveLength(1);
  return fake.windows[0]!;
}

beforeEach(() => {
  vi.clearAllMocks();
  fake.reset();
});

describe('startCairnDesktop: the window', () => {
  it('opens one window on the Cairn dashboard with the secure webPreferences and the bundled preload', async () => {
    const window = await startReady();
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      preload: path.join('/opt/Cairn/resources/app.asar', 'desktop', 'preload', 'dist', 'preload.cjs'),
    });
    expect(window.loadURL).toHaveBeenCalledWith('http://localhost:3000/dashboard');
    expect(app.enableSandbox).toHaveBeenCalled();
  });

  it('loads CAIRN_URL', async () => {
    const window = await startReady({ env: { CAIRN_URL: 'https://cairn.example.com/dashboard/settings' } });
    expect(window.loadURL).toHaveBeenCalledWith('https://cairn.example.com/dashboard/settings');
  });

  it('does not start on an invalid CAIRN_URL', async () => {
    startCairnDesktop(launch({ env: { CAIRN_URL: 'file:///etc/passwd' } }));
    await fake.becomeReady();
    expect(dialog.showErrorBox).toHaveBeenCalledWith('Cairn cannot start', expect.stringContaining('CAIRN_URL'));
    expect(app.exit).toHaveBeenCalledWith(1);
    expect(fake.windows).toHaveLength(0);
  });

  it('quits when another instance holds the lock', async () => {
    app.requestSingleInstanceLock.mockReturnValueOnce(false);
    startCairnDesktop(launch());
    await fake.becomeReady();
    expect(app.quit).toHaveBeenCalled();
    expect(fake.windows).toHaveLength(0);
    expect(ipcMain.handle).not.toHaveBeenCalled();
  });

  it('quits when the last window closes, except on macOS', async () => {
    const window = await startReady();
    window.close();
    app.emit('window-all-closed');
    expect(app.quit).toHaveBeenCalledTimes(1);

    vi.clearAllMocks();
    fake.reset();
    const macWindow = await startReady({ platform: 'darwin' });
    macWindow.close();
    app.emit('window-all-closed');
    expect(app.quit).not.toHaveBeenCalled();
    app.emit('activate');
    expect(fake.windows).toHaveLength(2);
    expect(fake.windows[1]!.loadURL).toHaveBeenCalledWith('http://localhost:3000/dashboard');
  });
});

describe('startCairnDesktop: links', () => {
  it('denies new windows and opens allowed links in the system browser', async () => {
    const window = await startReady();
    const open = (url: string) => window.webContents.openHandler?.({ url });

    expect(open('https://docs.example.com/guide')).toEqual({ action: 'deny' });
    expect(open('javascript:alert(document.cookie)')).toEqual({ action: 'deny' });
    expect(open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(open('data:text/html,<script>alert(1)</script>')).toEqual({ action: 'deny' });
    expect(shell.openExternal.mock.calls).toEqual([['https://docs.example.com/guide']]);
    expect(fake.windows).toHaveLength(1);
  });

  it('keeps navigation inside the Cairn origin', async () => {
    const window = await startReady();
    const navigate = (url: string) => {
      const event = { url, isMainFrame: true, preventDefault: vi.fn() };
      window.webContents.emit('will-navigate', event);
      return event.preventDefault;
    };
    expect(navigate('http://localhost:3000/dashboard/workspaces')).not.toHaveBeenCalled();
    expect(navigate('https://cardano.org/')).toHaveBeenCalled();
    expect(navigate('http://evil.example/')).toHaveBeenCalled();
    expect(shell.openExternal.mock.calls).toEqual([['https://cardano.org/']]);
  });
});

describe('startCairnDesktop: deep links', () => {
  it('registers the cairn:// protocol', async () => {
    await startReady();
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('cairn');
  });

  it('registers electron with the app path in development', async () => {
    await startReady({ defaultApp: true, execPath: '/repo/node_modules/electron/dist/electron', argv: ['electron', '.'] });
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('cairn', '/repo/node_modules/electron/dist/electron', [
      path.resolve('.'),
    ]);
  });

  it('loads the linked page when a second instance passes a deep link', async () => {
    const window = await startReady();
    window.minimized = true;
    app.emit('second-instance', {}, ['/opt/Cairn/cairn', '--allow-file-access-from-files', 'cairn://open?path=/dashboard/project/p1'], '/');
    expect(window.loadURL).toHaveBeenLastCalledWith('http://localhost:3000/dashboard/project/p1');
    expect(window.restore).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
    expect(fake.windows).toHaveLength(1);
  });

  it('only focuses the window when a second instance has no link', async () => {
    const window = await startReady();
    app.emit('second-instance', {}, ['/opt/Cairn/cairn'], '/');
    expect(window.loadURL).toHaveBeenCalledTimes(1);
    expect(window.focus).toHaveBeenCalled();
  });

  it.each([
    'cairn://open?path=//evil.example/dashboard',
    'cairn://open?path=https://evil.example/',
    'cairn://open?path=javascript:alert(1)',
    'cairn://open?path=/\\evil.example',
    'cairn://evil.example?path=/dashboard',
  ])('ignores the hostile deep link %s', async (link) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const window = await startReady();
    app.emit('second-instance', {}, ['/opt/Cairn/cairn', link], '/');
    app.emit('open-url', { preventDefault: vi.fn() }, link);
    expect(window.loadURL).toHaveBeenCalledTimes(1);
    expect(window.loadURL).toHaveBeenCalledWith('http://localhost:3000/dashboard');
    expect(shell.openExternal).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('opens the linked page at launch on Windows and Linux', async () => {
    const window = await startReady({ argv: ['/opt/Cairn/cairn', 'cairn://open?path=/dashboard/webhooks/add'] });
    expect(window.loadURL).toHaveBeenCalledTimes(1);
    expect(window.loadURL).toHaveBeenCalledWith('http://localhost:3000/dashboard/webhooks/add');
  });

  it('handles macOS open-url before and after ready', async () => {
    startCairnDesktop(launch({ platform: 'darwin' }));
    const early = { preventDefault: vi.fn() };
    app.emit('open-url', early, 'cairn://open?path=/dashboard/settings');
    expect(early.preventDefault).toHaveBeenCalled();
    expect(fake.windows).toHaveLength(0);

    await fake.becomeReady();
    const window = fake.windows[0]!;
    expect(window.loadURL).toHaveBeenCalledTimes(1);
    expect(window.loadURL).toHaveBeenCalledWith('http://localhost:3000/dashboard/settings');

    app.emit('open-url', { preventDefault: vi.fn() }, 'cairn://open?path=/dashboard/workspaces');
    expect(window.loadURL).toHaveBeenLastCalledWith('http://localhost:3000/dashboard/workspaces');

    // With every window closed (macOS keeps the app running), a link opens a new window.
    window.close();
    app.emit('open-url', { preventDefault: vi.fn() }, 'cairn://open?path=/dashboard/subscription');
    expect(fake.windows).toHaveLength(2);
    expect(fake.windows[1]!.loadURL).toHaveBeenCalledWith('http://localhost:3000/dashboard/subscription');
  });
});

describe('startCairnDesktop: bridge, permissions and load failures', () => {
  it('answers app:version to Cairn pages only', async () => {
    await startReady();
    const handler = fake.ipcHandlers.get('app:version');
    expect(handler).toBeDefined();
    expect(handler!({ senderFrame: { url: 'http://localhost:3000/dashboard' } })).toBe('0.1.0');
    expect(() => handler!({ senderFrame: { url: 'https://evil.example/' } })).toThrow(/not a Cairn page/);
    expect([...fake.ipcHandlers.keys()].sort()).toEqual(['app:version', 'auth:sign-in', 'console:send', 'keychain:keep', 'keychain:list', 'keychain:remove', 'sandbox:open']);
  });

  it('opens the JSONPath sandbox in one window of its own, without the bridge, served from the packaged web build', async () => {
    await startReady();
    const open = fake.ipcHandlers.get('sandbox:open')!;
    const page = { senderFrame: { url: 'http://localhost:3000/dashboard' } };
    open(page);
    open(page);
    expect(fake.windows).toHaveLength(2);
    const sandbox = fake.windows[1]!;
    expect(sandbox.options.webPreferences).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true });
    expect(sandbox.options.webPreferences).not.toHaveProperty('preload');
    expect(sandbox.loadURL).toHaveBeenCalledWith('cairn-app://app/jsonpath-sandbox');
    expect(sandbox.focus).toHaveBeenCalled();
    const serve = fake.protocolHandlers.get('cairn-app')!;
    expect((await serve({ url: 'cairn-app://app/../../etc/passwd' })).status).toBe(404);
    expect((await serve({ url: 'cairn-app://app/api/me' })).status).toBe(404);
  });

  it('takes a cairn://auth/callback link only for a sign-in it started, never as a page', async () => {
    const window = await startReady();
    app.emit('second-instance', {}, ['/opt/Cairn/cairn', 'cairn://auth/callback?code=abc&state=' + 'x'.repeat(32)]);
    expect(window.loadURL).toHaveBeenCalledTimes(1);
  });

  it('denies web permissions except clipboard writes from Cairn', async () => {
    await startReady();
    const requestHandler = session.defaultSession.setPermissionRequestHandler.mock.calls[0]?.[0] as (
      contents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
      details: { requestingUrl: string },
    ) => void;
    const checkHandler = session.defaultSession.setPermissionCheckHandler.mock.calls[0]?.[0] as (
      contents: unknown,
      permission: string,
      origin: string,
    ) => boolean;

    const request = (permission: string, requestingUrl: string) => {
      const callback = vi.fn();
      requestHandler(null, permission, callback, { requestingUrl });
      return callback.mock.calls[0]?.[0];
    };
    expect(request('media', 'http://localhost:3000/dashboard')).toBe(false);
    expect(request('clipboard-sanitized-write', 'http://localhost:3000/dashboard')).toBe(true);
    expect(request('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(checkHandler(null, 'geolocation', 'http://localhost:3000')).toBe(false);
    expect(checkHandler(null, 'clipboard-sanitized-write', 'http://localhost:3000')).toBe(true);
  });

  it('offers to retry when the server cannot be reached', async () => {
    const window = await startReady();
    window.webContents.emit('did-fail-load', {}, -102, 'ERR_CONNECTION_REFUSED', 'http://localhost:3000/dashboard', true);
    expect(dialog.showMessageBox).toHaveBeenCalledTimes(1);
    await flush();
    expect(window.loadURL).toHaveBeenCalledTimes(2);
    expect(window.loadURL).toHaveBeenLastCalledWith('http://localhost:3000/dashboard');

    dialog.showMessageBox.mockResolvedValueOnce({ response: 1, checkboxChecked: false });
    window.webContents.emit('did-fail-load', {}, -102, 'ERR_CONNECTION_REFUSED', 'http://localhost:3000/dashboard', true);
    await flush();
    expect(app.quit).toHaveBeenCalled();
  });

  it('ignores aborted loads and frame failures', async () => {
    const window = await startReady();
    window.webContents.emit('did-fail-load', {}, -3, 'ERR_ABORTED', 'http://localhost:3000/dashboard', true);
    window.webContents.emit('did-fail-load', {}, -105, 'ERR_NAME_NOT_RESOLVED', 'https://hcaptcha.com/x', false);
    expect(dialog.showMessageBox).not.toHaveBeenCalled();
  });
});
