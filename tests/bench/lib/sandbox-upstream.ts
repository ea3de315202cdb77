// Target (a): the sandbox chain served directly by its own Express app on a loopback port, in its
// own process, set up the way the gateway serves its in-process sandbox.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createSandboxChain, sandboxRouter } from '../../../server/sandbox/chain/index';
import { serveUntilDisconnected } from './child-server';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(sandboxRouter(createSandboxChain({ network: 'mainnet' })));

const server = http.createServer(app);
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  serveUntilDisconnected({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
