import { describe, expect, it } from 'vitest';
import { describeDevice } from '../../../../../server/features/accounts/user-agent';

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ELECTRON_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Cairn/0.1.0 Chrome/130.0.6723.191 Electron/33.2.1 Safari/537.36';

describe('describeDevice', () => {
  it.each([
    [CHROME_LINUX, 'Chrome 131 on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 'Safari 18 on macOS'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Mobile Safari 17 on iOS'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge 131 on Windows'],
    // The desktop app's window is Electron: named as the app, not as the Chromium inside it.
    [ELECTRON_MAC, 'Cairn desktop on macOS'],
  ])('%s → %s', (ua, expected) => {
    expect(describeDevice(ua)).toBe(expected);
  });

  it('names a session the desktop app signed in to as the app, whatever client made the exchange', () => {
    expect(describeDevice('node', { desktop: true })).toBe('Cairn desktop');
    expect(describeDevice('node', { desktop: true, deviceName: "Jane's laptop (Windows)" })).toBe('Cairn desktop on Windows');
    expect(describeDevice(CHROME_LINUX, { desktop: true, deviceName: "Jane's laptop (macOS)" })).toBe('Cairn desktop on Linux');
  });

  it('says so when it cannot tell', () => {
    expect(describeDevice(null)).toBe('Unknown browser');
    expect(describeDevice('')).toBe('Unknown browser');
    expect(describeDevice('curl/8.5.0')).toBe('Unknown browser');
  });
});
