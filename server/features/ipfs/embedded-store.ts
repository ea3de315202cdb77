import fs from 'node:fs/promises';
import path from 'node:path';
import { FsBlockstore } from 'blockstore-fs';
import { NextToLast } from 'blockstore-fs/sharding';
import { importer, type BufferImporter } from 'ipfs-unixfs-importer';
import { exporter } from 'ipfs-unixfs-exporter';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { UnixFS } from 'ipfs-unixfs';
import type { IpfsStore, StoredFile } from './store';

/** Kubo's default chunk: fixed 256 KiB. */
const CHUNK_BYTES = 262_144;
/** The most bytes a leaf block has before its data (for a chunk of up to 256 KiB) and after it. */
const LEAF_HEAD = 10;
const LEAF_TAIL = 4;
const LEAF_BUFFER_BYTES = LEAF_HEAD + CHUNK_BYTES + LEAF_TAIL;
/** Buffers made by leafChunker, with LEAF_HEAD bytes free before each chunk and LEAF_TAIL after it. */
const leafBuffers = new WeakSet<ArrayBufferLike>();
/**
 * Leaf buffers whose blocks are on disk, for the next chunks: a fresh 256 KiB buffer per chunk cost
 * more in garbage collection (V8 collects to keep external memory down) than the copy into it.
 * Holds at most 20 (5 MB: the 16 leaves IN_FLIGHT_BYTES lets an add have in flight, and a few more); the rest is garbage.
 */
const spareLeafBuffers: ArrayBuffer[] = [];
const SPARE_LEAF_BUFFERS = 20;
function takeLeafBuffer(): Uint8Array {
  const spare = spareLeafBuffers.pop();
  if (spare) return new Uint8Array(spare);
  const b = Buffer.allocUnsafeSlow(LEAF_BUFFER_BYTES);
  leafBuffers.add(b.buffer);
  return new Uint8Array(b.buffer, b.byteOffset, LEAF_BUFFER_BYTES);
}
/** Hands a written leaf's buffer back. Only for a chunk nothing reads again (see leanBufferImporter). */
function giveLeafBuffer(chunk: Uint8Array): void {
  const ab = chunk.buffer;
  if (ab instanceof ArrayBuffer && leafBuffers.has(ab) && spareLeafBuffers.length < SPARE_LEAF_BUFFERS) spareLeafBuffers.push(ab);
}

/**
 * Kubo's fixed-size chunker (256 KiB, the importer's own fixedSize semantics: an empty file is one
 * empty chunk), but it copies the file's bytes straight into the buffer its leaf block will be
 * encoded in. The importer's default concatenates each chunk, then copies it into a UnixFS message,
 * then into a dag-pb node: three 256 KiB allocations and copies per chunk, which made an add through
 * the gateway spend more CPU than the disk writes it waits for. Here there is one.
 */
export async function* leafChunker(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let buf = takeLeafBuffer();
  let fill = 0;
  let emitted = false;
  for await (const piece of source) {
    let off = 0;
    while (off < piece.byteLength) {
      const n = Math.min(CHUNK_BYTES - fill, piece.byteLength - off);
      buf.set(piece.subarray(off, off + n), LEAF_HEAD + fill);
      fill += n;
      off += n;
      if (fill === CHUNK_BYTES) {
        yield buf.subarray(LEAF_HEAD, LEAF_HEAD + CHUNK_BYTES);
        emitted = true;
        buf = takeLeafBuffer();
        fill = 0;
      }
    }
  }
  if (!emitted || fill > 0) yield buf.subarray(LEAF_HEAD, LEAF_HEAD + fill);
}

const varintLength = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : 4);
function writeVarint(buf: Uint8Array, pos: number, n: number): number {
  while (n >= 0x80) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[pos++] = n;
  return pos;
}

/**
 * The dag-pb block of a UnixFS 'file' leaf holding `chunk`, byte for byte what
 * dagPb.encode({ Data: new UnixFS({ type: 'file', data: chunk }).marshal(), Links: [] }) gives
 * (tests/unit/server/features/ipfs/leaf-encoding.test.ts compares them). For a chunk of leafChunker it is
 * written around the chunk in place: PBNode.Data (field 1) = UnixFS { Type = File (field 1),
 * Data (field 2), filesize (field 3) }, no links. Any other chunk goes through the libraries.
 */
