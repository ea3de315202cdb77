import path from 'node:path';
import type { BrowserWindowConstructorOptions } from 'electron';

/** Where desktop/build.ts writes the preload bundle, relative to the app root (also inside app.asar). */
export function preloadPathFor(appPath: string): string {
  return path.join(appPath, 'desktop', 'preload', 'dist', 'preload.cjs');
}

export function createWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    title: 'Cairn',
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    backgroundColor: '#ffffff',
    webPreferences: {
      preload: preloadPath,
      // The page is a web app served over the network: it gets no Node.js, runs in Chromium's sandbox and sees
      // the bridge only through contextBridge.
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  };
}

/** The JSONPath sandbox's window: local pages only, no preload, so no bridge at all. */
export function createSandboxWindowOptions(): BrowserWindowConstructorOptions {
  const options = createWindowOptions('');
  const { preload: _preload, ...webPreferences } = options.webPreferences ?? {};
  return { ...options, title: 'Cairn JSONPath sandbox', width: 1100, height: 760, minWidth: 360, minHeight: 480, webPreferences };
}
