import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import { EmbeddedIpfsStore } from '../../server/features/ipfs/embedded-store';

/**
 * A local HTTP server speaking the Kubo RPC calls Cairn uses (add, files/stat, cat, pin/add, pin/rm),
 * backed by a real unixfs store in a temporary folder. Kubo itself cannot be installed here.
 */
export async function startFakeKubo() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-fake-kubo-'));
  const store = new EmbeddedIpfsStore(dir);
  await store.open();
  const calls: Array<{ rpc: string; args: Record<string, string> }> = [];
  const pins = new Set<string>();
  const error = (res: http.ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ Message: message, Code: 0, Type: 'error' }));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const rpc = url.pathname.replace(/^\/api\/v0\//, '');
    const args = Object.fromEntries(url.searchParams);
    calls.push({ rpc, args });
    if (req.method !== 'POST') return error(res, 405, 'only POST');
    const arg = (args.arg ?? '').replace(/^\/ipfs\//, '');
    (async () => {
      switch (rpc) {
        case 'add': {
          const bb = busboy({ headers: req.headers });
          bb.on('file', (_f, stream, info) => {
            store
              .add(stream as AsyncIterable<Uint8Array>, async (r) => r)
              .then((r) => {
                res.writeHead(200, { 'content-type': 'application/x-ndjson' });
                res.end(JSON.stringify({ Name: info.filename, Hash: r.cid, Size: String(r.size) }) + '\n');
              }, (e: Error) => error(res, 500, e.message));
          });
          req.pipe(bb);
          return;
        }
        case 'files/stat': {
          const st = await store.stat(arg);
          if (!st) return error(res, 500, `${arg}: merkledag: not found`);
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ Hash: st.cid, Size: st.type === 'file' ? st.size : 0, CumulativeSize: st.size, Type: st.type }));
        }
        case 'cat': {
          const file = await store.cat(arg);
          if (!file || file === 'directory') return error(res, 500, 'merkledag: not found');
          res.writeHead(200, { 'content-type': 'text/plain' });
          const range = args.offset !== undefined ? { offset: Number(args.offset), length: Number(args.length ?? file.size) } : undefined;
          for await (const part of file.read(range)) res.write(part);
          return res.end();
        }
        case 'pin/add':
          if (!(await store.stat(arg))) return error(res, 500, 'merkledag: not found');
          pins.add(arg);
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ Pins: [arg] }));
        case 'pin/rm':
          if (!pins.delete(arg)) return error(res, 500, 'not pinned or pinned indirectly');
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ Pins: [arg] }));
        default:
          return error(res, 404, `unknown command ${rpc}`);
      }
    })().catch((e: Error) => error(res, 500, e.message));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    pins,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A local IPFS Pinning Service API (POST /pins, GET /pins/{requestid}): a request stays 'pinning'
 * until the test calls `finish(cid)`, however often the gateway's own queue pass asks about it.
 */
export async function startFakePinningService(token: string) {
  const requests = new Map<string, { cid: string; name: string; asked: number }>();
  const finished = new Set<string>();
  let n = 0;
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: { reason: 'UNAUTHORIZED', details: 'bad token' } });
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const m = /^\/pins\/(.+)$/.exec(req.url ?? '');
      if (req.method === 'POST' && req.url === '/pins') {
        const body = JSON.parse(text) as { cid: string; name: string };
        const requestid = `req-${++n}`;
        requests.set(requestid, { ...body, asked: 0 });
        return send(202, { requestid, status: 'queued', created: new Date().toISOString(), pin: body, delegates: [] });
      }
      if (req.method === 'GET' && m) {
        const r = requests.get(decodeURIComponent(m[1]!));
        if (!r) return send(404, { error: { reason: 'NOT_FOUND' } });
        r.asked++;
        return send(200, { requestid: m[1], status: finished.has(r.cid) ? 'pinned' : 'pinning', created: new Date().toISOString(), pin: { cid: r.cid }, delegates: [] });
      }
      send(404, { error: { reason: 'NOT_FOUND' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** From now on the service answers that this CID is pinned. */
    finish: (cid: string) => void finished.add(cid),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
