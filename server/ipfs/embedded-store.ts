import path from 'node:path';
import { FsBlockstore } from 'blockstore-fs';
import { importer } from 'ipfs-unixfs-importer';
import { exporter } from 'ipfs-unixfs-exporter';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { UnixFS } from 'ipfs-unixfs';
import type { BufferImporter } from 'ipfs-unixfs-importer';
import type { IpfsStore, StoredFile } from './store';

/**
 * The importer's own leaf writer, but the result it keeps for the layout holds the chunk's length
 * instead of the chunk: the balanced layout keeps every leaf's result until the parent above it is
 * built (174 leaves, 45 MB), so the default kept a 100 MB file in memory. The leaf blocks and CIDs
 * are the same (dag-pb 'file' leaves, CIDv0); the Kubo fixtures in tests/unit/server/ipfs prove it.
 */
/** Made outside the leaf's scope, so no closure holds on to the chunk. */
function leafSummary(length: number): UnixFS {
  const unixfs = new UnixFS({ type: 'file' });
  // The layout reads only data.length of a leaf (its block size in the parent).
  (unixfs as unknown as { data: { length: number } }).data = { length };
  return unixfs;
}

const leanBufferImporter: BufferImporter = async function* (file, blockstore) {
  for await (const chunk of file.content) {
    yield async () => {
      const block = dagPb.encode({ Data: new UnixFS({ type: 'file', data: chunk }).marshal(), Links: [] });
      const cid = CID.createV0(await sha256.digest(block));
      await blockstore.put(cid, block);
      return { cid, unixfs: leafSummary(chunk.byteLength), size: BigInt(block.length), block };
    };
  }
};

/** The defaults of `ipfs add` (Kubo): CIDv0, dag-pb leaves, fixed 256 KiB chunks, balanced DAG of 174 links. */
export const KUBO_ADD_DEFAULTS = {
  cidVersion: 0,
  rawLeaves: false,
  reduceSingleLeafToSelf: true,
  wrapWithDirectory: false,
  bufferImporter: leanBufferImporter,
} as const;

/**
 * Adds share the store; a collection needs it alone. Waiting adds do not starve a collection: once
 * one is waiting, new adds wait behind it.
 */
class CollectLock {
  private active = 0;
  private exclusive: Promise<void> | null = null;
  private drained: (() => void) | null = null;

  async shared<T>(fn: () => Promise<T>): Promise<T> {
    while (this.exclusive) await this.exclusive;
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      if (this.active === 0) this.drained?.();
    }
  }

  async alone<T>(fn: () => Promise<T>): Promise<T> {
    while (this.exclusive) await this.exclusive;
    let release!: () => void;
    this.exclusive = new Promise<void>((r) => (release = r));
    try {
      if (this.active > 0) await new Promise<void>((r) => (this.drained = r));
      this.drained = null;
      return await fn();
    } finally {
      this.exclusive = null;
      release();
    }
  }
}

/** Bytes an add may have read but not yet written: 64 chunks of 256 KiB, enough to keep the disk busy. */
const IN_FLIGHT_BYTES = 16 * 1024 * 1024;

const mh = (cid: CID): string => Buffer.from(cid.multihash.bytes).toString('base64');
const isNotFound = (err: unknown) => (err as { name?: string }).name === 'NotFoundError';

/**
 * The embedded IPFS store: blocks as files under DATA_DIR/ipfs/blocks (blockstore-fs, the layout
 * Kubo's flatfs uses), imported and read with the IPFS project's own unixfs importer and exporter.
 * Which blocks are kept is decided by the database (pins and recent adds); collect() removes the rest.
 */
export class EmbeddedIpfsStore implements IpfsStore {
  readonly kind = 'embedded' as const;
  readonly description: string;
  readonly blockstore: FsBlockstore;
  private readonly lock = new CollectLock();
  /** Puts of blocks being written now, by CID: a block repeated in a file (or two adds) is written once. */
  private readonly writing = new Map<string, Promise<CID>>();
  /** Writes a block unless it is already there (Kubo does the same); one write per CID at a time. */
  private put(cid: CID, bytes: Uint8Array): Promise<CID> {
    const key = cid.toString();
    let p = this.writing.get(key);
    if (!p) {
      p = (async () => ((await this.blockstore.has(cid)) ? cid : this.blockstore.put(cid, bytes)))().finally(() => this.writing.delete(key));
      this.writing.set(key, p);
    }
    return p;
  }

  /** Blocks of each object seen, by root CID: content addressed, so never stale. Spares re-reading whole files on every collection. */
  private readonly dagBlocks = new Map<string, { blocks: string[]; bytes: number }>();

  constructor(dataDir: string) {
    const dir = path.join(dataDir, 'ipfs', 'blocks');
    this.blockstore = new FsBlockstore(dir);
    this.description = `embedded IPFS store at ${dir} (no IPFS network: content is served from this node only)`;
  }

  open(): Promise<void> {
    return this.blockstore.open();
  }

  close(): Promise<void> {
    return this.blockstore.close();
  }

  guard<T>(fn: () => Promise<T>): Promise<T> {
    return this.lock.shared(fn);
  }

