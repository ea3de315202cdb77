// A bare local HTTP endpoint answering 200 to every POST, run in its own process by the benchmark.
// It counts the event ids it receives, so the bench can check every event arrived exactly once;
// on the message 'peek' it answers {total, distinct}, on 'count' the same and then forgets them.
// With RECEIVER_TIMES=1 it also keeps, per event id, the wall-clock time (ms, sub-millisecond) at which
// it answered 200 to the event's first request, and sends them on 'times' as {times: [[id, ms], …]}.
import http from 'node:http';

let ids = new Map<string, number>();
let total = 0;
const keepTimes = process.env.RECEIVER_TIMES === '1';
const times = new Map<string, number>();
// The body is read in full but kept as bytes: an event's id opens it ({"id":"…"), so only its first
// bytes are decoded, and the receiver takes little of the CPU it shares with the processes measured.
const HEAD = 256;
const idIn = (text: string) => /"id":"([^"]+)"/.exec(text)?.[1];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const id = idIn(body.toString('utf8', 0, Math.min(HEAD, body.length))) ?? (body.length > HEAD ? idIn(body.toString('utf8')) : undefined);
    if (id) {
      total++;
      ids.set(id, (ids.get(id) ?? 0) + 1);
      if (keepTimes && !times.has(id)) times.set(id, performance.timeOrigin + performance.now());
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as { port: number }).port });
});
process.on('message', (m: string) => {
  if (m === 'peek') process.send?.({ total, distinct: ids.size });
  if (m === 'times') process.send?.({ times: [...times] });
  if (m === 'count') {
    process.send?.({ total, distinct: ids.size });
    ids = new Map();
    total = 0;
    times.clear();
  }
});
process.on('disconnect', () => process.exit(0));