export function encodeLeaf(chunk: Uint8Array): Uint8Array {
  const n = chunk.byteLength;
  if (n === 0 || n > CHUNK_BYTES || chunk.byteOffset !== LEAF_HEAD || !leafBuffers.has(chunk.buffer)) {
    return dagPb.encode({ Data: new UnixFS({ type: 'file', data: chunk }).marshal(), Links: [] });
  }
  const buf = new Uint8Array(chunk.buffer);
  const unixfsLength = 2 + 1 + varintLength(n) + n + 1 + varintLength(n);
  const start = LEAF_HEAD - (1 + varintLength(unixfsLength) + 2 + 1 + varintLength(n));
  let p = start;
  buf[p++] = 0x0a; // PBNode.Data, length-delimited
  p = writeVarint(buf, p, unixfsLength);
  buf[p++] = 0x08; // UnixFS.Type, varint
  buf[p++] = 0x02; // File
  buf[p++] = 0x12; // UnixFS.Data, length-delimited
  writeVarint(buf, p, n);
  let q = LEAF_HEAD + n;
  buf[q++] = 0x18; // UnixFS.filesize, varint
  q = writeVarint(buf, q, n);
  return buf.subarray(start, q);
}

/**
 * The result the importer's layout keeps for each leaf holds the chunk's length instead of the
 * chunk: the balanced layout keeps every leaf's result until the parent above it is built (174
 * leaves, 45 MB), so the default kept a 100 MB file in memory. Made outside the leaf's scope, so
 * no closure holds on to the chunk.
 */
function leafSummary(length: number): UnixFS {
  const unixfs = new UnixFS({ type: 'file' });
  // The layout reads only data.length of a leaf (its block size in the parent).
  (unixfs as unknown as { data: { length: number } }).data = { length };
  return unixfs;
}

/**
 * A blockstore that can take a leaf to write without the importer waiting for it (the embedded
 * store's add): `written` runs once the block is on disk. Whoever offers it waits for every such
 * write before the add counts as done.
 */
interface BackgroundWriter {
  putInBackground(cid: CID, bytes: Uint8Array, written: () => void): void;
}
const writesInBackground = (store: unknown): store is BackgroundWriter => typeof (store as Partial<BackgroundWriter>).putInBackground === 'function';

/**
 * The importer's leaf writer with the leaf encoded by encodeLeaf; the blocks and CIDs are the same
 * (the Kubo fixtures in tests/unit/server/features/ipfs prove it). The importer reads a leaf's block again
 * only when it is the file's single block (the first one; buildFileBatch drops every later leaf's
 * block as it passes it on), so every later leaf's buffer is handed back once its block is on disk.
 * Given a BackgroundWriter, a leaf is handed to it and the importer goes on at once: the importer
 * writes a batch of leaves and waits for all of them before it reads the next, so with plain puts
 * reading the file and writing its blocks took turns instead of overlapping.
 */
