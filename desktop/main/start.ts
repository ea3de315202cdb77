// Wires the pure modules next to this file to Electron. Every decision lives in those modules.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Notification, protocol, session, shell } from 'electron';
import { sendConsoleRequest, gatewayUrlFrom } from './api-console';
import { CairnApi } from './cairn-api';
import { readDesktopConfig, type DesktopConfig } from './config';
import { Keychain } from './keychain';
import { keepProjectKey, listKeptKeys } from './kept-keys';
import { LOCAL_SCHEME, SANDBOX_URL, resolveLocalFile } from './local-pages';
import { NoticeStream, NoticeThrottle, nativeNotification } from './notices';
import { DesktopSignIn, SESSION_COOKIE_NAME, deviceName, isAuthCallbackLink } from './sign-in';
import { findDeepLinkInArgv, parseDeepLink, protocolClientArgs } from './deep-links';
import { guardWebContents } from './guard-web-contents';
import { registerBridgeHandlers } from './ipc';
import { isInternalNavigation } from './links';
import { describeLoadFailure } from './load-failure';
import { isPermissionAllowed } from './permissions';
import { createSandboxWindowOptions, createWindowOptions, preloadPathFor } from './window-options';

export interface DesktopProcess {
  env: Readonly<Record<string, string | undefined>>;
  argv: readonly string[];
  platform: NodeJS.Platform;
  execPath: string;
  defaultApp: boolean;
}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function openExternal(url: string): void {
  shell.openExternal(url).catch((error: unknown) => {
    console.error(`Could not open the link in the system browser: ${errorMessage(error)}`);
  });
}

