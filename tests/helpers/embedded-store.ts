import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedIpfsStore } from '../../server/features/ipfs/embedded-store';

export interface TempStore {
  dir: string;
  store: EmbeddedIpfsStore;
  /** Deletes the store's folder. */
  remove(): void;
}

/** An embedded IPFS store, opened, in a folder of its own under the OS's temporary folder (named from `prefix`). */
export async function openTempStore(prefix: string): Promise<TempStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const store = new EmbeddedIpfsStore(dir);
  await store.open();
  return { dir, store, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The bytes of the file stored at `cid`, or null when the store has no file there. */
export async function readStored(store: EmbeddedIpfsStore, cid: string): Promise<Buffer | null> {
  const file = await store.cat(cid);
  if (!file || file === 'directory') return null;
  const parts: Buffer[] = [];
  for await (const p of file.read()) parts.push(Buffer.from(p));
  return Buffer.concat(parts);
}
