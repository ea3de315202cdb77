import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

describe('resources/icon.png', () => {
  const png = readFileSync(path.resolve('resources/icon.png'));

  it('is a well-formed RGBA PNG of at least 512x512 (electron-builder derives every platform icon from it)', () => {
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    const chunks: { type: string; data: Buffer }[] = [];
    for (let offset = 8; offset < png.length; ) {
      const length = png.readUInt32BE(offset);
      const type = png.toString('ascii', offset + 4, offset + 8);
      const data = png.subarray(offset + 8, offset + 8 + length);
      expect(png.readUInt32BE(offset + 8 + length), `CRC of ${type}`).toBe(crc32(png.subarray(offset + 4, offset + 8 + length)));
      chunks.push({ type, data });
      offset += 12 + length;
    }
    expect(chunks[0]?.type).toBe('IHDR');
    expect(chunks.at(-1)?.type).toBe('IEND');

    const header = chunks[0]!.data;
    const width = header.readUInt32BE(0);
    const height = header.readUInt32BE(4);
    expect(width).toBe(height);
    expect(width).toBeGreaterThanOrEqual(512);
    expect([header[8], header[9]]).toEqual([8, 6]);

    const pixels = inflateSync(Buffer.concat(chunks.filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data)));
    expect(pixels.length).toBe(height * (width * 4 + 1));
  });
});
