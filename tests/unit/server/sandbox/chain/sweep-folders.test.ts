// The sweep's folders under $DATA_DIR/sandbox-chains (server/sandbox/chain/sweep-folders.ts): a
// worker keeps its own folder marked in use and removes its network's folders of chains simulated
// differently once nothing wrote or marked them for a day (a week for a folder never marked); a
// folder used within that time (a process of another version still running), another network's,
// and anything not named as a sweep's folder are left as they are.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { IN_USE_FILE, markInUse, removeUnusedFolders, UNMARKED_UNUSED_AFTER_MS, UNUSED_AFTER_MS, unusedFolders } from '../../../../../server/sandbox/chain/sweep-folders';
import { testChain } from './support';

const root = mkdtempSync(path.join(tmpdir(), 'cairn-sweep-folders-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const HOUR = 60 * 60_000;
const NOW = Date.UTC(2026, 2, 1, 12);

/**
 * A folder under `under` holding a chunk's file, everything in it last written `ageMs` before NOW,
 * and marked in use `markedAgeMs` before NOW if that is given.
 */
function folder(under: string, name: string, ageMs: number, files: string[] = ['chunk-0.bin'], markedAgeMs?: number): string {
  const dir = path.join(under, name);
  mkdirSync(dir, { recursive: true });
  const t = new Date(NOW - ageMs);
  for (const f of files) {
    writeFileSync(path.join(dir, f), Buffer.alloc(1000));
    utimesSync(path.join(dir, f), t, t);
  }
  if (markedAgeMs !== undefined) markInUse(dir, new Date(NOW - markedAgeMs));
  utimesSync(dir, t, t);
  return dir;
}

describe('the sweep\'s folders', () => {
  it('finds the network\'s folders nothing used for a day, its own and the others left', () => {
    const under = path.join(root, 'find');
    const own = 'preprod-00000000000000000000';
    folder(under, own, 30 * 24 * HOUR);
    // Marked last a day and an hour ago: unused.
    folder(under, 'preprod-11111111111111111111', 10 * 24 * HOUR, ['chunk-0.bin'], UNUSED_AFTER_MS + HOUR);
    // Its chunks are old, its mark renewed an hour ago: a process of another version still runs.
    folder(under, 'preprod-22222222222222222222', 10 * 24 * HOUR, ['chunk-0.bin'], HOUR);
    // Written an hour ago, never marked (a version that did not mark): in use.
    folder(under, 'preprod-33333333333333333333', 10 * 24 * HOUR);
    utimesSync(path.join(under, 'preprod-33333333333333333333', 'chunk-0.bin'), new Date(NOW - HOUR), new Date(NOW - HOUR));
    // Never marked, written two days ago (such a process at slow blocks writes a chunk a day or more apart): kept;
    // written a week and an hour ago: unused.
    folder(under, 'preprod-77777777777777777777', 2 * 24 * HOUR);
    folder(under, 'preprod-88888888888888888888', UNMARKED_UNUSED_AFTER_MS + HOUR);
    // Another network's, and folders not named as a sweep's.
    folder(under, 'preview-44444444444444444444', 30 * 24 * HOUR);
    folder(under, 'preprod-backup', 30 * 24 * HOUR);
    folder(under, 'preprod-5555555555555555555', 30 * 24 * HOUR);
    writeFileSync(path.join(under, 'preprod-66666666666666666666'), 'a file, not a folder');
    utimesSync(path.join(under, 'preprod-66666666666666666666'), new Date(NOW - 30 * 24 * HOUR), new Date(NOW - 30 * 24 * HOUR));

    expect(unusedFolders(under, 'preprod', own, NOW).sort()).toEqual(['preprod-11111111111111111111', 'preprod-88888888888888888888']);
    expect(unusedFolders(under, 'preview', own, NOW)).toEqual(['preview-44444444444444444444']);
    // Two hours earlier, neither was unused yet.
    expect(unusedFolders(under, 'preprod', own, NOW - 2 * HOUR)).toEqual([]);
    expect(unusedFolders(path.join(root, 'missing'), 'preprod', own, NOW)).toEqual([]);
  });

  it('removes them, telling each with the bytes it held', async () => {
    const under = path.join(root, 'remove');
    const own = 'mainnet-aaaaaaaaaaaaaaaaaaaa';
    folder(under, own, 0);
    folder(under, 'mainnet-bbbbbbbbbbbbbbbbbbbb', 8 * 24 * HOUR, ['chunk-0.bin', 'chunk-1.bin', 'chunk-2.bin.tmp']);
    folder(under, 'mainnet-cccccccccccccccccccc', HOUR);
    const removed: Array<[string, number]> = [];
    await removeUnusedFolders(under, 'mainnet', own, (f, bytes) => removed.push([f, bytes]), NOW);
    expect(removed).toEqual([['mainnet-bbbbbbbbbbbbbbbbbbbb', 3000]]);
    expect(readdirSync(under).sort()).toEqual([own, 'mainnet-cccccccccccccccccccc']);
  });

  it('a chain\'s sweep worker marks its folder and removes its network\'s unused ones', async () => {
    const under = path.join(root, 'worker');
    const old = folder(under, 'preprod-dddddddddddddddddddd', UNUSED_AFTER_MS + HOUR, ['chunk-0.bin', 'chunk-1.bin', IN_USE_FILE]);
    const recent = folder(under, 'preprod-eeeeeeeeeeeeeeeeeeee', HOUR);
    const other = folder(under, 'mainnet-ffffffffffffffffffff', 30 * 24 * HOUR);
    const removed: Array<[string, number]> = [];
    // The folders' ages are counted from the machine's clock, not the chain's.
    const t = new Date(Date.now() - UNUSED_AFTER_MS - HOUR);
    for (const f of ['chunk-0.bin', 'chunk-1.bin', IN_USE_FILE, '']) utimesSync(path.join(old, f), t, t);
    const recentTime = new Date(Date.now() - HOUR);
    utimesSync(path.join(recent, 'chunk-0.bin'), recentTime, recentTime);
    const { chain } = testChain({ genesisTime: NOW - 600 * 20_000, blockIntervalMs: 20_000, now: () => NOW, sweep: { dir: under, removed: (f, bytes) => removed.push([f, bytes]) } });
    try {
      await vi.waitFor(() => expect(removed).toEqual([['preprod-dddddddddddddddddddd', 3000]]), { timeout: 20_000, interval: 50 });
      expect(existsSync(old)).toBe(false);
      expect(existsSync(recent)).toBe(true);
      expect(existsSync(other)).toBe(true);
      // Its own folder, named by the chain's identity, marked in use now.
      const own = readdirSync(under).filter((f) => /^preprod-[0-9a-f]{20}$/.test(f) && f !== 'preprod-eeeeeeeeeeeeeeeeeeee');
      expect(own).toHaveLength(1);
      expect(Date.now() - statSync(path.join(under, own[0]!, IN_USE_FILE)).mtimeMs).toBeLessThan(60_000);
    } finally {
      await chain.close();
    }
  }, 60_000);
});
