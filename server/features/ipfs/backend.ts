import type http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Config } from '../../config';
import type { Db } from '../../db/index';
import type { Logger } from '../../logger';
import { AppError, PlanLimit } from '../../errors';
import { SerialTicker } from '../../ticker';
import { INTERNAL_ERROR_MESSAGE, INVALID_PATH_MESSAGE, NOT_FOUND_MESSAGE } from '../../blockfrost/http';
import { blockfrostMethods } from '../../blockfrost/methods';
import { ipfsTooLarge, mbText } from '../../../shared/ipfs';
import {
  addRoom,
  claimPin,
  collectionRoots,
  expirePins,
  getPin,
  listPins,
  markFailed,
  markPinned,
  pinDto,
  queuedPins,
  recordObject,
  removePin,
  requestPin,
  setProviderRequest,
  touchPin,
  type IpfsActor,
} from './pins';
import { EmbeddedIpfsStore } from './embedded-store';
import { KuboIpfsStore } from './kubo-store';
import { pinningService, type PinningService } from './pinning-service';
import { sniffContentType } from './content-type';
import { parseIpfsPath, type IpfsStore } from './store';
import type { GatewayBackend } from '../../gateway/backend';
import { allowAnyOrigin } from '../../gateway/respond';

/** The gateway's backend of the ipfs network (server/gateway/backend.ts), with its store's upkeep. */
export interface IpfsBackend extends GatewayBackend {
  readonly store: IpfsStore;
  readonly pinning: PinningService | null;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One pass of the pin queue (Filecoin deals, Kubo pins). Answers true when more is waiting. */
  processQueue(): Promise<boolean>;
  /** One collection: unpinned pins to gc, then every block nothing keeps removed. */
  collect(): Promise<{ removedBlocks: number; released: string[] }>;
}

export function createIpfsStore(config: Config): IpfsStore {
  return config.ipfs.kuboApiUrl ? new KuboIpfsStore(config.ipfs.kuboApiUrl, config.gateway.upstreamTimeoutMs) : new EmbeddedIpfsStore(config.dataDir);
}

const ERROR_NAMES: Record<number, string> = {
  400: 'Bad Request',
  402: 'Project Over Limit',
  404: 'Not Found',
  416: 'Range Not Satisfiable',
  425: 'Pin Queue Full',
  500: 'Internal Server Error',
  504: 'Gateway Timeout',
};

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.destroy();
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

const fail = (res: http.ServerResponse, status: number, message: string, extra?: Record<string, string>) => {
  if (extra && !res.headersSent) for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
  send(res, status, { status_code: status, error: ERROR_NAMES[status] ?? 'Error', message });
};

class BadRequest extends Error {}

function pagination(query: URLSearchParams): { count: number; page: number; order: 'asc' | 'desc' } {
  const int = (name: string, min: number, max: number, fallback: number) => {
    const v = query.get(name);
    if (v === null) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new BadRequest(`Invalid value of the query parameter ${name}: it must be a whole number from ${min} to ${max}.`);
    return Number(v);
  };
  const order = query.get('order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw new BadRequest('Invalid value of the query parameter order: it must be asc or desc.');
  return { count: int('count', 1, 100, 100), page: int('page', 1, 21_474_836, 1), order };
}

/** A single `bytes=` range (the only kind served); undefined for none or one we ignore, 'unsatisfiable' past the end. */
function parseRange(header: string | undefined, size: number): { offset: number; length: number } | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    const length = Math.min(suffix, size);
    return size === 0 ? 'unsatisfiable' : { offset: size - length, length };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { offset: start, length: end - start + 1 };
}

/**
 * Whether an If-None-Match (`weak`: weak comparison, any listed tag or *) or If-Range (strong
 * comparison of one tag) header names `etag`.
 */
