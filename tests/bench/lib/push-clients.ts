// bench:push's websocket clients, in a process of their own so reading notifications does not take
// the gateway's event loop. They stand in for wallets on other machines, so they do as little as an
// honest client can: each connection is a plain TCP socket that makes a real websocket handshake
// (RFC 6455 §4: the upgrade request with the project key, the 101 answer and its
// Sec-WebSocket-Accept checked), sends its commands as masked text frames, and reads what arrives
// into one buffer shared by all its sockets (net's `onread`: no Buffer, stream event or chunk per
// read). Every frame's header is parsed (final bit, opcode, length), pings are answered, and every
// text message is checked: a block notification ({"id":"blk","type":"message","data":<block>}) is
// parsed as JSON and its height and hash read, or, being byte for byte the same as a notification
// parsed already (the gateway sends one frame to every subscriber), counted as that one. Its
// arrival time is read once per read of the socket, before its frames are parsed.
//
// Told {type: 'open'}: opens its connections, subscribes every one to blocks and those given
// addresses to them, and answers {type: 'opened'}. Told {type: 'report', from, to}: answers, for the
// blocks `from`..`to`, each notification's delay after the block was due (genesis + height ×
// interval), how many each connection received, the address notifications, and anything received
// that was not a notification of the protocol. Told {type: 'cpu'}: answers its processor time so
// far (ms).
import crypto from 'node:crypto';
import net from 'node:net';

export interface ClientConnection {
  key: string;
  /** Subscribed to these addresses too. */
  addresses?: string[];
}

export interface OpenCommand {
  type: 'open';
  url: string;
  connections: ClientConnection[];
  genesisTime: number;
  blockIntervalMs: number;
}

export interface ClientReport {
  type: 'report';
  /** Delay of every block notification of the range, ms. */
  blockDelays: number[];
  /** The same, per height. */
  heightDelays: Record<number, number[]>;
  /** Per height of the range: the hashes announced (one expected) and the connections that received it once, and more than once. */
  heights: Record<number, { hashes: string[]; once: number; more: number }>;
  /** Every address notification of the range: its transaction, height and delay after its block was due. */
  addressNotes: Array<{ txHash: string; address: string; height: number; delay: number }>;
  /** What arrived that is not a well-formed message of the protocol (none expected), at most a few. */
  unexpected: string[];
  connections: number;
  closed: number;
  /** blockDelays timed by the client's read, from clients that time blockDelays by the kernel's delivery (push-clients.py). */
  readDelays?: number[];
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const now = () => performance.timeOrigin + performance.now();

let genesisTime = 0;
let blockIntervalMs = 1000;
let closed = 0;
const sockets: net.Socket[] = [];
const unexpected: string[] = [];
const problem = (text: string) => {
  if (unexpected.length < 20) unexpected.push(text.slice(0, 300));
};

/** A block notification's payload as verified once: its bytes, height and hash (the index into `blocks`). */
interface KnownBlock {
  bytes: Buffer;
  height: number;
  hash: string;
}
const blocks: KnownBlock[] = [];
/** The latest payloads verified, newest first: a notification equal to one of them is that block. */
const recentBlocks: number[] = [];

/** Every block notification received: connection, block (index into `blocks`) and arrival time. */
let notes = 0;
let noteConn = new Int32Array(1 << 16);
let noteBlock = new Int32Array(1 << 16);
let noteAt = new Float64Array(1 << 16);
function noteBlockReceived(conn: number, block: number, at: number): void {
  if (notes === noteConn.length) {
    const grow = <T extends Int32Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    noteConn = grow(noteConn);
    noteBlock = grow(noteBlock);
    noteAt = grow(noteAt);
  }
  noteConn[notes] = conn;
  noteBlock[notes] = block;
  noteAt[notes++] = at;
}
const addressNotes: Array<{ txHash: string; address: string; height: number; at: number }> = [];

const HASH = /^[0-9a-f]{64}$/;

/** The block a block notification's payload announces (an index into `blocks`), or -1 if it is not one. */
function blockOf(payload: Buffer): number {
  for (const i of recentBlocks) if (blocks[i]!.bytes.equals(payload)) return i;
  let m: { id?: unknown; type?: unknown; data?: { height?: unknown; hash?: unknown } };
  try {
    m = JSON.parse(payload.toString('utf8')) as typeof m;
  } catch {
    return -1;
  }
  if (m.id !== 'blk' || m.type !== 'message' || typeof m.data?.height !== 'number' || typeof m.data.hash !== 'string' || !HASH.test(m.data.hash)) return -1;
  blocks.push({ bytes: Buffer.from(payload), height: m.data.height, hash: m.data.hash });
  recentBlocks.unshift(blocks.length - 1);
  if (recentBlocks.length > 4) recentBlocks.pop();
  return blocks.length - 1;
}

/** A masked client text frame (RFC 6455 §5.3). */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const header = len < 126 ? 2 : len < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + 4 + len);
  frame[0] = 0x80 | opcode;
  if (len < 126) frame[1] = 0x80 | len;
  else if (len < 65_536) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(len, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(len), 2);
  }
  const mask = crypto.randomBytes(4);
  mask.copy(frame, header);
  for (let i = 0; i < len; i++) frame[header + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}

