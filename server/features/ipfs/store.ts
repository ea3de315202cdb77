import { CID } from 'multiformats/cid';

export interface StoredFile {
  size: number;
  head: Uint8Array;
  read(range?: { offset: number; length: number }): AsyncIterable<Uint8Array>;
}

/** What the IPFS backend needs from a store: the embedded one under DATA_DIR, or a Kubo node. */
export interface IpfsStore {
  readonly kind: 'embedded' | 'kubo';
  /** For the start-up log and the dashboard. */
  readonly description: string;
  open(): Promise<void>;
  close(): Promise<void>;
  /**
   * Imports a file as `ipfs add` does by default (CIDv0, 256 KiB chunks, balanced layout, no raw
   * leaves) and calls `stored` with its CID and byte size before the add counts as done: on the
   * embedded store the collector cannot run in between, so the caller's bookkeeping row and the
   * blocks appear together.
   */
  add<T>(source: AsyncIterable<Uint8Array>, stored: (r: { cid: string; size: number }) => Promise<T>): Promise<T>;
  /** The object's size when the whole object is there (its file size, or the DAG's bytes for a directory); null when it is not. */
  stat(path: string): Promise<{ cid: string; size: number; type: 'file' | 'directory' } | null>;
  /** A file to read: its size, its first bytes (up to 512, for the content type) and a reader of any part. null when the path is unknown. */
  cat(path: string): Promise<StoredFile | 'directory' | null>;
  /** Runs fn while no collection runs, so what fn checked cannot be collected before fn records it. */
  guard<T>(fn: () => Promise<T>): Promise<T>;
  /** Keeps the object on the node for good (Kubo's pin); the embedded store keeps what the database pins. */
  pin(cid: string): Promise<void>;
  unpin(cid: string): Promise<void>;
  /**
   * Removes every block not reachable from the roots `roots()` answers, read while nothing else
   * runs. Kubo collects its own repository (its `--enable-gc`), so there this only unpins.
   */
  collect(roots: () => Promise<Set<string>>): Promise<{ removedBlocks: number }>;
}

/** The CID of an IPFS path (`Qm…`, `Qm…/a/b`, `/ipfs/Qm…`), or null when it does not start with one. */
export function parseIpfsPath(raw: string): { cid: CID; path: string } | null {
  let p = raw;
  try {
    p = decodeURIComponent(raw);
  } catch {
    return null;
  }
  p = p.replace(/^\/+/, '').replace(/^ipfs\//, '');
  const [first, ...rest] = p.split('/');
  if (!first || rest.some((s) => s === '..' || s === '.')) return null;
  try {
    const cid = CID.parse(first);
    const tail = rest.filter(Boolean);
    return { cid, path: [cid.toString(), ...tail].join('/') };
  } catch {
    return null;
  }
}
