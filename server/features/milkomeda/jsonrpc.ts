import type http from 'node:http';
import { type Limiter, type Verdict, MemoryLimiter } from '../../gateway/limiter';
import type { Meter, MeteredRequest } from '../../gateway/metering';
import type { ProjectKey } from '../../gateway/key-cache';
import { ANY_ORIGIN, sendBlockfrostError } from '../../gateway/respond';
import { errorMessageOf } from '../../gateway/gateway-response';
import { BackendPool, Forward } from '../../gateway/proxy';
import { NOT_FOUND_MESSAGE, SANDBOX_HEADER } from '../../blockfrost/http';
import { ALLOWED_EVM_METHODS, JSON_RPC_ERRORS, methodNotAllowedMessage } from '../../../shared/milkomeda';
import { ALLOW_LIST_MESSAGES, refusedCode } from '../../../shared/allow-list';

// JSON-RPC 2.0 for Milkomeda keys: every call (each one of a batch) is admitted by the project's
// rate limit and daily quota and metered with its method as the endpoint; only the contract's
// methods reach the EVM backend, the others get a JSON-RPC error from here.

/** Where a Milkomeda network's calls go: a configured EVM RPC, or the embedded development chain. */
export interface EvmBackend {
  url: string;
  auth: { name: string; value: string } | null;
  /** The embedded development chain: answers carry X-Cairn-Sandbox like the sandbox Cardano chain. */
  sandbox: boolean;
}

export const EVM_SANDBOX_HEADER_VALUE = 'development-chain';
/** Largest JSON-RPC body accepted (a contract deployment with its bytecode fits well). */
export const MAX_JSON_RPC_BODY = 1024 * 1024;
export const MAX_BATCH = 100;
/** Largest backend answer to a batch the gateway reads (it is held whole to be split per call), as geth's default. */
export const MAX_BATCH_ANSWER_BYTES = 25 * 1024 * 1024;
/** Each forwarded call's error when the backend's answer to its batch is over MAX_BATCH_ANSWER_BYTES. */
export const BATCH_TOO_LARGE = `The batch's answer is larger than ${MAX_BATCH_ANSWER_BYTES / 1024 / 1024} MB: send fewer calls per batch.`;

const PARSE_FAILED = Symbol('parse failed');
const TOO_LARGE = Symbol('too large');
/** A single call's meter record rides on its response until it closes. */
const RECORD = Symbol('cairn.jsonrpc.record');
const BACKEND_FAILED = 'An unexpected response was received from the backend.';
const NO_BACKEND = 'This network has no backend configured on this Cairn server.';
const LIMIT_MESSAGES: Record<Exclude<Verdict, 'ok'>, { status: number; message: string }> = {
  rate_limited: { status: 429, message: 'Usage is over limit.' },
  over_quota: { status: 402, message: 'Usage is over limit.' },
  banned: { status: 418, message: 'IP has been auto-banned for flooding.' },
};
/** Refused method names are metered by name only when they look like one (namespace_name): anything else would let a caller invent endpoints. */
const METHOD_NAME = /^[a-z][a-z0-9]{1,15}_[A-Za-z0-9]{1,48}$/;

type Id = string | number | null;
interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}
interface Reply {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: RpcError;
}

export interface JsonRpcCallContext {
  project: ProjectKey;
  ip: string;
  at: number;
  /** performance.now() when the request reached the gateway (each call's latency runs from it). */
  started: number;
  day: number;
  quotaBase: number;
}

export interface JsonRpcDeps {
  backend: EvmBackend | null;
  limiter: Limiter;
  meter: Meter;
  timeoutMs: number;
}

const errorReply = (id: Id, code: number, message: string, data?: unknown): Reply => ({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });

const isId = (v: unknown): v is Id => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** A JSON-RPC 2.0 request object, or why it is not one. */
function checkCall(c: unknown): { ok: true; id: Id; method: string; notification: boolean } | { ok: false; id: Id } {
  if (c === null || typeof c !== 'object' || Array.isArray(c)) return { ok: false, id: null };
  const o = c as Record<string, unknown>;
  const id = isId(o.id) ? o.id : null;
  if (o.jsonrpc !== '2.0' || typeof o.method !== 'string' || o.method === '') return { ok: false, id };
  if ('id' in o && !isId(o.id)) return { ok: false, id: null };
  if (o.params !== undefined && (o.params === null || typeof o.params !== 'object')) return { ok: false, id };
  return { ok: true, id, method: o.method, notification: !('id' in o) };
}

