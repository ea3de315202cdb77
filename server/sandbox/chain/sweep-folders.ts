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

/** The newest time anything in `folder` was written or marked (the folder's own included), whether it was ever marked, and the bytes its files hold. */
function lastUsed(folder: string): { at: number; marked: boolean; bytes: number } {
  let at = statSync(folder).mtimeMs;
  let marked = false;
  let bytes = 0;
  for (const name of readdirSync(folder)) {
    try {
      const st = statSync(path.join(folder, name));
      at = Math.max(at, st.mtimeMs);
      bytes += st.size;
      if (name === IN_USE_FILE) marked = true;
    } catch {
      // Removed meanwhile (a chunk's temporary file renamed).
    }
  }
  return { at, marked, bytes };
}

/** `network`'s sweep folders under `root` other than `own` that nothing used for UNUSED_AFTER_MS (never marked: UNMARKED_UNUSED_AFTER_MS), with their bytes. */
function unused(root: string, network: string, own: string, now: number): Array<{ entry: string; bytes: number }> {
  const name = new RegExp(`^${network}-[0-9a-f]{20}$`);
  const out: Array<{ entry: string; bytes: number }> = [];
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
      if (now - used.at > (used.marked ? UNUSED_AFTER_MS : UNMARKED_UNUSED_AFTER_MS)) out.push({ entry, bytes: used.bytes });
    } catch {
      // Gone meanwhile (another process removed it).
    }
  }
  return out;
}

/** `network`'s sweep folders under `root` other than `own` that nothing used for UNUSED_AFTER_MS (never marked: UNMARKED_UNUSED_AFTER_MS). */
export function unusedFolders(root: string, network: string, own: string, now = Date.now()): string[] {
  return unused(root, network, own, now).map((u) => u.entry);
}

/** Removes `network`'s unused folders under `root` (unusedFolders), telling each removed and the bytes it held. */
export async function removeUnusedFolders(root: string, network: string, own: string, removed: (folder: string, bytes: number) => void, now = Date.now()): Promise<void> {
  for (const { entry, bytes } of unused(root, network, own, now)) {
    try {
      await rm(path.join(root, entry), { recursive: true, force: true });
    } catch {
      // It cannot be removed: left as it is.
      continue;
    }
    removed(entry, bytes);
  }
}
