// A frame written to a connection's socket: in one system call when nothing is queued on it, through
// the stream otherwise; either way every byte arrives, in the order written, also when the reader
// lags and the kernel's buffer fills up in the middle of a frame.
import fs from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FrameWriter, isPlainTcp } from '../../../../../server/features/push/socket-write';
import { WriterThread } from '../../../../../server/features/push/writer-thread';
import { NetworkFeed, type Subscriber } from '../../../../../server/features/push/hub';
import type { Block } from '../../../../../shared/chain';

const opened: net.Socket[] = [];
const servers: net.Server[] = [];

afterEach(async () => {
  for (const s of opened.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** A connected pair of TCP sockets on the loopback: the server's side (written to) and the client's (reading, paused at first). */
async function pair(): Promise<{ writer: net.Socket; reader: net.Socket }> {
  let server!: net.Server;
  const accepted = new Promise<net.Socket>((resolve) => {
    server = net.createServer((s) => resolve(s));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const reader = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  reader.pause();
  const writer = await accepted;
  opened.push(writer, reader);
  return { writer, reader };
}

/** Another connection to the server of the last pair: its client socket, and the server's side of it. */
async function anotherConnection(): Promise<{ client: net.Socket; other: net.Socket }> {
  const server = servers.at(-1)!;
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  const other = await accepted;
  opened.push(client, other);
  return { client, other };
}

/** Frames of `size` bytes, each filled with its own number, so order and completeness can be checked. */
const frames = (count: number, size: number) => Array.from({ length: count }, (_, i) => Buffer.alloc(size, i % 251));

function readAll(reader: net.Socket, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  return new Promise((resolve) => {
    reader.on('data', (c: Buffer) => {
      chunks.push(c);
      got += c.length;
      if (got >= bytes) resolve(Buffer.concat(chunks));
    });
    reader.resume();
  });
}

describe('FrameWriter', () => {
  it('writes a frame to an idle TCP socket in one system call, outside the stream', async () => {
    const { writer, reader } = await pair();
    const list = frames(20, 600);
    const w = new FrameWriter(writer);
    for (const f of list) w.write(f);
    // The stream saw none of it: nothing queued, nothing counted as written through it.
    expect(writer.writableLength).toBe(0);
    expect(writer.bytesWritten).toBe(0);
    expect(await readAll(reader, 20 * 600)).toEqual(Buffer.concat(list));
  });

  it('queues through the stream once the kernel buffer is full, and every byte arrives in order', async () => {
    const { writer, reader } = await pair();
    // Far more than the loopback's socket buffers hold while the reader is paused.
    const list = frames(400, 64 * 1024);
    const w = new FrameWriter(writer);
    for (const f of list) w.write(f);
    expect(writer.writableLength).toBeGreaterThan(0);
    const got = await readAll(reader, list.length * 64 * 1024);
    expect(got.length).toBe(list.length * 64 * 1024);
    expect(got.equals(Buffer.concat(list))).toBe(true);
  });

  it('takes the stream for a socket that is not a plain TCP socket', async () => {
    const { PassThrough } = await import('node:stream');
    const stream = new PassThrough();
    const f = Buffer.from('frame');
    expect(isPlainTcp(stream)).toBe(false);
    new FrameWriter(stream).write(f);
    expect(stream.read()).toEqual(f);
  });

  it('lets the stream report a write to a closed connection', async () => {
    const { writer, reader } = await pair();
    reader.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const errors: Error[] = [];
    writer.on('error', (e) => errors.push(e));
    const w = new FrameWriter(writer);
    for (let i = 0; i < 50 && !writer.destroyed; i++) {
      w.write(Buffer.alloc(600, 1));
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(writer.destroyed).toBe(true);
  });

  it('never writes to the descriptor of a socket closed since, which the system gave to another', async () => {
    const first = await pair();
    const fdOf = (s: net.Socket) => (s as unknown as { _handle: { fd: number } })._handle.fd;
    const w = new FrameWriter(first.writer);
    w.write(Buffer.from('a'));
    const closed = fdOf(first.writer);
    first.writer.on('error', () => undefined);
    first.writer.destroy();
    // Another connection to the same server: its client socket takes the lowest free descriptor, the closed one.
    const { client, other } = await anotherConnection();
    await new Promise((r) => client.once('connect', r));
    expect(fdOf(client)).toBe(closed);
    w.write(Buffer.from('stale'));
    client.write('ok');
    const got = await readAll(other, 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(got.toString()).toBe('ok');
  });
});

describe('a socket lent to the writer thread', () => {
  const fdOf = (s: net.Socket) => (s as unknown as { _handle: { fd: number } })._handle.fd;

  it("gets the thread's frame first, then what this thread wrote meanwhile, in order", async () => {
    const writer = new WriterThread();
    try {
      const pairs = await Promise.all(Array.from({ length: 8 }, () => pair()));
      const ws = pairs.map((p) => new FrameWriter(p.writer));
      const block = Buffer.alloc(700, 7);
      const after = Buffer.alloc(300, 9);
      const fds = ws.map((w) => w.lend());
      expect(fds.every((fd) => fd >= 0)).toBe(true);
      // Lent already: a second lend is refused, and this thread's frame waits in the stream.
      expect(ws[0]!.lend()).toBe(-1);
      for (const w of ws) w.write(after);
      expect(pairs.every((p) => p.writer.writableLength === after.length)).toBe(true);
      const written = await writer.write(block, Int32Array.from(fds));
      expect([...written!]).toEqual(fds.map(() => block.length));
      ws.forEach((w) => expect(w.settle(block.length, block)).toBe(true));
      for (const p of pairs) expect(await readAll(p.reader, 1000)).toEqual(Buffer.concat([block, after]));
    } finally {
      await writer.close();
    }
  });

  it('writes the rest of a frame the thread wrote in part before anything queued meanwhile', async () => {
    const { writer, reader } = await pair();
    const w = new FrameWriter(writer);
    const frame = Buffer.alloc(1000, 3);
    const fd = w.lend();
    // What a thread whose write the kernel took in part leaves: the frame's first 400 bytes.
    fs.writeSync(fd, frame, 0, 400);
    w.write(Buffer.alloc(100, 4));
    expect(w.settle(400, frame)).toBe(true);
    expect(await readAll(reader, 1100)).toEqual(Buffer.concat([frame, Buffer.alloc(100, 4)]));
  });

  it('drops a connection whose frame cannot be finished, rather than leave it mid-frame', async () => {
    const { writer } = await pair();
    const w = new FrameWriter(writer);
    writer.on('error', () => undefined);
    w.lend();
    expect(w.settle(-1, Buffer.alloc(10))).toBe(false);
    expect(writer.destroyed).toBe(true);
  });

  it('keeps the descriptor of a socket closed while lent until it is settled, so no new connection takes its number', async () => {
    const first = await pair();
    const w = new FrameWriter(first.writer);
    const fd = w.lend();
    first.writer.destroy();
    // Another connection to the same server: its sockets cannot take the lent number.
    const { client, other } = await anotherConnection();
    expect([fdOf(client), fdOf(other)]).not.toContain(fd);
    // Still the first connection's: a write reaches its reader.
    const late = readAll(first.reader, 4);
    expect(fs.writeSync(fd, Buffer.from('late'))).toBe(4);
    expect((await late).toString()).toBe('late');
    // Settled, the close it asked for happens.
    const closed = new Promise((r) => first.writer.once('close', r));
    w.settle(4, Buffer.from('late'));
    await closed;
  });
});

describe("a feed's fan-out shared with the writer thread", () => {
  it('reaches every subscriber once, some from the thread, each address notification after its block, lent or not', async () => {
    const writer = new WriterThread();
    try {
      const feed = new NetworkFeed(writer, 4);
      const pairs = await Promise.all(Array.from({ length: 16 }, () => pair()));
      const lent: number[] = [];
      const subs = pairs.map((p, i): Subscriber => {
        const w = new FrameWriter(p.writer);
        return {
          write: (f) => w.write(f),
          lend: () => {
            const fd = w.lend();
            if (fd >= 0) lent.push(i);
            return fd;
          },
          settle: (written, frame) => void w.settle(written, frame),
          blockSubscription: 'b',
          addressSubscription: 'a',
          blockSent: 0,
        };
      });
      for (const s of subs) feed.subscribeBlocks(s);
      // One subscriber the thread writes to, one this thread does.
      feed.setAddresses(subs[5]!, [], ['addr_test1x']);
      feed.setAddresses(subs[15]!, [], ['addr_test1x']);
      const block = { height: 5, hash: 'f'.repeat(64) } as Block;
      const fanOut = feed.announceBlock(block);
      feed.announceAddresses(new Map([['addr_test1x', ['{"address":"addr_test1x"}']]]), true);
      await fanOut;
      // Eleven of every twenty subscribers went to the thread.
      expect(lent).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      // What each reader has once its frames arrived (each holds one "id").
      const chunks = pairs.map((p) => {
        const got: Buffer[] = [];
        p.reader.on('data', (c: Buffer) => got.push(c));
        p.reader.resume();
        return got;
      });
      const expectedOf = (i: number) => (i === 5 || i === 15 ? 2 : 1);
      const texts = () => chunks.map((got, i) => ({ expected: expectedOf(i), all: Buffer.concat(got).toString('latin1') }));
      const deadline = Date.now() + 5000;
      while (texts().some(({ expected, all }) => all.split('"id":').length - 1 < expected) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      for (const { expected, all } of texts()) {
        expect(all.split('"id":"b"').length - 1).toBe(1);
        expect(all.split('"id":"a"').length - 1).toBe(expected - 1);
        if (expected === 2) expect(all.indexOf('"id":"b"')).toBeLessThan(all.indexOf('"id":"a"'));
      }
    } finally {
      await writer.close();
    }
  });
});
