// Wires the pure modules next to this file to Electron. Every decision lives in those modules.
import { app, BrowserWindow, dialog, ipcMain, session, shell } from 'electron';
import { readDesktopConfig, type DesktopConfig } from './config';
import { findDeepLinkInArgv, parseDeepLink, protocolClientArgs } from './deep-links';
import { guardWebContents } from './guard-web-contents';
import { registerBridgeHandlers } from './ipc';
import { isInternalNavigation } from './links';
import { describeLoadFailure } from './load-failure';
import { isPermissionAllowed } from './permissions';
import { createWindowOptions, preloadPathFor } from './window-options';

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

  const handleDeepLink = (link: string): void => {
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

      registerBridgeHandlers(ipcMain, cairnOrigin, {
        'app:version': () => app.getVersion(),
      });

      const firstUrl = pendingUrl ?? config.cairnUrl;
      pendingUrl = null;
      if (mainWindow === null) createMainWindow(firstUrl);
    })
    .catch((error: unknown) => {
      console.error(`Cairn could not start: ${errorMessage(error)}`);
      app.exit(1);
    });
}
