import http from 'node:http';
import https from 'node:https';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { IpfsStore, StoredFile } from './store';

/** A Kubo RPC error ({Message, Code, Type}), or a transport failure. */
export class KuboError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'KuboError';
  }
}

const NOT_FOUND = /not found|no link named|could not resolve|failed to resolve|merkledag: not found/i;

/**
 * A Kubo node through its RPC API (`/api/v0/...`, every call a POST): add with `ipfs add`'s defaults
 * spelled out, cat with offset/length, files/stat, pin/add and pin/rm. Kubo keeps its own blocks and
 * collects them with its own garbage collector; Cairn's pins become Kubo pins.
 */
export class KuboIpfsStore implements IpfsStore {
  readonly kind = 'kubo' as const;
  readonly description: string;
  private readonly base: URL;
  private readonly agent: http.Agent;

  constructor(
    apiUrl: string,
    private readonly timeoutMs: number,
  ) {
    this.base = new URL(apiUrl.replace(/\/+$/, '') + '/');
    this.agent = this.base.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.description = `Kubo node at ${this.base.origin} (RPC API)`;
  }

  open(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.agent.destroy();
    return Promise.resolve();
  }

  private request(rpc: string, args: Record<string, string>, body?: { contentType: string; stream: Readable }, timeout = true): Promise<http.IncomingMessage> {
    const url = new URL(`api/v0/${rpc}`, this.base);
    for (const [k, v] of Object.entries(args)) url.searchParams.set(k, v);
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.request(url, { method: 'POST', agent: this.agent, headers: body ? { 'content-type': body.contentType, 'transfer-encoding': 'chunked' } : {} }, async (res) => {
        if ((res.statusCode ?? 500) < 300) return resolve(res);
        let text = '';
        for await (const c of res) text += String(c);
        let message = text.trim() || `Kubo answered ${res.statusCode}`;
        try {
          message = (JSON.parse(text) as { Message?: string }).Message ?? message;
        } catch {
          // not JSON
        }
        reject(new KuboError(message, res.statusCode ?? 500));
      });
      if (timeout) req.setTimeout(this.timeoutMs, () => req.destroy(new KuboError(`Kubo did not answer ${rpc} within ${this.timeoutMs} ms`, 504)));
      req.on('error', (err) => reject(err instanceof KuboError ? err : new KuboError(`Kubo ${rpc}: ${err.message}`, 502)));
      if (!body) return void req.end();
      body.stream.on('error', (err) => req.destroy(err));
      body.stream.pipe(req);
    });
  }

  private async json<T>(rpc: string, args: Record<string, string>): Promise<T> {
    const res = await this.request(rpc, args);
    let text = '';
    for await (const c of res) text += String(c);
    return JSON.parse(text) as T;
  }

  guard<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  async add<T>(source: AsyncIterable<Uint8Array>, stored: (r: { cid: string; size: number }) => Promise<T>): Promise<T> {
    const boundary = `cairn${crypto.randomBytes(12).toString('hex')}`;
    let size = 0;
    const multipart = Readable.from(
      (async function* () {
        yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="file"\r\nContent-Type: application/octet-stream\r\n\r\n`);
        for await (const chunk of source) {
          size += chunk.byteLength;
          yield chunk;
        }
        yield Buffer.from(`\r\n--${boundary}--\r\n`);
      })(),
    );
    // pin=false: Kubo collects what Cairn never pins, as the contract says of unpinned adds.
    const res = await this.request(
      'add',
      { 'cid-version': '0', 'raw-leaves': 'false', chunker: 'size-262144', trickle: 'false', pin: 'false', progress: 'false', 'quieter': 'true' },
      { contentType: `multipart/form-data; boundary=${boundary}`, stream: multipart },
      false,
    );
    let text = '';
    for await (const c of res) text += String(c);
    const lines = text.trim().split('\n').filter(Boolean);
    const last = JSON.parse(lines[lines.length - 1] ?? '{}') as { Hash?: string };
    if (!last.Hash) throw new KuboError('Kubo answered the add without a hash', 502);
    return stored({ cid: last.Hash, size });
  }

  async stat(path: string): Promise<{ cid: string; size: number; type: 'file' | 'directory' } | null> {
    try {
      const s = await this.json<{ Hash: string; Size: number; CumulativeSize: number; Type: string }>('files/stat', { arg: `/ipfs/${path}` });
      return s.Type === 'directory' ? { cid: s.Hash, size: s.CumulativeSize, type: 'directory' } : { cid: s.Hash, size: s.Size, type: 'file' };
    } catch (err) {
      if (err instanceof KuboError && err.status < 502 && NOT_FOUND.test(err.message)) return null;
      throw err;
    }
  }

  async cat(path: string): Promise<StoredFile | 'directory' | null> {
    const st = await this.stat(path);
    if (!st) return null;
    if (st.type === 'directory') return 'directory';
    const request = (args: Record<string, string>) => this.request('cat', args, undefined, false);
    const read = (range?: { offset: number; length: number }): AsyncIterable<Uint8Array> =>
      (async function* () {
        const args: Record<string, string> = { arg: `/ipfs/${path}` };
        if (range) Object.assign(args, { offset: String(range.offset), length: String(range.length) });
        yield* (await request(args)) as AsyncIterable<Uint8Array>;
      })();
    const parts: Uint8Array[] = [];
    if (st.size > 0) for await (const p of read({ offset: 0, length: Math.min(512, st.size) })) parts.push(p);
    return { size: st.size, head: Buffer.concat(parts).subarray(0, 512), read };
  }

  async pin(cid: string): Promise<void> {
    await this.json('pin/add', { arg: cid, recursive: 'true' });
  }

  async unpin(cid: string): Promise<void> {
    try {
      await this.json('pin/rm', { arg: cid, recursive: 'true' });
    } catch (err) {
      if (err instanceof KuboError && /not pinned/i.test(err.message)) return;
      throw err;
    }
  }

  collect(): Promise<{ removedBlocks: number }> {
    return Promise.resolve({ removedBlocks: 0 });
  }
}
