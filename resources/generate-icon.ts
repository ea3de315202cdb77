// Draws Cairn's app icon (a stack of stones on a rounded teal square) and writes it as resources/icon.png.
// Only node:zlib is needed: the PNG is encoded by hand. Run with `npx tsx resources/generate-icon.ts`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 1024;
// 4 × 4 samples per pixel smooth the edges.
const SAMPLES = 4;

type Rgba = [number, number, number, number];

interface Stone {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  color: Rgba;
}

// Bottom to top; each stone casts a soft shadow onto the one below.
const stones: Stone[] = [
  { cx: 512, cy: 716, rx: 290, ry: 104, color: [233, 236, 239, 255] },
  { cx: 498, cy: 560, rx: 222, ry: 86, color: [206, 212, 218, 255] },
  { cx: 524, cy: 420, rx: 160, ry: 70, color: [222, 226, 230, 255] },
  { cx: 506, cy: 300, rx: 104, ry: 56, color: [248, 249, 250, 255] },
];

// The rounded square leaves a margin, as macOS expects of an app icon.
const TILE = { x0: 100, y0: 100, x1: 924, y1: 924, radius: 184 };

function insideTile(x: number, y: number): boolean {
  const { x0, y0, x1, y1, radius } = TILE;
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const dx = x < x0 + radius ? x0 + radius - x : x > x1 - radius ? x - (x1 - radius) : 0;
  const dy = y < y0 + radius ? y0 + radius - y : y > y1 - radius ? y - (y1 - radius) : 0;
  return dx * dx + dy * dy <= radius * radius;
}

const insideEllipse = (x: number, y: number, s: Stone, dy = 0): boolean =>
  ((x - s.cx) / s.rx) ** 2 + ((y - s.cy - dy) / s.ry) ** 2 <= 1;

function blend(under: Rgba, over: Rgba): Rgba {
  const a = over[3] / 255;
  return [
    under[0] * (1 - a) + over[0] * a,
    under[1] * (1 - a) + over[1] * a,
    under[2] * (1 - a) + over[2] * a,
    Math.max(under[3], over[3]),
  ];
}

function colorAt(x: number, y: number): Rgba {
  if (!insideTile(x, y)) return [0, 0, 0, 0];
  // Vertical gradient from teal to deep teal.
  const t = (y - TILE.y0) / (TILE.y1 - TILE.y0);
  let color: Rgba = [32 + (12 - 32) * t, 128 + (70 - 128) * t, 122 + (72 - 122) * t, 255];
  for (const stone of stones) {
    if (insideEllipse(x, y, stone, 18)) color = blend(color, [0, 0, 0, 70]);
    if (insideEllipse(x, y, stone)) {
      // Lighter on top, darker underneath: a hint of volume.
      const shade = 1 - 0.18 * Math.max(0, (y - stone.cy) / stone.ry);
      color = [stone.color[0] * shade, stone.color[1] * shade, stone.color[2] * shade, 255];
    }
  }
  return color;
}

function render(): Buffer {
  const rowLength = SIZE * 4 + 1;
  const raw = Buffer.alloc(rowLength * SIZE);
  for (let py = 0; py < SIZE; py += 1) {
    raw[py * rowLength] = 0; // filter type: none
    for (let px = 0; px < SIZE; px += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < SAMPLES; sy += 1) {
        for (let sx = 0; sx < SAMPLES; sx += 1) {
          const c = colorAt(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES);
          // Average premultiplied colour so transparent samples do not darken the edge.
          r += c[0] * c[3];
          g += c[1] * c[3];
          b += c[2] * c[3];
          a += c[3];
        }
      }
      const offset = py * rowLength + 1 + px * 4;
      raw[offset] = a === 0 ? 0 : Math.round(r / a);
      raw[offset + 1] = a === 0 ? 0 : Math.round(g / a);
      raw[offset + 2] = a === 0 ? 0 : Math.round(b / a);
      raw[offset + 3] = Math.round(a / (SAMPLES * SAMPLES));
    }
  }
  return raw;
}

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

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(width: number, height: number, filteredRgbaRows: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  header[10] = 0; // compression
  header[11] = 0; // filter method
  header[12] = 0; // no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(filteredRgbaRows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const target = path.join(here, 'icon.png');
writeFileSync(target, encodePng(SIZE, SIZE, render()));
console.log(`wrote ${path.relative(process.cwd(), target)} (${SIZE}x${SIZE})`);
