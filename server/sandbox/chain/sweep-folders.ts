// The sweep's folders under its directory ($DATA_DIR/sandbox-chains): one a chain's identity
// (sweep-worker.ts names them `<network>-<identity>`). A chain simulated differently (a new version
// of the simulation, another block interval) gets a folder of its own, and the old one, hundreds of
// megabytes for a default chain's history, is read by nobody once no process of the old kind runs.
// A worker keeps its own folder marked in use (the mark file's time, renewed every hour) and removes
// its network's other folders in which nothing was written or marked for a day: a process of
// another version still running beside it (a rolling upgrade) renews its mark, so it keeps its
// chunks while it runs. A folder never marked (a version that did not mark) is removed only after a
// week unused: such a process writes a chunk every 64 segments (3,840 blocks: some 21 hours at the
// default 20 s blocks, a week at blocks of two and a half minutes).
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';

/** The file whose time says when the folder's process last said it uses it. */
export const IN_USE_FILE = 'in-use';
/** How often a worker renews its folder's mark. */
export const MARK_EVERY_MS = 60 * 60_000;
/** How long a folder may go unmarked and unwritten before another worker of its network removes it. */
export const UNUSED_AFTER_MS = 24 * 60 * 60_000;
/** The same for a folder never marked in use. */
export const UNMARKED_UNUSED_AFTER_MS = 7 * UNUSED_AFTER_MS;

/** Marks `folder` in use now (made if it is missing). */
export function markInUse(folder: string, now = new Date()): void {
  const file = path.join(folder, IN_USE_FILE);
  if (!existsSync(file)) writeFileSync(file, 'a sandbox chain\'s sweep worker reads this folder; its time is renewed every hour\n');
  utimesSync(file, now, now);
}

/** The newest time anything in `folder` was written or marked (the folder's own included), and whether it was ever marked. */
function lastUsed(folder: string): { at: number; marked: boolean } {
  let at = statSync(folder).mtimeMs;
  let marked = false;
  for (const name of readdirSync(folder)) {
    try {
      at = Math.max(at, statSync(path.join(folder, name)).mtimeMs);
      if (name === IN_USE_FILE) marked = true;
    } catch {
      // Removed meanwhile (a chunk's temporary file renamed).
    }
  }
  return { at, marked };
}

/** `network`'s sweep folders under `root` other than `own` that nothing used for UNUSED_AFTER_MS (never marked: UNMARKED_UNUSED_AFTER_MS). */
export function unusedFolders(root: string, network: string, own: string, now = Date.now()): string[] {
  const name = new RegExp(`^${network}-[0-9a-f]{20}$`);
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry === own || !name.test(entry)) continue;
    const folder = path.join(root, entry);
    try {
      if (!statSync(folder).isDirectory()) continue;
      const used = lastUsed(folder);
      if (now - used.at > (used.marked ? UNUSED_AFTER_MS : UNMARKED_UNUSED_AFTER_MS)) out.push(entry);
    } catch {
      // Gone meanwhile (another process removed it).
    }
  }
  return out;
}

/** Bytes the files directly in `folder` hold. */
function folderBytes(folder: string): number {
  let bytes = 0;
  for (const name of readdirSync(folder)) {
    try {
      bytes += statSync(path.join(folder, name)).size;
    } catch {
      // Gone meanwhile.
    }
  }
  return bytes;
}

/** Removes `network`'s unused folders under `root` (unusedFolders), telling each removed and its size. */
export async function removeUnusedFolders(root: string, network: string, own: string, removed: (folder: string, bytes: number) => void, now = Date.now()): Promise<void> {
  for (const entry of unusedFolders(root, network, own, now)) {
    const folder = path.join(root, entry);
    let bytes = 0;
    try {
      bytes = folderBytes(folder);
      await rm(folder, { recursive: true, force: true });
    } catch {
      // Another process removed it first, or it cannot be removed: left as it is.
      continue;
    }
    removed(entry, bytes);
  }
}
