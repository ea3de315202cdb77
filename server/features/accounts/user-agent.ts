import { UAParser } from 'ua-parser-js';

/** The OS a desktop device name ends with, e.g. "Jane's laptop (macOS)". */
const osInDeviceName = (name: string | null): string | null => /\(([^()]+)\)\s*$/.exec(name ?? '')?.[1] ?? null;

/**
 * What signed in, in a few words for the list of sessions: 'Chrome 131 on Linux', 'Safari 18 on macOS',
 * 'Cairn desktop on Windows'. The desktop app (flagged at its sign-in, or Electron's user agent) is
 * named as the app, not as the Chromium inside it.
 */
export function describeDevice(userAgent: string | null, opts: { desktop?: boolean; deviceName?: string | null } = {}): string {
  const result = new UAParser(userAgent ?? '').getResult();
  const os = result.os.name ?? null;
  const browser = result.browser.name ?? null;
  if (opts.desktop || browser === 'Electron') {
    const desktopOs = os ?? osInDeviceName(opts.deviceName ?? null);
    return desktopOs ? `Cairn desktop on ${desktopOs}` : 'Cairn desktop';
  }
  if (!browser) return os ? `Unknown browser on ${os}` : 'Unknown browser';
  const named = result.browser.major ? `${browser} ${result.browser.major}` : browser;
  return os ? `${named} on ${os}` : named;
}
