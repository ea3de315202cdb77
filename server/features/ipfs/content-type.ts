// The gateway's Content-Type from an object's first bytes (and the path's extension as a hint).
// HTML and SVG are served as text/plain: the gateway's origin must not run scripts someone uploaded.

const MAGIC: Array<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], 'application/pdf'],
  [[0x50, 0x4b, 0x03, 0x04], 'application/zip'],
  [[0x1f, 0x8b], 'application/gzip'],
  [[0x49, 0x44, 0x33], 'audio/mpeg'],
  [[0x4f, 0x67, 0x67, 0x53], 'audio/ogg'],
  [[0x1a, 0x45, 0xdf, 0xa3], 'video/webm'],
];

const startsWith = (b: Uint8Array, sig: number[], at = 0) => b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);

export function sniffContentType(head: Uint8Array, path = ''): string {
  for (const [sig, type] of MAGIC) if (startsWith(head, sig)) return type;
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (startsWith(head, [0x66, 0x74, 0x79, 0x70], 4)) return 'video/mp4';
  if (head.length === 0) return 'text/plain; charset=utf-8';
  // Text when it decodes as UTF-8 without control characters other than whitespace.
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.length === 512 ? trimPartialUtf8(head) : head);
  } catch {
    return 'application/octet-stream';
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x09 || (c > 0x0d && c < 0x20)) return 'application/octet-stream';
  }
  const start = text.trimStart();
  if (/\.json$/i.test(path) || ((start.startsWith('{') || start.startsWith('[')) && isJsonish(start))) return 'application/json';
  if (/\.css$/i.test(path)) return 'text/css; charset=utf-8';
  return 'text/plain; charset=utf-8';
}

/** A 512-byte head may cut a multi-byte character: drop the partial tail before decoding strictly. */
function trimPartialUtf8(b: Uint8Array): Uint8Array {
  let end = b.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const c = b[end - i]!;
    if ((c & 0xc0) === 0x80) continue;
    if (c >= 0xc0) end -= i;
    break;
  }
  return b.subarray(0, end);
}

const isJsonish = (s: string) => /^[[{]\s*("|\[|\{|\]|\}|-?\d|true|false|null)/.test(s);
