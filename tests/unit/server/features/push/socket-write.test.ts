// A frame written to a connection's socket: in one system call when nothing is queued on it, through
// the stream otherwise; either way every byte arrives, in the order written, also when the reader
// lags and the kernel's buffer fills up in the middle of a frame.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FrameWriter, isPlainTcp } from '../../../../../server/features/push/socket-write';

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
    const server = servers.at(-1)!;
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
    const other = await accepted;
    opened.push(client, other);
    await new Promise((r) => client.once('connect', r));
    expect(fdOf(client)).toBe(closed);
    w.write(Buffer.from('stale'));
    client.write('ok');
    const got = await readAll(other, 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(got.toString()).toBe('ok');
  });
});
