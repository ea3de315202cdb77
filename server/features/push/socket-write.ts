// Writing a websocket frame to a connection's socket in as little work as the system allows: a
// block's frame goes to every subscriber at once, and what the gateway spends per socket is what ten
// thousand connections wait for.
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';

/** Whether a stream is a plain TCP socket (not TLS), whose frames may go to its descriptor: asked once per connection. */
export function isPlainTcp(socket: Duplex): boolean {
  return socket instanceof net.Socket && !(socket instanceof tls.TLSSocket);
}

/**
 * The file descriptor of a plain TCP socket, on which a frame can be written in one system call;
 * null once it is closed or closing, or on a platform without descriptors. Read at every write,
 * never kept: a destroyed socket's handle, and its descriptor, are gone.
 */
function descriptorOf(socket: Duplex): number | null {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } | null })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : null;
}

/**
 * Writes a frame to the socket (`plainTcp`: isPlainTcp's answer for it). With nothing queued on a
 * plain TCP socket, the frame goes to the kernel in one write(2) on its descriptor, without the
 * stream's request object, callback and bookkeeping (a tenth of a fan-out's processor time).
 * Whatever that write did not take (the kernel's buffer full, an error) goes through the stream's
 * write, which queues it behind nothing and reports an error its own way; with something queued
 * already, the whole frame does, so frames never overtake each other.
 */
export function writeFrame(socket: Duplex, frame: Buffer, plainTcp: boolean): void {
  if (plainTcp && socket.writableLength === 0) {
    const fd = descriptorOf(socket);
    if (fd !== null) {
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