function etagMatches(header: string | undefined, etag: string, weak: boolean): boolean {
  if (!header) return false;
  if (!weak) return header.trim() === etag;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** What the parts of the IPFS backend share, made once. */
interface Ipfs {
  db: Db;
  logger: Logger;
  store: IpfsStore;
  pinning: PinningService | null;
  now: () => number;
  graceMs: number;
  maxAddBytes: number;
  /**
   * An owner's adds run one after another in this process, so each add's room is read with the
   * adds before it recorded; `stranded` holds per owner the bytes of adds that failed part-way,
   * whose blocks stay in the store (and count) until the next collection.
   */
  addQueues: Map<number, Promise<unknown>>;
  stranded: Map<number, number>;
}

function oneAtATime<T>(ipfs: Ipfs, ownerId: number, fn: () => Promise<T>): Promise<T> {
  const { addQueues } = ipfs;
  const run = (addQueues.get(ownerId) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => undefined);
  addQueues.set(ownerId, tail);
  void tail.then(() => {
    if (addQueues.get(ownerId) === tail) addQueues.delete(ownerId);
  });
  return run;
}

function onError(ipfs: Ipfs, res: http.ServerResponse, err: unknown, what: string): void {
  if (err instanceof BadRequest) return fail(res, 400, err.message);
  if (err instanceof AppError) {
    if (err.status === 404) return fail(res, 404, NOT_FOUND_MESSAGE);
    // A storage limit is the plan's: answered like the other plan limits of the gateway.
    if (err.status === 422) return fail(res, 402, err.message);
    return fail(res, err.status, err.message);
  }
  ipfs.logger.error({ err: { message: (err as Error).message, stack: (err as Error).stack } }, `ipfs: ${what} failed`);
  if ((err as { status?: number }).status === 504) return fail(res, 504, 'The IPFS node did not answer in time. Please retry.');
  fail(res, 500, INTERNAL_ERROR_MESSAGE);
}

/**
 * Stores one uploaded file. What an add stores counts against the plan's storage until it is
 * collected (addRoom): an add that would pass the limit stops at the chunk that passes it and answers 402.
 */
function storeFile(ipfs: Ipfs, actor: IpfsActor, stream: Readable, name: string) {
  const { db, store, maxAddBytes, stranded } = ipfs;
  return oneAtATime(ipfs, actor.ownerId, async () => {
    const room = await addRoom(db, actor.ownerId, ipfs.graceMs, ipfs.now());
    /** Bytes handed to the store (a refused chunk is not). */
    let written = 0;
    let size = 0;
    const used = room.used + (stranded.get(actor.ownerId) ?? 0);
    const overLimit = () =>
      new PlanLimit(`Storage limit of the ${room.planName} plan reached: ${mbText(used)} of ${mbText(room.limit)} used by pins and by adds not yet collected. Remove pins or upgrade the plan.`, {
        limit: 'storageLimit',
        max: room.limit,
        used,
      });
    const limited = (async function* () {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.byteLength;
        if (size > maxAddBytes) throw new BadRequest(ipfsTooLarge(maxAddBytes));
        if (used + size > room.limit) throw overLimit();
        written = size;
        yield chunk;
      }
    })();
    try {
      return await store.add(limited, async (r) => {
        await recordObject(db, actor, { cid: r.cid, name, size: r.size }, ipfs.now());
        return r;
      });
    } catch (err) {
      if (written > 0) stranded.set(actor.ownerId, (stranded.get(actor.ownerId) ?? 0) + written);
      throw err;
    }
  });
}

