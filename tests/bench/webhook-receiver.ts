// A bare local HTTP endpoint answering 200 to every POST, run in its own process by the benchmark.
import http from 'node:http';

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as { port: number }).port });
});
process.on('disconnect', () => process.exit(0));
