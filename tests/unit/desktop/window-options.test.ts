import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWindowOptions, preloadPathFor } from '../../../desktop/main/window-options';

describe('createWindowOptions', () => {
  it('isolates the page from Node.js and the preload', () => {
    const options = createWindowOptions('/app/desktop/preload/dist/preload.cjs');
    expect(options.webPreferences).toMatchObject({
      preload: '/app/desktop/preload/dist/preload.cjs',
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(options.title).toBe('Cairn');
  });

  it('finds the bundled preload under the app path, also inside app.asar', () => {
    expect(preloadPathFor('/opt/Cairn/resources/app.asar')).toBe(
      path.join('/opt/Cairn/resources/app.asar', 'desktop', 'preload', 'dist', 'preload.cjs'),
    );
  });
});
