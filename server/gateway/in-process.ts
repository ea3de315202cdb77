// A backend call made inside the gateway for a caller that has no HTTP request of its own (a
// websocket frame): a real HTTP request and response over an in-memory socket pair, so every backend
// (an upstream pool, the sandbox chain with its submission tracking, …) answers it exactly as it
// answers a client, with no port, no second admission and no second metering.
import http from 'node:http';
import { duplexPair, type Duplex } from 'node:stream';
import type { AdmittedCall, CallSteps, GatewayBackend } from './backend';
import { GatewayResponse } from './gateway-response';

export interface InProcessRequest {
  method: 'GET' | 'POST';
  /** The path after /api/v0, with its query string. */
  path: string;
  body?: Buffer;
  contentType?: string;
}

export interface InProcessAnswer {
  status: number;
  body: Buffer;
}

const CALL = Symbol('cairn.inProcessCall');
interface Pending {
  backend: GatewayBackend;
  path: string;
  call: AdmittedCall;
  steps: CallSteps;
}
type CarryingSocket = Duplex & { [CALL]?: Pending };

/** Answers calls to backends in process; one per gateway. */
export function inProcessCaller(): (backend: GatewayBackend, request: InProcessRequest, call: AdmittedCall, steps: CallSteps) => Promise<InProcessAnswer> {
  // Never listens: each call hands it one end of a socket pair.
  const server = http.createServer({ ServerResponse: GatewayResponse }, (req, res) => {
    const pending = (req.socket as CarryingSocket)[CALL];
    if (!pending) return void res.destroy();
    pending.backend.handle(req, res, pending.path, pending.call, pending.steps);
  });
  return (backend, request, call, steps) =>
    new Promise<InProcessAnswer>((resolve, reject) => {
      const [client, serverSide] = duplexPair();
      (serverSide as CarryingSocket)[CALL] = { backend, path: request.path, call, steps };
      server.emit('connection', serverSide);
      const headers: http.OutgoingHttpHeaders = { connection: 'close' };
      if (request.body) {
        headers['content-type'] = request.contentType ?? 'application/octet-stream';
        headers['content-length'] = request.body.length;
      }
      const req = http.request({ method: request.method, path: '/', headers, createConnection: () => client as never }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 500, body: Buffer.concat(chunks) });
          client.destroy();
        });
        res.on('error', reject);
      });
      req.on('error', (err) => {
        client.destroy();
        reject(err);
      });
      req.end(request.body);
    });
}
