// Writing websocket frames to a connection's socket in as little work as the system allows: a
// block's frame goes to every subscriber at once, and what the gateway spends per socket is what ten
// thousand connections wait for.
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';

/** A socket handle's calls that release its descriptor. */
type Closable = Record<'close' | 'reset', ((...args: unknown[]) => unknown) | undefined>;

/** Whether a stream is a plain TCP socket (not TLS), whose frames may go to its descriptor. */
export function isPlainTcp(socket: Duplex): boolean {
  return socket instanceof net.Socket && !(socket instanceof tls.TLSSocket);
}

/**
 * Writes one connection's frames. With nothing queued on a plain TCP socket, a frame goes to the
 * kernel in one write(2) on its descriptor, without the stream's request object, callback and
 * bookkeeping (up to a tenth of a fan-out's processor time). Whatever that write did not take (the
 * kernel's buffer full, an error) goes through the stream's write, which queues it behind nothing
 * and reports an error its own way; with something queued already, the whole frame does, so frames
 * never overtake each other.
 */
export class FrameWriter {
  private readonly plainTcp: boolean;
  /**
   * The socket's handle when its descriptor was read, and that descriptor (-1: none). The same
   * handle has the same descriptor; a socket that closes drops its handle in the same step as it
   * closes the descriptor, so a descriptor the system gave to another socket since is never used.
   */
  private handle: object | null = null;
  private fd = -1;
  /** Lent to another thread (lend()): the stream is corked and the descriptor's close waits for settle(). */
  private lent = false;
  /** The descriptor's close (and reset) asked for while lent, run by settle(). */
  private heldCloses: Array<() => void> = [];
  private closeHeld = false;

  constructor(private readonly socket: Duplex) {
    this.plainTcp = isPlainTcp(socket);
  }

  write(frame: Buffer): void {
    const socket = this.socket;
    if (this.plainTcp && socket.writableLength === 0 && !this.lent) {
      const fd = this.descriptor();
      if (fd >= 0) {
        let written = 0;
        try {
          written = fs.writeSync(fd, frame);
        } catch {
          // EAGAIN (the socket's buffer is full), or the connection failed: the stream's write below
          // waits for room, or meets the same error and closes the socket as any write would.
        }
        if (written === frame.length) return;
        if (written > 0) frame = frame.subarray(written);
      }
    }
    socket.write(frame);
  }

  /**
   * Lends the socket's descriptor to another thread for one frame (writer-thread.ts), or answers -1
   * when it cannot be lent now (not plain TCP, something queued, already lent). Until settle(), no
   * frame of this thread reaches the descriptor: the stream is corked, so this writer's frames and
   * the websocket library's own (pongs, the close) wait in it, in order, and a close of the socket
   * holds its descriptor open, so the system cannot give its number to a connection accepted
   * meanwhile, which would receive the other thread's frame.
   */
  lend(): number {
    const socket = this.socket;
    if (!this.plainTcp || this.lent || socket.writableLength !== 0 || socket.writableCorked > 0 || socket.destroyed) return -1;
    const fd = this.descriptor();
    if (fd < 0) return -1;
    this.holdCloses(this.handle as Closable);
    socket.cork();
    this.lent = true;
    return fd;
  }

  /**
   * Takes the descriptor back once the other thread wrote `written` bytes of `frame` to it (-1: the
   * write failed). What it could not write is written now, before anything queued meanwhile; a
   * socket whose kernel buffer cannot take it (a client that has not read for many blocks) or whose
   * write failed is left mid-frame, and answers false: the connection cannot go on and is dropped.
   */
  settle(written: number, frame: Buffer): boolean {
    this.lent = false;
    let whole = written === frame.length;
    if (!whole && written >= 0 && this.fd >= 0 && !this.socket.destroyed) {
      try {
        whole = fs.writeSync(this.fd, frame, written) === frame.length - written;
      } catch {
        whole = false;
      }
    }
    if (!whole && !this.socket.destroyed) this.socket.destroy();
    // A new list only for a socket that asked to close: thousands of writers settle each block, and a
    // fresh array stored in each would be thousands of young objects the next collection must trace.
    if (this.heldCloses.length > 0) {
      const closes = this.heldCloses;
      this.heldCloses = [];
      for (const close of closes) close();
    }
    this.socket.uncork();
    return whole;
  }

  /** Makes the handle's close and reset wait while the descriptor is lent (installed once per handle). */
  private holdCloses(handle: Closable): void {
    if (this.closeHeld) return;
    this.closeHeld = true;
    for (const name of ['close', 'reset'] as const) {
      const original = handle[name];
      if (typeof original !== 'function') continue;
      handle[name] = (...args: unknown[]) => {
        if (!this.lent) return original.apply(handle, args);
        this.heldCloses.push(() => void original.apply(handle, args));
        return 0;
      };
    }
  }

  private descriptor(): number {
    const handle = (this.socket as unknown as { _handle?: { fd?: unknown } | null })._handle ?? null;
    if (handle !== this.handle) {
      this.handle = handle;
      const fd = handle?.fd;
      this.fd = typeof fd === 'number' && fd >= 0 ? fd : -1;
    }
    return this.fd;
  }
}
