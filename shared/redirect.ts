const DEFAULT_REDIRECT = '/dashboard';

/**
 * Accepts only same-origin relative paths. Anything that a browser could read as another origin
 * (`//host`, `/\host`, `https://host`, control characters) falls back to the default.
 */
export function safeRedirect(input: unknown, fallback: string = DEFAULT_REDIRECT): string {
  if (typeof input !== 'string' || input.length === 0 || input.length > 2048) return fallback;
  if (!input.startsWith('/') || input.startsWith('//')) return fallback;
  // Browsers treat a backslash like a slash, and strip tabs/newlines before parsing.
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(input)) return fallback;
  try {
    const base = 'http://cairn.invalid';
    const url = new URL(input, base);
    if (url.origin !== base) return fallback;
    // Dot segments normalise away ('/.//evil.com' becomes '//evil.com'): the result must still be
    // a path, not a protocol-relative or backslash address another origin could be read from.
    const path = url.pathname + url.search + url.hash;
    if (path.startsWith('//') || path.startsWith('/\\') || path.includes('\\')) return fallback;
    return path;
  } catch {
    return fallback;
  }
}