export function startCairnDesktop(proc: DesktopProcess): void {
  let config: DesktopConfig;
  try {
    config = readDesktopConfig(proc.env);
  } catch (error) {
    dialog.showErrorBox('Cairn cannot start', errorMessage(error));
    app.exit(1);
    return;
  }
  const { cairnOrigin } = config;

  // A second launch (the OS handing over a cairn:// link, for one) passes its argv to this instance and quits.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }

  app.enableSandbox();
  // The sandbox window's pages come from the packaged web build on a scheme of our own (see local-pages.ts).
  protocol.registerSchemesAsPrivileged([{ scheme: LOCAL_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
  const protocolClient = protocolClientArgs(proc);
  if (protocolClient.development) {
    app.setAsDefaultProtocolClient(protocolClient.scheme, protocolClient.development.execPath, protocolClient.development.args);
  } else {
    app.setAsDefaultProtocolClient(protocolClient.scheme);
  }

  let mainWindow: BrowserWindow | null = null;
  let loadFailureShown = false;
  // A link that arrives before the window exists (first launch, macOS open-url before ready) waits here.
  let pendingUrl: string | null = null;

  const load = (window: BrowserWindow, url: string): void => {
    // Failures are reported through did-fail-load; the promise would only repeat them.
    window.loadURL(url).catch(() => undefined);
  };

  const showLoadFailure = (window: BrowserWindow, message: string, failedUrl: string): void => {
    if (loadFailureShown) return;
    loadFailureShown = true;
    dialog
      .showMessageBox(window, {
        type: 'error',
        title: 'Cairn',
        message: 'Cairn could not load',
        detail: message,
        buttons: ['Retry', 'Quit'],
        defaultId: 0,
        cancelId: 1,
      })
      .then(({ response }) => {
        loadFailureShown = false;
        if (response !== 0) {
          app.quit();
          return;
        }
        if (!window.isDestroyed()) load(window, isInternalNavigation(failedUrl, cairnOrigin) ? failedUrl : config.cairnUrl);
      })
      .catch((error: unknown) => {
        loadFailureShown = false;
        console.error(`Could not show the load error: ${errorMessage(error)}`);
      });
  };

  const createMainWindow = (url: string): BrowserWindow => {
    const window = new BrowserWindow(createWindowOptions(preloadPathFor(app.getAppPath())));
    guardWebContents(window.webContents, cairnOrigin, openExternal);
    window.webContents.on('did-fail-load', (_event, errorCode, errorDescription, validatedURL, isMainFrame) => {
      const message = describeLoadFailure({ errorCode, errorDescription, url: validatedURL, isMainFrame }, cairnOrigin);
      if (message !== null) showLoadFailure(window, message, validatedURL);
    });
    window.on('closed', () => {
      if (mainWindow === window) mainWindow = null;
    });
    mainWindow = window;
    load(window, url);
    return window;
  };

  const focus = (window: BrowserWindow): void => {
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };

  const showPage = (url: string): void => {
    if (!app.isReady()) {
      pendingUrl = url;
      return;
    }
    if (mainWindow === null || mainWindow.isDestroyed()) {
      createMainWindow(url);
      return;
    }
    load(mainWindow, url);
    focus(mainWindow);
  };

  const sessionCookie = async (): Promise<string | null> => {
    const [cookie] = await session.defaultSession.cookies.get({ url: cairnOrigin, name: SESSION_COOKIE_NAME });
    return cookie ? `${cookie.name}=${cookie.value}` : null;
  };
  const api = new CairnApi(cairnOrigin, sessionCookie);
  const keychain = new Keychain(cairnOrigin);
  const gatewayUrl = gatewayUrlFrom(api);
  const desktopSignIn = new DesktopSignIn({
    cairnOrigin,
    openExternal: (url) => shell.openExternal(url),
    // The browser's consent page names this computer, so the user can tell this sign-in from someone else's.
    deviceName: deviceName(os.hostname(), process.platform),
    // Without the OS's registration (a Linux desktop without the .desktop file) cairn:// links never arrive.
    deepLinksDelivered: () =>
      protocolClient.development
        ? app.isDefaultProtocolClient(protocolClient.scheme, protocolClient.development.execPath, protocolClient.development.args)
        : app.isDefaultProtocolClient(protocolClient.scheme),
  });

  let sandboxWindow: BrowserWindow | null = null;
  const openSandbox = (): void => {
    if (sandboxWindow !== null && !sandboxWindow.isDestroyed()) {
      focus(sandboxWindow);
      return;
    }
    const window = new BrowserWindow(createSandboxWindowOptions());
    guardWebContents(window.webContents, cairnOrigin, openExternal);
    window.on('closed', () => {
      if (sandboxWindow === window) sandboxWindow = null;
    });
    sandboxWindow = window;
    load(window, SANDBOX_URL);
  };

  const handleDeepLink = (link: string): void => {
    if (isAuthCallbackLink(link)) {
      if (!desktopSignIn.handleCallback(link)) console.warn('Cairn ignored a sign-in link it did not ask for.');
      return;
    }
    const target = parseDeepLink(link, cairnOrigin);
    if (target === null) {
      console.warn('Cairn ignored a deep link that does not point to a Cairn page.');
      return;
    }
    showPage(target);
  };

  const launchLink = findDeepLinkInArgv(proc.argv);
  if (launchLink !== null) handleDeepLink(launchLink);

  // macOS delivers links through open-url, also at launch: the listener must exist before ready.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    handleDeepLink(url);
  });

  // Windows and Linux start a second process with the link in its argv; it lands here.
  app.on('second-instance', (_event, argv) => {
    const link = findDeepLinkInArgv(argv);
    if (link !== null) {
      handleDeepLink(link);
      return;
    }
    if (mainWindow !== null && !mainWindow.isDestroyed()) focus(mainWindow);
    else if (app.isReady()) createMainWindow(config.cairnUrl);
  });

  app.on('window-all-closed', () => {
    if (proc.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (app.isReady() && (mainWindow === null || mainWindow.isDestroyed())) createMainWindow(config.cairnUrl);
  });

  app
    .whenReady()
    .then(() => {
      const allow = (permission: string, url: string | null | undefined) => isPermissionAllowed(permission, url, cairnOrigin);
      session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => {
        callback(allow(permission, details.requestingUrl));
      });
      session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) => allow(permission, requestingOrigin));

      protocol.handle(LOCAL_SCHEME, async (request) => {
        const found = resolveLocalFile(request.url, path.join(app.getAppPath(), 'dist', 'web'));
        if ('status' in found) return new Response('Not found.', { status: 404 });
        try {
          return new Response(await fs.readFile(found.file), { headers: { 'content-type': found.type } });
        } catch {
          return new Response('Not found.', { status: 404 });
        }
      });

      registerBridgeHandlers(ipcMain, cairnOrigin, {
        'app:version': () => app.getVersion(),
        'auth:sign-in': async () => {
          const { cookie, email } = await desktopSignIn.signIn();
          await session.defaultSession.cookies.set({ url: cairnOrigin, ...cookie });
          showPage(config.cairnUrl);
          return { email };
        },
        'keychain:keep': (projectUuid) => keepProjectKey(api, keychain, projectUuid),
        'keychain:list': () => listKeptKeys(api, keychain),
        'keychain:remove': (projectUuid) => keychain.remove(projectUuid),
        'console:send': (request) => sendConsoleRequest(request, { keychain, gatewayUrl }),
        'sandbox:open': () => openSandbox(),
      });

      // Webhook trouble from the server's event stream, as native notifications: one per webhook per hour; a
      // click opens that webhook's page with its delivery history.
      if (Notification.isSupported()) {
        const throttle = new NoticeThrottle();
        const notices = new NoticeStream({
          cairnOrigin,
          sessionCookie,
          onNotice: (notice) => {
            if (!throttle.allow(notice.webhookId)) return;
            const shown = nativeNotification(notice, cairnOrigin);
            const notification = new Notification({ title: shown.title, body: shown.body });
            notification.on('click', () => showPage(shown.url));
            notification.show();
          },
        });
        notices.start();
        app.on('before-quit', () => void notices.stop());
      }

      const firstUrl = pendingUrl ?? config.cairnUrl;
      pendingUrl = null;
      if (mainWindow === null) createMainWindow(firstUrl);
    })
    .catch((error: unknown) => {
      console.error(`Cairn could not start: ${errorMessage(error)}`);
      app.exit(1);
    });
}