/** /ipfs/add: one multipart file, streamed to the store. */
function add(ipfs: Ipfs, req: http.IncomingMessage, res: http.ServerResponse, actor: IpfsActor): void {
  const { maxAddBytes } = ipfs;
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) return fail(res, 400, 'Send the file as multipart/form-data in the field "file".');
  // A declared body far over the limit is refused before a byte of it is read.
  const declared = Number(req.headers['content-length'] ?? NaN);
  const closeAfter = () => {
    res.setHeader('connection', 'close');
    res.once('finish', () => req.destroy());
  };
  if (declared > maxAddBytes + 1_000_000) return (closeAfter(), fail(res, 400, ipfsTooLarge(maxAddBytes)));
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxAddBytes + 1, fields: 20, fieldSize: 64 * 1024, parts: 30 } });
  } catch (err) {
    return fail(res, 400, `Malformed multipart request: ${(err as Error).message}.`);
  }
  let settled = false;
  let file: Readable | null = null;
  const finish = (fn: () => void) => {
    if (settled) return;
    settled = true;
    if (!req.complete) closeAfter();
    fn();
  };
  req.on('close', () => {
    // The client went away mid-upload: end the import so its blocks become garbage, not a hang.
    if (!req.complete) file?.destroy(new Error('the client closed the connection before the file was complete'));
  });
  bb.on('error', (err: Error) => {
    file?.destroy(err);
    finish(() => fail(res, 400, `Malformed multipart request: ${err.message}.`));
  });
  bb.on('file', (field, stream, info) => {
    if (field !== 'file' || file) return void stream.resume();
    file = stream;
    const name = info.filename || 'file';
    storeFile(ipfs, actor, stream, name).then(
      (r) => finish(() => send(res, 200, { name, ipfs_hash: r.cid, size: String(r.size) })),
      (err: unknown) => {
        stream.resume();
        if (req.destroyed && !req.complete) return void (settled = true);
        finish(() => onError(ipfs, res, err, 'add'));
      },
    );
  });
  bb.on('close', () => {
    if (!file) finish(() => fail(res, 400, 'The multipart request has no field "file".'));
  });
  req.pipe(bb);
}

/** /ipfs/gateway: a file's bytes (a range of them), with the validators of immutable content. */
async function gateway(ipfs: Ipfs, req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
  const target = parseIpfsPath(raw);
  if (!target) return fail(res, 400, 'Invalid IPFS path: it must start with a CID.');
  const file = await ipfs.store.cat(target.path);
  if (!file) return fail(res, 404, NOT_FOUND_MESSAGE);
  if (file === 'directory') return fail(res, 400, 'This IPFS path is a directory: ask for a file inside it.');
  // The path starts with a CID, so its bytes never change: the path is a strong validator.
  const etag = `"${target.path}"`;
  const headers: Record<string, string> = {
    'content-type': sniffContentType(file.head, target.path),
    'accept-ranges': 'bytes',
    'cache-control': 'public, max-age=29030400, immutable',
    etag,
    'x-content-type-options': 'nosniff',
    'x-ipfs-path': `/ipfs/${target.path}`,
  };
  if (etagMatches(req.headers['if-none-match'], etag, true)) {
    delete headers['content-type'];
    res.writeHead(304, headers);
    return void res.end();
  }
  // If-Range: the range only while the client's copy is this one (a date never matches: no Last-Modified is sent).
  const ifRange = req.headers['if-range'];
  const range = ifRange === undefined || etagMatches(String(ifRange), etag, false) ? parseRange(req.headers.range, file.size) : undefined;
  if (range === 'unsatisfiable') return fail(res, 416, `The range is outside the object's ${file.size} bytes.`, { 'content-range': `bytes */${file.size}` });
  if (range) {
    headers['content-range'] = `bytes ${range.offset}-${range.offset + range.length - 1}/${file.size}`;
    headers['content-length'] = String(range.length);
  } else headers['content-length'] = String(file.size);
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD' || (range ? range.length : file.size) === 0) return void res.end();
  // Only the blocks under the range are read, as fast as the client takes them (pipeline's backpressure).
  await pipeline(Readable.from(file.read(range), { highWaterMark: 4 }), res).catch((err: Error) => {
    if (!res.destroyed) ipfs.logger.warn({ err: { message: err.message } }, 'ipfs: gateway read failed mid-way');
    res.destroy();
  });
}

async function pinAdd(ipfs: Ipfs, res: http.ServerResponse, raw: string, query: URLSearchParams, actor: IpfsActor): Promise<void> {
  const { store } = ipfs;
  const target = parseIpfsPath(raw);
  if (!target) return fail(res, 400, 'Invalid IPFS path: it must start with a CID.');
  const fc = query.get('filecoin');
  if (fc !== null && fc !== 'true' && fc !== 'false') return fail(res, 400, 'Invalid value of the query parameter filecoin: it must be true or false.');
  const filecoin = fc === 'true';
  const pin = await store.guard(async () => {
    const st = await store.stat(target.path);
    if (!st) return null;
    return requestPin(ipfs.db, actor, { cid: st.cid, size: st.size, filecoin, queued: store.kind === 'kubo' }, ipfs.now());
  });
  if (!pin) return fail(res, 404, NOT_FOUND_MESSAGE);
  send(res, 200, { ipfs_hash: pin.cid, state: pin.state, filecoin: pin.filecoin });
}

