import crypto from 'node:crypto';
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface IpfsResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
  raw: Buffer;
}

function collect(res: http.IncomingMessage): Promise<IpfsResponse> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    res.on('data', (c: Buffer) => parts.push(c));
    res.on('error', reject);
    res.on('end', () => {
      const raw = Buffer.concat(parts);
      let body: any = raw.toString('utf8');
      try {
        body = JSON.parse(body);
      } catch {
        // not JSON
      }
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body, raw });
    });
  });
}

/** One gateway call with a project key. */
export function ipfsCall(method: string, url: string, key: string, headers: Record<string, string> = {}): Promise<IpfsResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { project_id: key, ...headers } }, (res) => collect(res).then(resolve, reject));
    req.on('error', reject);
    req.end();
  });
}

/** Deterministic pseudo-random bytes (an AES-CTR keystream): the same seed gives the same content and CID. */
export function* pseudoRandom(size: number, seed: string, chunk = 64 * 1024): Generator<Buffer> {
  const key = crypto.createHash('sha256').update(seed).digest();
  const cipher = crypto.createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  const zeros = Buffer.alloc(chunk);
  let left = size;
  while (left > 0) {
    const n = Math.min(chunk, left);
    left -= n;
    yield cipher.update(n === chunk ? zeros : zeros.subarray(0, n));
  }
}

/**
 * POST /ipfs/add as a multipart upload streamed from `content` (never assembled in memory). With
 * `contentBytes` (the file's length) the body's Content-Length is declared, as the SDK's form-data
 * does for a file; without it the body is sent chunked.
 */
export function ipfsAdd(baseUrl: string, key: string, content: Iterable<Buffer> | Buffer, filename = 'file.bin', opts: { field?: string; abortAfterBytes?: number; contentBytes?: number } = {}): Promise<IpfsResponse> {
  const boundary = `----cairntest${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = opts.contentBytes;
  const framing = length === undefined ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(head.byteLength + length + tail.byteLength) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}/api/v0/ipfs/add`,
      { method: 'POST', agent, headers: { project_id: key, 'content-type': `multipart/form-data; boundary=${boundary}`, ...framing } },
      (res) => collect(res).then(resolve, reject),
    );
    req.on('error', reject);
    const chunks = Buffer.isBuffer(content) ? [content] : content;
    (async () => {
      const write = (b: Buffer) => (req.write(b) ? Promise.resolve() : new Promise<void>((r) => req.once('drain', () => r())));
      await write(head);
      let sent = 0;
      for (const c of chunks) {
        await write(c);
        sent += c.byteLength;
        if (opts.abortAfterBytes !== undefined && sent >= opts.abortAfterBytes) return;
      }
      await write(tail);
      req.end();
    })().catch(reject);
  });
}
