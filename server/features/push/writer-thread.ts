// A second thread for a block's fan-out. Each subscriber costs the gateway one write(2) of the block's
// frame, some 10 µs of a core (most of it the kernel's), so ten thousand subscribers hold one thread
// for about 100 ms; with this thread writing about half of the descriptors while the main thread writes the
// rest, the last subscriber hears of the block in about half that on a machine with a core to
// spare. The sockets stay the main thread's: it lends this thread their descriptors for one frame
// (FrameWriter.lend, socket-write.ts, which holds their other frames and their close meanwhile) and
// takes them back with what was written.
import { Worker } from 'node:worker_threads';

/**
 * The thread's code: writes the frame to each descriptor in turn and answers the bytes each write
 * took (0 when the kernel's buffer was full, -1 when the write failed). A few lines of plain
 * JavaScript, run from this text, so the production build needs no file of its own for it.
 */
const WRITER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
parentPort.on('message', ({ seq, frame, fds }) => {
  const written = new Int32Array(fds.length);
  for (let i = 0; i < fds.length; i++) {
    try {
      written[i] = fs.writeSync(fds[i], frame);
    } catch (err) {
      written[i] = err && err.code === 'EAGAIN' ? 0 : -1;
    }
  }
  parentPort.postMessage({ seq, written }, [written.buffer]);
});
`;

/**
 * One thread that writes frames to lent descriptors, a batch at a time, in the order asked. It starts
 * with the gateway (some 10 MB and 50 ms of a core, once), not at the first large fan-out, so what a
 * gateway holds per connection is what its connections cost; one that failed is started again at the
 * next batch.
 */
export class WriterThread {
  private worker: Worker | null = null;
  private seq = 0;
  private readonly waiting = new Map<number, (written: Int32Array | null) => void>();
  private closed = false;

  constructor() {
    this.started();
  }

  /**
   * Writes `frame` to every descriptor of `fds`; resolves with the bytes each write took, or null if
   * the thread failed (what it wrote is unknown: the caller drops those connections).
   */
  write(frame: Buffer, fds: Int32Array): Promise<Int32Array | null> {
    if (this.closed) return Promise.resolve(null);
    const worker = this.started();
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.waiting.set(seq, resolve);
      // The frame is copied for the thread (a few hundred bytes); the descriptors' list is handed over.
      worker.postMessage({ seq, frame: new Uint8Array(frame), fds }, [fds.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.fail();
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WRITER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', ({ seq, written }: { seq: number; written: Int32Array }) => {
      const resolve = this.waiting.get(seq);
      this.waiting.delete(seq);
      resolve?.(written);
    });
    const failed = () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.fail();
    };
    worker.on('error', failed);
    worker.on('exit', failed);
    this.worker = worker;
    return worker;
  }

  /** Answers every batch still waiting with null. */
  private fail(): void {
    for (const resolve of this.waiting.values()) resolve(null);
    this.waiting.clear();
  }
}