const cidOf = (raw: string): string => {
  const target = parseIpfsPath(raw);
  if (!target) throw new BadRequest('Invalid IPFS path: it must start with a CID.');
  return target.path;
};

async function route(ipfs: Ipfs, req: http.IncomingMessage, res: http.ServerResponse, path: string, actor: IpfsActor): Promise<void> {
  const { db } = ipfs;
  const q = path.indexOf('?');
  const pathname = q === -1 ? path : path.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : path.slice(q + 1));
  const method = req.method ?? 'GET';
  const get = method === 'GET' || method === 'HEAD';
  if (pathname === '/ipfs/add' && method === 'POST') return add(ipfs, req, res, actor);
  if (get && pathname === '/ipfs/gateway' && query.get('path')) return gateway(ipfs, req, res, query.get('path')!);
  if (get && pathname.startsWith('/ipfs/gateway/')) return gateway(ipfs, req, res, pathname.slice('/ipfs/gateway/'.length));
  if (method === 'POST' && pathname.startsWith('/ipfs/pin/add/')) return pinAdd(ipfs, res, pathname.slice('/ipfs/pin/add/'.length), query, actor);
  if (get && pathname === '/ipfs/pin/list') return send(res, 200, (await listPins(db, actor.projectId, pagination(query))).map(pinDto));
  if (get && pathname.startsWith('/ipfs/pin/list/')) return send(res, 200, pinDto(await getPin(db, actor.projectId, cidOf(pathname.slice('/ipfs/pin/list/'.length)))));
  if (method === 'POST' && pathname.startsWith('/ipfs/pin/remove/')) {
    const pin = await removePin(db, actor.projectId, cidOf(pathname.slice('/ipfs/pin/remove/'.length)), ipfs.now());
    return send(res, 200, { ipfs_hash: pin.cid, state: pin.state });
  }
  // Blockfrost's 400 for a path its document does not define; its 404 for one this backend does not answer.
  if (!blockfrostMethods().match(pathname)) return fail(res, 400, INVALID_PATH_MESSAGE);
  fail(res, 404, NOT_FOUND_MESSAGE);
}

/** One queued Filecoin pin with a pinning service: asked for, or its request's state read. */
async function advanceFilecoinPin(ipfs: Ipfs, pinning: PinningService, pin: Awaited<ReturnType<typeof queuedPins>>[number]): Promise<void> {
  const { db, now } = ipfs;
  const settle = async (status: string) => {
    if (status === 'pinned') await markPinned(db, pin.id, now());
    else if (status === 'failed') await markFailed(db, pin.id, 'the Filecoin pinning service failed the request', now());
    else return false;
    return true;
  };
  if (!pin.provider_request_id) {
    // Keep the content on our node while the provider fetches it (Kubo); a no-op on the embedded store.
    await ipfs.store.pin(pin.cid);
    const r = await pinning.add(pin.cid, `cairn-${pin.project_id}-${pin.cid}`);
    await setProviderRequest(db, pin.id, r.requestid, now());
    await settle(r.status);
    return;
  }
  const r = await pinning.status(pin.provider_request_id);
  if (!(await settle(r.status))) await touchPin(db, pin.id, now());
}

