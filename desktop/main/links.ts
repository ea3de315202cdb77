// Where a URL the page tries to open may go: stay in the window (Cairn's own origin), the system browser
// (after the allow-list check), or nowhere.

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

const isWebUrl = (url: URL): boolean => url.protocol === 'http:' || url.protocol === 'https:';

/** True when `url` is a page of the Cairn server itself (same scheme, host and port). */
export function isInternalNavigation(url: string, cairnOrigin: string): boolean {
  const parsed = parseUrl(url);
  return parsed !== null && isWebUrl(parsed) && parsed.origin === cairnOrigin;
}

/**
 * The normalised URL to hand to the system browser, or null when the link must not leave the app:
 * any https URL, or an http URL on the Cairn origin. javascript:, file:, data:, custom schemes, plain http to
 * other hosts and URLs carrying credentials are refused.
 */
export function toAllowedExternal(url: string, cairnOrigin: string): string | null {
  const parsed = parseUrl(url);
  if (parsed === null || parsed.username !== '' || parsed.password !== '') return null;
  if (parsed.protocol === 'https:') return parsed.href;
  if (parsed.protocol === 'http:' && parsed.origin === cairnOrigin) return parsed.href;
  return null;
}

export function isAllowedExternal(url: string, cairnOrigin: string): boolean {
  return toAllowedExternal(url, cairnOrigin) !== null;
}

export type LinkDecision = { action: 'allow' } | { action: 'open-external'; url: string } | { action: 'block' };

/** A main-frame navigation (link click, location change, server redirect) of the Cairn window. */
export function decideNavigation(url: string, cairnOrigin: string): LinkDecision {
  if (isInternalNavigation(url, cairnOrigin)) return { action: 'allow' };
  return decideWindowOpen(url, cairnOrigin);
}

/** A request for a new window (target=_blank, window.open): never a new Electron window. */
export function decideWindowOpen(url: string, cairnOrigin: string): LinkDecision {
  const external = toAllowedExternal(url, cairnOrigin);
  return external === null ? { action: 'block' } : { action: 'open-external', url: external };
}