  add<T>(source: AsyncIterable<Uint8Array>, stored: (r: { cid: string; size: number }) => Promise<T>): Promise<T> {
    return this.lock.shared(async () => {
      // The importer reads its source as fast as it can, whatever the disk does: with no brake a
      // 100 MB file sat in memory waiting for its writes. Reading waits while more than
      // IN_FLIGHT_BYTES read are not yet written.
      let size = 0;
      let written = 0;
      let wake: (() => void) | null = null;
      const writer = {
        put: async (cid: CID, bytes: Uint8Array): Promise<CID> => {
          const r = await this.put(cid, bytes);
          written += bytes.byteLength;
          wake?.();
          return r;
        },
      };
      const counted = (async function* () {
        for await (const chunk of source) {
          size += chunk.byteLength;
          while (size - written > IN_FLIGHT_BYTES) await new Promise<void>((r) => (wake = r));
          wake = null;
          yield chunk;
        }
      })();
      let root: CID | undefined;
      for await (const entry of importer([{ content: counted }], writer, KUBO_ADD_DEFAULTS)) root = entry.cid;
      if (!root) throw new Error('the importer produced no object');
      return stored({ cid: root.toString(), size });
    });
  }

  /** Every block of the DAG under cid; null when one of them is missing. */
  private async walk(cid: CID): Promise<{ blocks: string[]; bytes: number } | null> {
    const key = cid.toString();
    const known = this.dagBlocks.get(key);
    if (known) {
      for (const b of known.blocks) if (!(await this.blockstore.has(CID.parse(b)))) return null;
      return known;
    }
    const blocks: string[] = [];
    let bytes = 0;
    const stack = [cid];
    while (stack.length) {
      const c = stack.pop()!;
      let data: Uint8Array;
      try {
        data = await this.readBlock(c);
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
      blocks.push(c.toString());
      bytes += data.byteLength;
      if (c.code === dagPb.code) for (const link of dagPb.decode(data).Links) stack.push(link.Hash);
    }
    this.dagBlocks.set(key, { blocks, bytes });
    return { blocks, bytes };
  }

  private async readBlock(cid: CID): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    for await (const p of this.blockstore.get(cid)) parts.push(p);
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  async stat(p: string): Promise<{ cid: string; size: number; type: 'file' | 'directory' } | null> {
    let entry;
    try {
      entry = await exporter(p, this.blockstore);
    } catch (err) {
      if (isNotFound(err) || (err as { code?: string }).code === 'ERR_NOT_FOUND') return null;
      throw err;
    }
    const dag = await this.walk(entry.cid);
    if (!dag) return null;
    const type = entry.type === 'directory' ? 'directory' : 'file';
    return { cid: entry.cid.toString(), size: type === 'file' ? Number(entry.size) : dag.bytes, type };
  }

  async cat(p: string): Promise<StoredFile | 'directory' | null> {
    let entry;
    try {
      entry = await exporter(p, this.blockstore);
    } catch (err) {
      if (isNotFound(err) || (err as { code?: string }).code === 'ERR_NOT_FOUND') return null;
      throw err;
    }
    if (entry.type === 'directory') return 'directory' as const;
    if (entry.type === 'object') return null;
    const size = Number(entry.size);
    // The first bytes decide the content type, whatever part was asked for.
    const headParts: Uint8Array[] = [];
    for await (const part of entry.content({ offset: 0, length: Math.min(512, size) })) headParts.push(part as Uint8Array);
    const head = Buffer.concat(headParts);
    const file = entry;
    return { size, head, read: (range) => file.content(range ? { offset: range.offset, length: range.length } : {}) as AsyncIterable<Uint8Array> };
  }

  pin(): Promise<void> {
    return Promise.resolve();
  }

  unpin(): Promise<void> {
    return Promise.resolve();
  }

  collect(roots: () => Promise<Set<string>>): Promise<{ removedBlocks: number }> {
    return this.lock.alone(async () => {
      const keep = new Set<string>();
      for (const root of await roots()) {
        let cid: CID;
        try {
          cid = CID.parse(root);
        } catch {
          continue;
        }
        const dag = await this.walk(cid);
        // A root with missing blocks keeps what it has: the collector never makes a gap worse.
        for (const b of dag ? dag.blocks : await this.present(cid)) keep.add(mh(CID.parse(b)));
      }
      for (const key of this.dagBlocks.keys()) if (!keep.has(mh(CID.parse(key)))) this.dagBlocks.delete(key);
      let removedBlocks = 0;
      for await (const { cid } of this.blockstore.getAll()) {
        // Block files are named by multihash (the CID version and codec are not kept).
        if (keep.has(mh(cid))) continue;
        await this.blockstore.delete(cid);
        removedBlocks++;
      }
      return { removedBlocks };
    });
  }

  /** The blocks of a partial DAG that are there. */
  private async present(cid: CID): Promise<string[]> {
    const out: string[] = [];
    const stack = [cid];
    while (stack.length) {
      const c = stack.pop()!;
      let data: Uint8Array;
      try {
        data = await this.readBlock(c);
      } catch (err) {
        if (isNotFound(err)) continue;
        throw err;
      }
      out.push(c.toString());
      if (c.code === dagPb.code) for (const link of dagPb.decode(data).Links) stack.push(link.Hash);
    }
    return out;
  }
}
