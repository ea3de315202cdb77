// bench:push's websocket clients, in a process of their own so reading notifications does not take
// the gateway's event loop. Told {type: 'open'}: opens its connections (each with a project key),
// subscribes every one to blocks and those given addresses to them, and answers {type: 'opened'}.
// Every message received is kept as it came with the time it came (parsed only when asked), so the
// clock reads as little client work as can be. Told {type: 'report', from, to}: answers, for the
// blocks `from`..`to`, each notification's delay after the block was due (genesis + height ×
// interval), how many each connection received, and the address notifications. Told {type: 'cpu'}:
// answers its processor time so far (ms).
import WebSocket from 'ws';

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
  connections: number;
  closed: number;
}

const now = () => performance.timeOrigin + performance.now();
const received: Array<{ conn: number; at: number; data: Buffer }> = [];
let sockets: WebSocket[] = [];
let closed = 0;
let genesisTime = 0;
let blockIntervalMs = 1000;

async function open(cmd: OpenCommand): Promise<void> {
  genesisTime = cmd.genesisTime;
  blockIntervalMs = cmd.blockIntervalMs;
  const wsUrl = `${cmd.url.replace('http', 'ws')}/ws`;
  const openOne = (c: ClientConnection, index: number) =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(wsUrl, { headers: { project_id: c.key }, perMessageDeflate: false });
      let answers = c.addresses ? 2 : 1;
      const onSetup = (data: Buffer) => {
        const text = data.toString();
        if (!text.includes('"subscribed":true')) {
          // A block announced between the two answers: the block subscription is on by then.
          if (text.startsWith('{"id":"blk","type":"message"')) return;
          return reject(new Error(`a subscription was refused: ${text.slice(0, 300)}`));
        }
        if (--answers === 0) {
          ws.off('message', onSetup);
          ws.on('message', (d: Buffer) => received.push({ conn: index, at: now(), data: d }));
          resolve(ws);
        }
      };
      ws.once('open', () => {
        ws.on('message', onSetup);
        ws.send(JSON.stringify({ id: 'blk', command: 'SUBSCRIBE_BLOCK', params: {} }));
        if (c.addresses) ws.send(JSON.stringify({ id: 'adr', command: 'SUBSCRIBE_ADDRESS', params: { addresses: c.addresses } }));
      });
      ws.once('error', reject);
      ws.once('close', () => closed++);
    });
  const all: WebSocket[] = new Array(cmd.connections.length);
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
  sockets = all;
}

const HEIGHT = /"height":(\d+)/;
const HASH = /"hash":"([0-9a-f]{64})"/;

function report(from: number, to: number): ClientReport {
  const blockDelays: number[] = [];
  const heightDelays: Record<number, number[]> = {};
  const addressNotes: ClientReport['addressNotes'] = [];
  const seen = new Map<number, Map<number, number>>();
  const hashes = new Map<number, Set<string>>();
  for (const r of received) {
    const text = r.data.toString();
    if (text.startsWith('{"id":"blk"')) {
      const height = Number(HEIGHT.exec(text)?.[1]);
      if (height < from || height > to) continue;
      const delay = r.at - (genesisTime + height * blockIntervalMs);
      blockDelays.push(delay);
      (heightDelays[height] ??= []).push(delay);
      const per = seen.get(height) ?? new Map<number, number>();
      per.set(r.conn, (per.get(r.conn) ?? 0) + 1);
      seen.set(height, per);
      const hs = hashes.get(height) ?? new Set<string>();
      hs.add(HASH.exec(text)?.[1] ?? '');
      hashes.set(height, hs);
    } else if (text.startsWith('{"id":"adr"')) {
      const note = (JSON.parse(text) as { data: { address: string; txHash: string; blockInfo: { height: number } } }).data;
      const height = note.blockInfo.height;
      if (height < from || height > to) continue;
      addressNotes.push({ txHash: note.txHash, address: note.address, height, delay: r.at - (genesisTime + height * blockIntervalMs) });
    }
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
  return { type: 'report', blockDelays, heightDelays, heights, addressNotes, connections: sockets.length, closed };
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
    for (const s of sockets) s.terminate();
    process.exit(0);
  }
});
process.once('disconnect', () => process.exit(0));
process.send!({ type: 'ready' });
