// Electron grants every web permission by default; the dashboard needs only to write to the clipboard
// (copy buttons for project ids and webhook tokens), and only on the Cairn origin.
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function isPermissionAllowed(permission: string, requestingUrl: string | null | undefined, cairnOrigin: string): boolean {
  if (!ALLOWED_PERMISSIONS.has(permission) || !requestingUrl) return false;
  try {
    return new URL(requestingUrl).origin === cairnOrigin;
  } catch {
    return false;
  }
}
