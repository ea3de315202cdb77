// bench:ipfs-size's client and baselines, each run in a process of its own (a remote client's CPU
// is not the server's; the baselines inherit nothing from the gateway's process). Prints one JSON line.
//   upload <gateway url> <key> <file>      POST /ipfs/add of the file, streamed from disk
//   download <gateway url> <key> <cid>     GET /ipfs/gateway/<cid>, bytes counted and dropped
//   import <blockstore dir> <file>         the bare ipfs-unixfs-importer into a blockstore-fs
//   export <blockstore dir> <cid>          the bare ipfs-unixfs-exporter from a blockstore-fs
// The baselines warm up first (compiled, heap grown) on 16 MB, like the long-running gateway.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { FsBlockstore } from 'blockstore-fs';
import { NextToLast } from 'blockstore-fs/sharding';
import { importer } from 'ipfs-unixfs-importer';
import { exporter } from 'ipfs-unixfs-exporter';
import { pseudoRandom } from '../../helpers/ipfs';

const WARMUP_BYTES = 16_000_000;
const [mode, target, a, b] = process.argv.slice(2) as [string, string, string, string];
const out = (v: unknown) => {
  console.log(JSON.stringify(v));
  process.exit(0);
};

function upload(url: string, key: string, file: string): Promise<{ ms: number; status: number; body: string }> {
  const boundary = `----cairnbench${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = fs.statSync(file).size;
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/v0/ipfs/add`,
      { method: 'POST', headers: { project_id: key, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.byteLength + size + tail.byteLength) } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ ms: performance.now() - t, status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    // Read 1 MB at a time from the page cache: the least of this machine's CPU the client takes.
    const stream = fs.createReadStream(file, { highWaterMark: 1 << 20 });
    stream.on('end', () => req.end(tail));
    stream.on('error', reject);
    stream.pipe(req, { end: false });
  });
}

function download(url: string, key: string, cid: string): Promise<{ ms: number; status: number; bytes: number }> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/api/v0/ipfs/gateway/${cid}`, { headers: { project_id: key } }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.byteLength));
        res.on('end', () => resolve({ ms: performance.now() - t, status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const blockstore = async (dir: string) => {
  const store = new FsBlockstore(dir, { shardingStrategy: new NextToLast() });
  await store.open();
  return store;
};

async function bareImport(store: FsBlockstore, content: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<string> {
  let cid = '';
  for await (const entry of importer([{ content }], store, { cidVersion: 0, rawLeaves: false })) cid = entry.cid.toString();
  return cid;
}

async function bareExport(store: FsBlockstore, cid: string, length?: number): Promise<number> {
  const entry = await exporter(cid, store);
  if (entry.type !== 'file') throw new Error(`${cid} is not a file`);
  let bytes = 0;
  for await (const part of entry.content(length === undefined ? {} : { length })) bytes += part.byteLength;
  return bytes;
}

if (mode === 'upload') out(await upload(target, a, b));
else if (mode === 'download') out(await download(target, a, b));
else if (mode === 'import') {
  const store = await blockstore(target);
  const warm = await bareImport(store, pseudoRandom(WARMUP_BYTES, `warm-up-${crypto.randomUUID()}`));
  await bareExport(store, warm);
  const t = performance.now();
  const cid = await bareImport(store, fs.createReadStream(a, { highWaterMark: 1 << 20 }));
  out({ ms: performance.now() - t, cid });
} else if (mode === 'export') {
  const store = await blockstore(target);
  await bareExport(store, a, WARMUP_BYTES);
  const t = performance.now();
  const bytes = await bareExport(store, a);
  out({ ms: performance.now() - t, bytes });
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
