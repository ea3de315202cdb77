// Target (b): the least a reverse proxy can do, in its own process. It pipes the request to
// BENCH_UPSTREAM and the answer back, keep-alive on both sides (as the gateway's upstream agent), and
// nothing else: the baseline the gateway's own work is measured against.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveUntilDisconnected } from './child-server';
import { loopStats } from './loop-stats';

const reportLoop = loopStats('proxy');

const upstream = new URL(process.env.BENCH_UPSTREAM!);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const server = http.createServer((req, res) => {
  const up = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent }, (upRes) => {
    res.writeHead(upRes.statusCode ?? 502, upRes.headers);
    upRes.pipe(res);
  });
  up.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(up);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  serveUntilDisconnected({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, async () => {
    reportLoop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    agent.destroy();
  });
});
