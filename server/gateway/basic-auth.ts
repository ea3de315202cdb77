/** The password of an `Authorization: Basic …` header, or null. */
export function basicAuthPassword(header: string): string | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i === -1 ? null : decoded.slice(i + 1) || null;
}