/** The first method of a call (or of a batch's calls) that `allowed` does not hold; null when every one is on it. */
function outsideAllowList(body: unknown, allowed: ReadonlySet<string>): string | null {
  const methodOf = (c: unknown): string | null => {
    const m = c !== null && typeof c === 'object' ? (c as { method?: unknown }).method : undefined;
    return typeof m === 'string' && !allowed.has(m) ? m : null;
  };
  if (!Array.isArray(body)) return methodOf(body);
  for (const c of body) {
    const m = methodOf(c);
    if (m !== null) return m;
  }
  return null;
}

const endpointOf = (method: string) => (ALLOWED_EVM_METHODS.has(method) ? method : METHOD_NAME.test(method) ? method : '(unknown method)');

/** What the gateway calls for Milkomeda's JSON-RPC requests. */
export type JsonRpcHandler = ReturnType<typeof createJsonRpcHandler>;

export function createJsonRpcHandler(deps: JsonRpcDeps) {
  const { backend, limiter, meter } = deps;
  const memory = limiter instanceof MemoryLimiter ? limiter : null;
  let pool: BackendPool | null = null;
  let origin = '';
  let path = '';
  if (backend) {
    const base = new URL(backend.url);
    origin = base.origin;
    path = base.pathname + base.search;
    pool = new BackendPool(origin, deps.timeoutMs);
  }
  // A flat [name, value, …] list, the same for every call; undici adds Host and Content-Length.
  const upstreamHeaders = ['content-type', 'application/json', ...(backend?.auth ? [backend.auth.name, backend.auth.value] : [])];
  // Headers of every answer: any origin may read it (respond.ts ANY_ORIGIN), and the embedded chain's
  // answers are marked as sandbox data. Given to writeHead whole, never set on the response first.
  const sandboxHeaders: Record<string, string> = backend?.sandbox ? { ...ANY_ORIGIN, [SANDBOX_HEADER]: EVM_SANDBOX_HEADER_VALUE } : { ...ANY_ORIGIN };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...sandboxHeaders });
    res.end(text);
  };

  /** One call's answer, passed back untouched with this handler's headers and metered with its status; a failure is the JSON-RPC internal error. */
  class CallForward extends Forward {
    constructor(
      res: http.ServerResponse,
      private readonly record: MeteredRequest,
      private readonly id: Id,
    ) {
      super(res);
    }

    protected head(status: number, headers: Record<string, string | string[]>): http.OutgoingHttpHeaders {
      this.record.status = status;
      const out: http.OutgoingHttpHeaders = { 'content-type': headers['content-type'] ?? 'application/json', ...sandboxHeaders };
      const length = headers['content-length'];
      if (typeof length === 'string') out['content-length'] = length;
      return out;
    }

    protected failed(): void {
      this.record.status = 500;
      send(this.res, 500, errorReply(this.id, JSON_RPC_ERRORS.internal, BACKEND_FAILED));
    }
  }

  /** A batch's answer, read whole up to MAX_BATCH_ANSWER_BYTES: `done` gets its body, null when the backend failed or the client left, or TOO_LARGE. */
  class BatchForward extends Forward {
    protected override readonly gatherLimit = MAX_BATCH_ANSWER_BYTES;
    constructor(
      res: http.ServerResponse,
      private readonly done: (body: Buffer | null | typeof TOO_LARGE) => void,
    ) {
      super(res);
    }

    protected override tooLarge(): void {
      this.done(TOO_LARGE);
    }

    protected head(): http.OutgoingHttpHeaders {
      return {};
    }

    protected override gathered(): boolean {
      return true;
    }

    protected override complete(_status: number, _headers: http.OutgoingHttpHeaders, chunks: Buffer[]): void {
      this.done(Buffer.concat(chunks));
    }

    protected failed(): void {
      this.done(null);
    }

    override clientGone(): void {
      super.clientGone();
      this.done(null);
    }
  }

  // handle() answers 'no backend' itself, so these run only with a pool.
  /** Sends one call as the client sent it; its answer goes back untouched. */
  const forwardCall = (body: Buffer, res: http.ServerResponse, record: MeteredRequest, id: Id): void =>
    pool!.dispatch({ origin, method: 'POST', path, headers: upstreamHeaders, body }, new CallForward(res, record, id));
  /** Sends a batch; resolves with the backend's whole answer, or null when it failed. */
  const forwardBatch = (body: Buffer, res: http.ServerResponse): Promise<Buffer | null | typeof TOO_LARGE> =>
    new Promise((resolve) => pool!.dispatch({ origin, method: 'POST', path, headers: upstreamHeaders, body }, new BatchForward(res, resolve)));

  const internalError = (res: http.ServerResponse) => {
    if (!res.headersSent) send(res, 500, errorReply(null, JSON_RPC_ERRORS.internal, 'The request could not be handled. Please retry.'));
    else res.destroy();
  };

  const meterOne = function (this: http.ServerResponse & { [RECORD]?: MeteredRequest }) {
    const record = this[RECORD]!;
    if (record.status >= 400 && record.message === undefined) record.message = errorMessageOf(this);
    meter.record(record);
  };

  /**
   * Reads the body, then answers. A single allowed call on the in-memory limiter (the common case)
   * runs without promises: parse, admit, stream the backend's answer back. Batches, errors and
   * Redis limits take the general path.
   */
  const handle = (req: http.IncomingMessage, res: http.ServerResponse, rest: string, ctx: JsonRpcCallContext): void => {
    if (rest !== '/') return sendBlockfrostError(res, 404, NOT_FOUND_MESSAGE);
    if (req.method !== 'POST') return send(res, 405, errorReply(null, JSON_RPC_ERRORS.invalidRequest, 'JSON-RPC requests are sent with POST.'));
    readBody(req, (raw) => {
      let body: unknown = PARSE_FAILED;
      if (raw) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          body = PARSE_FAILED;
        }
      }
      // No backend at all (production without an upstream): nothing is served, so nothing is counted against limits or quota.
      if (!backend) {
        const id = body !== PARSE_FAILED && !Array.isArray(body) ? checkCall(body).id : null;
        return send(res, 500, errorReply(id, JSON_RPC_ERRORS.internal, NO_BACKEND));
      }
      // The project's method allow-list, before any limit: one call of a batch outside it refuses the whole request.
      const allowed = ctx.project.allow?.methods;
      if (allowed && body !== PARSE_FAILED) {
        const method = outsideAllowList(body, allowed);
        if (method !== null) {
          sendBlockfrostError(res, 403, ALLOW_LIST_MESSAGES.method);
          const { project } = ctx;
          meter.record({ projectId: project.projectId, ownerId: project.ownerId, endpoint: endpointOf(method), status: 403, ip: ctx.ip, userAgent: req.headers['user-agent'], admitted: false, refused: refusedCode('method'), at: ctx.at, started: ctx.started });
          return;
        }
      }
      if (memory && raw && body !== PARSE_FAILED && !Array.isArray(body)) {
        const call = checkCall(body);
        if (call.ok && !call.notification && ALLOWED_EVM_METHODS.has(call.method)) {
          const { project } = ctx;
          const verdict = memory.admitNow(admitRequestOf(ctx));
          const record: MeteredRequest = { projectId: project.projectId, ownerId: project.ownerId, endpoint: call.method, status: 200, ip: ctx.ip, userAgent: req.headers['user-agent'], admitted: verdict === 'ok', at: ctx.at, started: ctx.started };
          (res as http.ServerResponse & { [RECORD]?: MeteredRequest })[RECORD] = record;
          res.once('close', meterOne);
          if (verdict !== 'ok') {
            record.status = LIMIT_MESSAGES[verdict].status;
            return limitReply(res, call.id, verdict);
          }
          return forwardCall(raw, res, record, call.id);
        }
      }
      run(req, res, ctx, raw, body).catch(() => internalError(res));
    });
  };

  const admitRequestOf = (ctx: JsonRpcCallContext) => ({
    ip: ctx.ip,
    bucketKey: ctx.project.uuid,
    rate: ctx.project.limitPerSecond,
    burst: ctx.project.limitBurst,
    quotaKey: ctx.project.quotaKey,
    day: ctx.day,
    quotaLimit: ctx.project.requestLimit,
    quotaBase: ctx.quotaBase,
    ...(ctx.project.ppuCredited > 0 ? { balanceKey: ctx.project.balanceKey, balanceCredited: ctx.project.ppuCredited, balanceSpentBase: ctx.project.ppuSpent } : {}),
  });

  async function run(req: http.IncomingMessage, res: http.ServerResponse, ctx: JsonRpcCallContext, raw: Buffer | null, body: unknown): Promise<void> {
    const { project } = ctx;
    const records: MeteredRequest[] = [];
    res.once('close', () => {
      // A single call's failure says why in the answer; a batch's refused calls carry their message already.
      if (records.length === 1 && records[0]!.status >= 400 && records[0]!.message === undefined) records[0]!.message = errorMessageOf(res);
      for (const r of records) meter.record(r);
    });
    const admitRequest = admitRequestOf(ctx);
    const userAgent = req.headers['user-agent'];
    /** Admits one call and notes its meter record; the record's status is filled in once its outcome is known. */
    const admit = async (endpoint: string): Promise<{ verdict: Verdict; record: MeteredRequest }> => {
      const verdict = memory ? memory.admitNow(admitRequest) : await limiter.admit(admitRequest);
      const record: MeteredRequest = { projectId: project.projectId, ownerId: project.ownerId, endpoint, status: 200, ip: ctx.ip, userAgent, admitted: verdict === 'ok', at: ctx.at, started: ctx.started };
      if (verdict !== 'ok') {
        record.status = LIMIT_MESSAGES[verdict].status;
        record.message = LIMIT_MESSAGES[verdict].message;
      }
      records.push(record);
      return { verdict, record };
    };

    if (!raw) {
      const { verdict, record } = await admit('(invalid request)');
      if (verdict !== 'ok') return limitReply(res, null, verdict);
      record.status = 413;
      res.setHeader('connection', 'close');
      return send(res, 413, errorReply(null, JSON_RPC_ERRORS.invalidRequest, `The request body is larger than ${MAX_JSON_RPC_BODY} bytes.`));
    }
    if (body === PARSE_FAILED) {
      const { verdict, record } = await admit('(parse error)');
      if (verdict !== 'ok') return limitReply(res, null, verdict);
      record.status = 400;
      return send(res, 400, errorReply(null, JSON_RPC_ERRORS.parse, 'Parse error: the body is not valid JSON.'));
    }

    if (!Array.isArray(body)) {
      const call = checkCall(body);
      const { verdict, record } = await admit(call.ok ? endpointOf(call.method) : '(invalid request)');
      if (verdict !== 'ok') return limitReply(res, call.id, verdict);
      if (!call.ok) {
        record.status = 400;
        return send(res, 400, errorReply(call.id, JSON_RPC_ERRORS.invalidRequest, 'Invalid Request: expected {"jsonrpc":"2.0","method":…,"params":[…],"id":…}.'));
      }
      if (!ALLOWED_EVM_METHODS.has(call.method)) {
        record.status = 403;
        record.message = methodNotAllowedMessage(call.method);
        if (call.notification) return void res.writeHead(204, sandboxHeaders).end();
        return send(res, 200, errorReply(call.id, JSON_RPC_ERRORS.methodNotFound, methodNotAllowedMessage(call.method)));
      }
      return forwardCall(raw, res, record, call.id);
    }

    if (body.length === 0 || body.length > MAX_BATCH) {
      const { verdict, record } = await admit('(invalid request)');
      if (verdict !== 'ok') return limitReply(res, null, verdict);
      record.status = 400;
      return send(res, 400, errorReply(null, JSON_RPC_ERRORS.invalidRequest, body.length === 0 ? 'Invalid Request: the batch is empty.' : `Invalid Request: a batch may hold at most ${MAX_BATCH} calls.`));
    }

    // Each call of the batch is its own request for limits, quota and metering.
    const replies: Array<Reply | null> = [];
    const forwarded: Array<{ index: number; id: Id; notification: boolean; record: MeteredRequest; call: Record<string, unknown> }> = [];
    let limited: Verdict | null = null;
    let answered = 0;
    for (const item of body) {
      const call = checkCall(item);
      const { verdict, record } = await admit(call.ok ? endpointOf(call.method) : '(invalid request)');
      if (verdict !== 'ok') {
        limited ??= verdict;
        replies.push(errorReply(call.id, JSON_RPC_ERRORS.limitExceeded, LIMIT_MESSAGES[verdict].message));
        continue;
      }
      answered++;
      if (!call.ok) {
        record.status = 400;
        replies.push(errorReply(call.id, JSON_RPC_ERRORS.invalidRequest, 'Invalid Request'));
      } else if (!ALLOWED_EVM_METHODS.has(call.method)) {
        record.status = 403;
        record.message = methodNotAllowedMessage(call.method);
        replies.push(call.notification ? null : errorReply(call.id, JSON_RPC_ERRORS.methodNotFound, methodNotAllowedMessage(call.method)));
      } else {
        forwarded.push({ index: replies.length, id: call.id, notification: call.notification, record, call: item as Record<string, unknown> });
        replies.push(null);
      }
    }

    if (forwarded.length > 0) {
      // Ids are replaced by positions on the way out, so the backend's answers map back whatever ids
      // (duplicates, notifications) the client used.
      const out = Buffer.from(JSON.stringify(forwarded.map((f, i) => ({ jsonrpc: '2.0', id: i, method: f.call.method, params: f.call.params ?? [] }))));
      const answer = await forwardBatch(out, res);
      let answers: unknown = null;
      if (answer && answer !== TOO_LARGE) {
        try {
          answers = JSON.parse(answer.toString('utf8'));
        } catch {
          answers = null;
        }
      }
      const byPosition = new Map<number, Reply>();
      if (Array.isArray(answers)) for (const a of answers as Reply[]) if (a && typeof a.id === 'number') byPosition.set(a.id, a);
      forwarded.forEach((f, i) => {
        const a = byPosition.get(i);
        if (!a) f.record.status = 500;
        if (f.notification) return;
        replies[f.index] = a
          ? a.error
            ? { jsonrpc: '2.0', id: f.id, error: a.error }
            : { jsonrpc: '2.0', id: f.id, result: a.result ?? null }
          : errorReply(f.id, JSON_RPC_ERRORS.internal, answer === TOO_LARGE ? BATCH_TOO_LARGE : BACKEND_FAILED);
      });
    }
    const out = replies.filter((r): r is Reply => r !== null);
    // Only when every call was refused by the limits does the HTTP status say so (clients back off on it).
    const status = answered === 0 && limited ? LIMIT_MESSAGES[limited as Exclude<Verdict, 'ok'>].status : 200;
    if (out.length === 0) return void res.writeHead(204, sandboxHeaders).end();
    send(res, status, out);
  }

  const limitReply = (res: http.ServerResponse, id: Id, verdict: Exclude<Verdict, 'ok'>) => {
    const { status, message } = LIMIT_MESSAGES[verdict];
    send(res, status, errorReply(id, JSON_RPC_ERRORS.limitExceeded, message));
  };

  return {
    handle,
    close: () => void pool?.destroy(),
  };
}

/** Calls back with the body, or null when it is larger than MAX_JSON_RPC_BODY (the rest is drained). */
function readBody(req: http.IncomingMessage, done: (raw: Buffer | null) => void): void {
  const declared = Number(req.headers['content-length']);
  if (declared > MAX_JSON_RPC_BODY) {
    req.resume();
    return done(null);
  }
  let first: Buffer | null = null;
  let chunks: Buffer[] | null = null;
  let size = 0;
  let over = false;
  req.on('data', (c: Buffer) => {
    if (over) return;
    size += c.length;
    if (size > MAX_JSON_RPC_BODY) {
      over = true;
      first = null;
      chunks = null;
      return done(null);
    }
    if (!first) first = c;
    else (chunks ??= [first]).push(c);
  });
  req.on('end', () => {
    if (!over) done(chunks ? Buffer.concat(chunks) : (first ?? Buffer.alloc(0)));
  });
  req.on('error', () => {
    if (!over) {
      over = true;
      done(null);
    }
  });
}