const leanBufferImporter: BufferImporter = async function* (file, blockstore) {
  let first = true;
  for await (const chunk of file.content) {
    const reusable = !first;
    first = false;
    yield async () => {
      const block = encodeLeaf(chunk);
      const cid = CID.createV0(await sha256.digest(block));
      if (writesInBackground(blockstore)) blockstore.putInBackground(cid, block, () => reusable && giveLeafBuffer(chunk));
      else {
        await blockstore.put(cid, block);
        if (reusable) giveLeafBuffer(chunk);
      }
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
  chunker: leafChunker,
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

/** Blocks of the next children a read fetches while the reader takes the current one: 2 MB of leaves. */
const READ_AHEAD_BLOCKS = 8;

/**
 * The bytes [start, end) of the UnixFS file whose root dag-pb node is `root`, in order, reading
 * only the blocks under that range (blockSizes say which children hold it) with READ_AHEAD_BLOCKS
 * of each level fetched ahead. The exporter's reader walks the whole range as fast as the disk
 * goes and queues what its reader has not taken yet: a gateway read of a 1 GiB file to a slower
 * client held most of it in memory. Here a block is read only when the reader is within
 * READ_AHEAD_BLOCKS of it, so memory stays a few MB whatever the file and the client.
 */
export async function* readFileDag(root: dagPb.PBNode, load: (cid: CID) => Promise<Uint8Array>, start: number, end: number): AsyncGenerator<Uint8Array> {
  if (end <= start) return;
  yield* readNode(root, 0);

  async function* readNode(node: dagPb.PBNode, nodeStart: number): AsyncGenerator<Uint8Array> {
    if (!node.Data) throw new Error('a dag-pb node of the file has no UnixFS data');
    const unixfs = UnixFS.unmarshal(node.Data);
    let pos = nodeStart;
    if (unixfs.data && unixfs.data.byteLength > 0) {
      const part = unixfs.data.subarray(Math.max(0, start - pos), Math.max(0, Math.min(unixfs.data.byteLength, end - pos)));
      if (part.byteLength > 0) yield part;
      pos += unixfs.data.byteLength;
    }
    if (node.Links.length !== unixfs.blockSizes.length) throw new Error('a dag-pb node of the file has links and block sizes that disagree');
    const children: Array<{ cid: CID; start: number }> = [];
    for (let i = 0; i < node.Links.length && pos < end; i++) {
      const childEnd = pos + Number(unixfs.blockSizes[i]);
      if (childEnd > start) children.push({ cid: node.Links[i]!.Hash, start: pos });
      pos = childEnd;
    }
    const ahead: Array<Promise<Uint8Array>> = [];
    let next = 0;
    try {
      for (const child of children) {
        while (next < children.length && ahead.length < READ_AHEAD_BLOCKS) {
          const p = load(children[next++]!.cid);
          // Awaited below, or dropped when the reader stops early: never an unhandled rejection.
          p.catch(() => undefined);
          ahead.push(p);
        }
        const block = await ahead.shift()!;
        if (child.cid.code === raw.code) {
          const part = block.subarray(Math.max(0, start - child.start), Math.max(0, Math.min(block.byteLength, end - child.start)));
          if (part.byteLength > 0) yield part;
        } else yield* readNode(dagPb.decode(block), child.start);
      }
    } finally {
      ahead.length = 0;
    }
  }
}

/**
 * Bytes an add may have read but not yet written: 16 chunks of 256 KiB, four writes for each thread
 * of libuv's pool, enough to keep the disk busy. Leaves are written in the background, so this is
 * what the add holds in memory whenever the disk is slower than the network.
 */
const IN_FLIGHT_BYTES = 4 * 1024 * 1024;

/** How many written blocks the store remembers (16 GB of 256 KiB blocks, 4 MB of keys). */
const RECENT_BLOCKS = 65_536;

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
  /** Where blockstore-fs keeps a block (Kubo's flatfs layout): shared with it, so both agree. */
  private readonly sharding = new NextToLast();
  /** Shard folders known to exist (the collector removes blocks, never folders). */
  private readonly shardDirs = new Set<string>();
  /**
   * Blocks written since the last collection, so a block repeated within a file or across adds is
   * written once. Without it every block cost a stat (blockstore-fs's has) on top of its write.
   * Forgotten past RECENT_BLOCKS; a block written again is the same bytes, so that only costs a write.
   */
  private readonly recentBlocks = new Set<string>();
  /** Puts of blocks being written now, by CID: a block repeated in a file (or two adds) is written once. */
  private readonly writing = new Map<string, Promise<CID>>();
  /** Writes a block unless this process wrote it since the last collection; one write per CID at a time. */
  private put(cid: CID, bytes: Uint8Array): Promise<CID> {
    const key = cid.toString();
    if (this.recentBlocks.has(key)) return Promise.resolve(cid);
    let p = this.writing.get(key);
    if (!p) {
      p = this.writeBlock(cid, key, bytes).finally(() => this.writing.delete(key));
      this.writing.set(key, p);
    }
    return p;
  }

  /**
   * blockstore-fs's put, with fewer calls into the thread pool per block (each one cost the event
   * loop tens of microseconds here): its folder is made once, not before every block, and no stat
   * comes first. Written to a temporary file and renamed, so a crash never leaves half a block.
   */
  private async writeBlock(cid: CID, key: string, bytes: Uint8Array): Promise<CID> {
    const { dir, file } = this.sharding.encode(cid);
    const folder = path.join(this.blockstore.path, dir);
    if (!this.shardDirs.has(dir)) {
      await fs.mkdir(folder, { recursive: true });
      this.shardDirs.add(dir);
    }
    const tmp = path.join(folder, `.${file}.tmp`);
    await fs.writeFile(tmp, bytes);
    await fs.rename(tmp, path.join(folder, file));
    if (this.recentBlocks.size >= RECENT_BLOCKS) this.recentBlocks.clear();
    this.recentBlocks.add(key);
    return cid;
  }

  /**
   * Blocks of each object seen (walked, or written by an add), by root CID: content addressed, so
   * never stale. Spares re-reading whole files on every collection and on a pin of what was just added.
   */
  private readonly dagBlocks = new Map<string, { blocks: string[]; bytes: number }>();

  constructor(dataDir: string) {
    const dir = path.join(dataDir, 'ipfs', 'blocks');
    this.blockstore = new FsBlockstore(dir, { shardingStrategy: this.sharding });
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
      /** Every block the importer writes, which are the new object's (what walk() would find). */
      const dag = { blocks: [] as string[], bytes: 0 };
      /** Leaves being written in the background, and the first write that failed. */
      const pending = new Set<Promise<void>>();
      let failed = null as { err: unknown } | null;
      const writer: BackgroundWriter & { put(cid: CID, bytes: Uint8Array): Promise<CID> } = {
        put: async (cid, bytes) => {
          dag.blocks.push(cid.toString());
          dag.bytes += bytes.byteLength;
          const r = await this.put(cid, bytes);
          written += bytes.byteLength;
          wake?.();
          return r;
        },
        putInBackground: (cid, bytes, done) => {
          dag.blocks.push(cid.toString());
          dag.bytes += bytes.byteLength;
          const p: Promise<void> = this.put(cid, bytes)
            .then(
              () => {
                written += bytes.byteLength;
                done();
              },
              (err: unknown) => void (failed ??= { err }),
            )
            .finally(() => {
              pending.delete(p);
              wake?.();
            });
          pending.add(p);
        },
      };
      const counted = (async function* () {
        for await (const chunk of source) {
          size += chunk.byteLength;
          while (size - written > IN_FLIGHT_BYTES && !failed) await new Promise<void>((r) => (wake = r));
          wake = null;
          if (failed) throw failed.err;
          yield chunk;
        }
      })();
      let root: CID | undefined;
      try {
        for await (const entry of importer([{ content: counted }], writer, KUBO_ADD_DEFAULTS)) root = entry.cid;
      } finally {
        // Every leaf written (or failed) before the add ends, either way: the collector must not run under a write.
        while (pending.size) await Promise.all(pending);
      }
      if (failed) throw failed.err;
      if (!root) throw new Error('the importer produced no object');
      // A pin of what was just added checks its blocks are there instead of reading all of them.
      this.dagBlocks.set(root.toString(), dag);
      return stored({ cid: root.toString(), size });
    });
  }

  /** Every block of the DAG under cid; null when one of them is missing. */
  private async walk(cid: CID): Promise<{ blocks: string[]; bytes: number } | null> {
    const key = cid.toString();
    const known = this.dagBlocks.get(key);
    if (known) {
      for (const b of new Set(known.blocks)) if (!(await this.blockstore.has(CID.parse(b)))) return null;
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

  /** A block's bytes (blockFile); a missing block throws a NotFoundError, as blockstore-fs does. */
  private readBlock(cid: CID): Promise<Uint8Array> {
    return this.blockFile(cid);
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
    const file = entry;
    // A UnixFS file is read by readFileDag (only the blocks of the range, a few read ahead, as fast
    // as the reader takes them); a raw or identity block is one block, read by the exporter.
    const read =
      file.type === 'file'
        ? (range?: { offset: number; length: number }) => readFileDag(file.node, (cid) => this.blockFile(cid), range?.offset ?? 0, range ? range.offset + range.length : size)
        : (range?: { offset: number; length: number }) => file.content(range ? { offset: range.offset, length: range.length } : {}) as AsyncIterable<Uint8Array>;
    // The first bytes decide the content type, whatever part was asked for.
    const headParts: Uint8Array[] = [];
    if (size > 0) for await (const part of read({ offset: 0, length: Math.min(512, size) })) headParts.push(part);
    return { size, head: Buffer.concat(headParts), read };
  }

  /**
   * A block's bytes in one read of its file. blockstore-fs's get streams a file in 64 KiB pieces
   * then joins them: for a 256 KiB leaf that cost reads of a big file more CPU than the sending.
   */
  private async blockFile(cid: CID): Promise<Uint8Array> {
    const { dir, file } = this.sharding.encode(cid);
    try {
      return await fs.readFile(path.join(this.blockstore.path, dir, file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw Object.assign(new Error(`block ${cid.toString()} is not in the store`), { name: 'NotFoundError' });
      throw err;
    }
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
      // Some of the blocks this process wrote may go now: from here on, a write checks nothing.
      this.recentBlocks.clear();
      let removedBlocks = 0;
      for await (const { cid } of this.blockstore.getAll()) {
        // Block files are named by multihash (the CID version and codec are not kept).
        if (keep.has(mh(cid))) continue;
        await this.blockstore.delete(cid);
        removedBlocks++;
      }
      await this.removeTemporaryFiles();
      return { removedBlocks };
    });
  }

  /**
   * Half-written blocks a crash left (writeBlock's temporary files). Run by the collector alone,
   * when no write is under way, so every one of them is stale.
   */
  private async removeTemporaryFiles(): Promise<void> {
    const root = this.blockstore.path;
    const shards = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
    for (const shard of shards) {
      if (!shard.isDirectory()) continue;
      for (const name of await fs.readdir(path.join(root, shard.name))) {
        if (name.startsWith('.') && name.endsWith('.tmp')) await fs.rm(path.join(root, shard.name, name), { force: true });
      }
    }
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