/** One connection: its handshake, then its frames as they arrive (possibly split across reads). */
class Connection {
  socket!: net.Socket;
  private upgraded = false;
  /** Bytes of an unfinished handshake answer or frame, kept until the rest arrives. */
  private pending: Buffer | null = null;
  /** The pieces of a fragmented message so far. */
  private fragments: Buffer[] | null = null;
  private setupAnswers: number;
  private readonly acceptKey: string;
  private readonly key = crypto.randomBytes(16).toString('base64');

  constructor(
    private readonly index: number,
    private readonly c: ClientConnection,
    private readonly onReady: () => void,
    private readonly onFail: (err: Error) => void,
  ) {
    this.setupAnswers = c.addresses ? 2 : 1;
    this.acceptKey = crypto.createHash('sha1').update(this.key + GUID).digest('base64');
  }

  handshake(host: string): string {
    return `GET /ws HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${this.key}\r\nSec-WebSocket-Version: 13\r\nproject_id: ${this.c.key}\r\n\r\n`;
  }

  /** Bytes read into the shared buffer: parsed before the next read reuses it. */
  onData(buf: Buffer, at: number): void {
    let data = buf;
    if (this.pending) {
      data = Buffer.concat([this.pending, buf]);
      this.pending = null;
    }
    let off = 0;
    if (!this.upgraded) {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) {
        this.pending = Buffer.from(data);
        return;
      }
      const head = data.toString('latin1', 0, end);
      const accept = /\r\nsec-websocket-accept:\s*(\S+)/i.exec(head)?.[1];
      if (!head.startsWith('HTTP/1.1 101') || accept !== this.acceptKey) return this.onFail(new Error(`the upgrade was refused: ${data.toString('utf8', 0, Math.min(data.length, 400))}`));
      this.upgraded = true;
      off = end + 4;
      this.send(JSON.stringify({ id: 'blk', command: 'SUBSCRIBE_BLOCK', params: {} }));
      if (this.c.addresses) this.send(JSON.stringify({ id: 'adr', command: 'SUBSCRIBE_ADDRESS', params: { addresses: this.c.addresses } }));
    }
    while (off < data.length) {
      if (data.length - off < 2) break;
      const b0 = data[off]!;
      const b1 = data[off + 1]!;
      let len = b1 & 0x7f;
      let header = 2;
      if (len === 126) {
        if (data.length - off < 4) break;
        len = data.readUInt16BE(off + 2);
        header = 4;
      } else if (len === 127) {
        if (data.length - off < 10) break;
        len = data.readUInt32BE(off + 2) * 2 ** 32 + data.readUInt32BE(off + 6);
        header = 10;
      }
      if (b1 & 0x80) return this.fail('a server frame was masked');
      if (data.length - off < header + len) break;
      this.onFrame(b0, data.subarray(off + header, off + header + len), at);
      off += header + len;
    }
    if (off < data.length) this.pending = Buffer.from(data.subarray(off));
  }

  private onFrame(b0: number, payload: Buffer, at: number): void {
    const fin = (b0 & 0x80) !== 0;
    const opcode = b0 & 0x0f;
    if (b0 & 0x70) return this.fail('a frame had reserved bits set (no extension was agreed)');
    if (opcode === 0x9) {
      this.socket.write(clientFrame(0xa, payload));
      return;
    }
    if (opcode === 0xa) return;
    if (opcode === 0x8) {
      problem(`connection ${this.index} closed by the server: ${payload.length >= 2 ? payload.readUInt16BE(0) : ''} ${payload.toString('utf8', 2)}`);
      this.socket.end();
      return;
    }
    if (opcode === 0x1 && fin && !this.fragments) return this.onMessage(payload, at);
    if (opcode === 0x1 && !this.fragments) this.fragments = [Buffer.from(payload)];
    else if (opcode === 0x0 && this.fragments) this.fragments.push(Buffer.from(payload));
    else return this.fail(`an unexpected frame (opcode ${opcode})`);
    if (fin) {
      const whole = Buffer.concat(this.fragments);
      this.fragments = null;
      this.onMessage(whole, at);
    }
  }

  private onMessage(payload: Buffer, at: number): void {
    if (this.setupAnswers > 0) {
      // The subscriptions' answers ({"id", "type":"message", "data":{"subscribed":true}}); a block
      // announced between the two is a notification like any other.
      const text = payload.toString('utf8');
      let answer: { type?: unknown; data?: { subscribed?: unknown } } | undefined;
      try {
        answer = JSON.parse(text) as typeof answer;
      } catch {
        answer = undefined;
      }
      if (answer?.type !== 'message' || answer.data?.subscribed === undefined) {
        if (blockOf(payload) < 0) return this.onFail(new Error(`a subscription was refused: ${text.slice(0, 300)}`));
      } else {
        if (answer.data.subscribed !== true) return this.onFail(new Error(`a subscription was refused: ${text.slice(0, 300)}`));
        if (--this.setupAnswers === 0) this.onReady();
        return;
      }
    }
    const block = blockOf(payload);
    if (block >= 0) return noteBlockReceived(this.index, block, at);
    const text = payload.toString('utf8');
    let m: { id?: unknown; type?: unknown; data?: { address?: unknown; txHash?: unknown; blockInfo?: { height?: unknown } } };
    try {
      m = JSON.parse(text) as typeof m;
    } catch {
      return problem(`connection ${this.index}: not JSON: ${text}`);
    }
    const d = m.data;
    if (m.id !== 'adr' || m.type !== 'message' || typeof d?.address !== 'string' || typeof d.txHash !== 'string' || typeof d.blockInfo?.height !== 'number') return problem(`connection ${this.index}: not a notification: ${text}`);
    addressNotes.push({ txHash: d.txHash, address: d.address, height: d.blockInfo.height, at });
  }

  private send(text: string): void {
    this.socket.write(clientFrame(0x1, Buffer.from(text)));
  }

  private fail(why: string): void {
    problem(`connection ${this.index}: ${why}`);
    this.socket.destroy();
  }
}

