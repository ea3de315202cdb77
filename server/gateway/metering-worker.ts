// The gateway's metering worker thread (started by metering.ts): it counts the requests the
// gateway's thread sends as packed records and turns each flush into parts of statements with bound
// values, which it sends back, all parts of a flush in one message, to be run on the gateway's
// database connection.
// Counting, grouping, geolocation, user-agent parsing and building the statements (the bulk of the
// metering's work, and most of what it allocates) never hold up the gateway's event loop or its
// garbage collections.
import { parentPort, workerData } from 'node:worker_threads';
import { MeterCore, type RunFlush, type Statement } from './metering-core';
import { FIELD, FIELDS, type ToMain, type ToWorker } from './metering-protocol';

const port = parentPort!;
const { engine, flushMs } = workerData as { engine: 'pg' | 'sqlite'; flushMs: number };
const core = new MeterCore(engine, flushMs);
/** The strings the records refer to by number (endpoints, IPs, user agents), as the gateway's thread numbered them. */
let strings: string[] = [];
/** Parts sent to be run, until the gateway's thread says how they went. */
const running = new Map<number, (error: string | null) => void>();
let nextRun = 1;

const send = (m: ToMain) => port.postMessage(m);

const runPart = (statements: Statement[]) =>
  new Promise<string | null>((resolve) => {
    const id = nextRun++;
    running.set(id, resolve);
    send({ t: 'part', id, statements });
  });

const runFlush: RunFlush = async ({ parts, gapMs }) => {
  let sent = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.length === 0) continue;
    if (sent && gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    sent = true;
    const error = await runPart(part);
    if (error !== null) return { written: i, error };
  }
  return { written: parts.length, error: null };
};

port.on('message', (m: ToWorker) => {
  switch (m.t) {
    case 'records': {
      if (m.restart) strings = [];
      for (const s of m.strings) strings.push(s);
      const r = new Float64Array(m.buffer);
      for (let i = 0; i < m.count; i++) {
        const o = i * FIELDS;
        core.count({
          projectId: r[o + FIELD.projectId]!,
          ownerId: r[o + FIELD.ownerId]!,
          endpoint: strings[r[o + FIELD.endpoint]!]!,
          status: r[o + FIELD.status]!,
          ip: strings[r[o + FIELD.ip]!]!,
          userAgent: strings[r[o + FIELD.userAgent]!]!,
          admitted: r[o + FIELD.admitted] === 1,
          refused: r[o + FIELD.refused]!,
          at: r[o + FIELD.at]!,
          latencyMs: r[o + FIELD.latencyMs]!,
          message: strings[r[o + FIELD.message]!]!,
        });
      }
      return;
    }
    case 'flush':
      void core.flush(runFlush, m.now, m.paced).then(
        (error) => send({ t: 'flushed', id: m.id, error }),
        (err: unknown) => send({ t: 'flushed', id: m.id, error: (err as Error).message }),
      );
      return;
    case 'written':
      running.get(m.id)?.(m.error);
      running.delete(m.id);
      return;
  }
});
