import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Unit, integration and browser tests wait for the event they stand for (vi.waitFor, expect.poll, a promise the
// code resolves, KeyCache.catchUp …) or move an injected clock, never for time to pass: a fixed sleep
// is either too short on a busy machine or wasted on an idle one. A pause of up to 50 ms (pacing a
// load loop, the interval of a poll for a condition) is fine; anything longer fails here.
const root = path.resolve(import.meta.dirname, '../../..');
const MAX_MS = 50;


/** A fixed pause with a literal duration: sleep(300), delay(300), settle(300), setTimeout(r, 300), setTimeout(resolve, 1_000), waitForTimeout(300). */
const SLEEP = /\b(?:sleep|delay|settle|waitForTimeout)\(\s*([\d_]+)\s*\)|\bsetTimeout\(\s*(?:r|resolve)\s*,\s*([\d_]+)\s*\)/g;

function longSleeps(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { recursive: true })) {
    const file = path.join(dir, String(entry));
    // This file names pauses as examples.
    if (!/\.tsx?$/.test(file) || path.join(root, file) === import.meta.filename) continue;
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(SLEEP)) {
        const ms = Number((m[1] ?? m[2])!.replaceAll('_', ''));
        const where = `${file}:${i + 1}`;
        if (ms > MAX_MS) found.push(`${where}: ${line.trim()}`);
      }
    });
  }
  return found;
}

describe('waiting in tests', () => {
  it.each(['tests/unit', 'tests/integration', 'tests/helpers', 'tests/e2e'])(`%s sleeps no longer than ${MAX_MS} ms: it waits for the event instead`, (dir) => {
    expect(longSleeps(dir)).toEqual([]);
  });

  it('finds what it is meant to find', () => {
    const probe = ['await sleep(300);', 'await new Promise((r) => setTimeout(r, 1_100));', 'await page.waitForTimeout(200);', 'await sleep(20);', 'setTimeout(() => res.end(), 500);'];
    const hits = probe.flatMap((l) => [...l.matchAll(SLEEP)].map((m) => Number((m[1] ?? m[2])!.replaceAll('_', ''))));
    expect(hits.filter((ms) => ms > MAX_MS)).toEqual([300, 1100, 200]);
  });
});