async function processQueue(ipfs: Ipfs): Promise<boolean> {
  const { db, store, pinning, now } = ipfs;
  const batch = await queuedPins(db, 20, now());
  for (const pin of batch) {
    // Another gateway's pass (or a run beside the ticker's) may have read the same pins: one works on each.
    if (!(await claimPin(db, pin.id, now()))) continue;
    try {
      if (pin.filecoin && pinning) {
        await advanceFilecoinPin(ipfs, pinning, pin);
        continue;
      }
      // No provider (the embedded Filecoin default), or a Kubo pin: keep it on this server's store.
      const ok = await store.guard(async () => {
        if (!(await store.stat(pin.cid))) return false;
        await store.pin(pin.cid);
        await markPinned(db, pin.id, now());
        return true;
      });
      if (!ok) await markFailed(db, pin.id, 'the content is not on this IPFS node', now());
    } catch (err) {
      ipfs.logger.warn({ err: { message: (err as Error).message }, cid: pin.cid }, 'ipfs: queued pin not done yet, will retry');
      await touchPin(db, pin.id, now());
    }
  }
  // Provider requests still pending are asked again at the next tick, not at once.
  return batch.length === 20 && batch.some((p) => !p.provider_request_id);
}

async function collect(ipfs: Ipfs): Promise<{ removedBlocks: number; released: string[] }> {
  const { db, store, stranded, graceMs, now } = ipfs;
  // Failed adds' blocks from before this collection go with it.
  const before = new Map(stranded);
  const { released } = await expirePins(db, graceMs, now());
  for (const cid of released) await store.unpin(cid);
  const { removedBlocks } = await store.collect(() => collectionRoots(db, graceMs, now()));
  if (removedBlocks) ipfs.logger.info({ removedBlocks }, `ipfs: garbage collection removed ${removedBlocks} blocks`);
  for (const [owner, bytes] of before) {
    const left = (stranded.get(owner) ?? 0) - bytes;
    if (left > 0) stranded.set(owner, left);
    else stranded.delete(owner);
  }
  return { removedBlocks, released };
}

/**
 * The IPFS calls of the Blockfrost contract, answered from this server's IPFS store (embedded or
 * Kubo) with per-project bookkeeping. The gateway admits each call (key, limits, metering) first.
 */
export function createIpfsBackend(opts: { config: Config; db: Db; logger: Logger; store?: IpfsStore; pinning?: PinningService | null; now?: () => number }): IpfsBackend {
  const { config, db, logger } = opts;
  const store = opts.store ?? createIpfsStore(config);
  const ps = config.ipfs.pinningService;
  const pinning = opts.pinning !== undefined ? opts.pinning : ps ? pinningService(ps.url, ps.token, config.gateway.upstreamTimeoutMs) : null;
  const ipfs: Ipfs = { db, logger, store, pinning, now: opts.now ?? Date.now, graceMs: config.ipfs.gcGraceMs, maxAddBytes: config.ipfs.maxAddBytes, addQueues: new Map(), stranded: new Map() };
  let queueTicker: SerialTicker | undefined;
  let gcTicker: SerialTicker | undefined;
  // This process's passes of the pin queue run one after another: a pass asked for while the ticker's
  // is under way runs after it, so it finds the pins that one claimed done rather than skipping them.
  let passing: Promise<unknown> = Promise.resolve();
  const queuePass = (): Promise<boolean> => {
    const pass = passing.then(() => processQueue(ipfs));
    passing = pass.catch(() => undefined);
    return pass;
  };
  return {
    kind: 'ipfs',
    admits: 'request',
    store,
    pinning,
    handle(req, res, path, call) {
      // Its answers write their headers progressively: any origin may read them (respond.ts).
      allowAnyOrigin(res);
      route(ipfs, req, res, path, { projectId: call.project.projectId, ownerId: call.project.ownerId }).catch((err: unknown) => onError(ipfs, res, err, 'call'));
    },
    async start() {
      await store.open();
      queueTicker = new SerialTicker(queuePass, 2000, (err) => logger.warn({ err: { message: err.message } }, 'ipfs: pin queue pass failed'));
      gcTicker = new SerialTicker(async () => void (await collect(ipfs)), config.ipfs.gcIntervalMs, (err) => logger.warn({ err: { message: err.message } }, 'ipfs: garbage collection failed'));
      queueTicker.start();
      gcTicker.start();
    },
    async stop() {
      await queueTicker?.stop();
      await gcTicker?.stop();
      await store.close();
    },
    processQueue: queuePass,
    collect: () => collect(ipfs),
  };
}