/** What every socket of the process reads into (each read is parsed before the next one). */
const readBuffer = Buffer.allocUnsafe(256 * 1024);

async function open(cmd: OpenCommand): Promise<void> {
  genesisTime = cmd.genesisTime;
  blockIntervalMs = cmd.blockIntervalMs;
  const url = new URL(cmd.url);
  const port = Number(url.port);
  const openOne = (c: ClientConnection, index: number) =>
    new Promise<net.Socket>((resolve, reject) => {
      let ready = false;
      const conn = new Connection(
        index,
        c,
        () => {
          ready = true;
          resolve(socket);
        },
        (err) => {
          socket.destroy();
          reject(err);
        },
      );
      const socket = net.connect({
        host: url.hostname,
        port,
        onread: {
          buffer: readBuffer,
          callback: (nread: number, buf: Uint8Array) => {
            conn.onData((buf as Buffer).subarray(0, nread), now());
            return true;
          },
        },
      });
      conn.socket = socket;
      socket.setNoDelay(true);
      socket.once('connect', () => socket.write(conn.handshake(url.host)));
      socket.once('error', (err) => {
        if (!ready) reject(err);
        else problem(`connection ${index}: ${err.message}`);
      });
      socket.once('close', () => {
        closed++;
        if (!ready) reject(new Error(`connection ${index} closed before it was subscribed`));
      });
    });
  const all: net.Socket[] = new Array(cmd.connections.length);
  let next = 0;
  // A few dozen handshakes at a time, as clients arriving.
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < cmd.connections.length) {
        const i = next++;
        all[i] = await openOne(cmd.connections[i]!, i);
      }
    }),
  );
  sockets.push(...all);
}

function report(from: number, to: number): ClientReport {
  const blockDelays: number[] = [];
  const heightDelays: Record<number, number[]> = {};
  const seen = new Map<number, Map<number, number>>();
  const hashes = new Map<number, Set<string>>();
  for (let i = 0; i < notes; i++) {
    const b = blocks[noteBlock[i]!]!;
    if (b.height < from || b.height > to) continue;
    const delay = noteAt[i]! - (genesisTime + b.height * blockIntervalMs);
    blockDelays.push(delay);
    (heightDelays[b.height] ??= []).push(delay);
    const per = seen.get(b.height) ?? new Map<number, number>();
    per.set(noteConn[i]!, (per.get(noteConn[i]!) ?? 0) + 1);
    seen.set(b.height, per);
    const hs = hashes.get(b.height) ?? new Set<string>();
    hs.add(b.hash);
    hashes.set(b.height, hs);
  }
  const heights: ClientReport['heights'] = {};
  for (let h = from; h <= to; h++) {
    const per = seen.get(h) ?? new Map<number, number>();
    let once = 0;
    let more = 0;
    for (const n of per.values()) if (n === 1) once++;
    else more++;
    heights[h] = { hashes: [...(hashes.get(h) ?? [])], once, more };
  }
  const inRange = addressNotes.filter((n) => n.height >= from && n.height <= to);
  return {
    type: 'report',
    blockDelays,
    heightDelays,
    heights,
    addressNotes: inRange.map((n) => ({ txHash: n.txHash, address: n.address, height: n.height, delay: n.at - (genesisTime + n.height * blockIntervalMs) })),
    unexpected,
    connections: sockets.length,
    closed,
  };
}

process.on('message', (m: OpenCommand | { type: 'report'; from: number; to: number } | { type: 'cpu' } | { type: 'close' }) => {
  if (m.type === 'cpu') {
    const u = process.cpuUsage();
    process.send!({ type: 'cpu', ms: (u.user + u.system) / 1000 });
  } else if (m.type === 'open') {
    open(m).then(
      () => process.send!({ type: 'opened' }),
      (err: unknown) => process.send!({ type: 'error', message: (err as Error).message }),
    );
  } else if (m.type === 'report') process.send!(report(m.from, m.to));
  else if (m.type === 'close') {
    for (const s of sockets) s.destroy();
    process.exit(0);
  }
});
process.once('disconnect', () => process.exit(0));
process.send!({ type: 'ready' });
