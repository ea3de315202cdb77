import type http from 'node:http';
import type { Verdict } from '../../gateway/limiter';
import type { MeteredRequest } from '../../gateway/metering';
import type { AdmittedCall, CallSteps, GatewayBackend } from '../../gateway/backend';
import { limitRefusal } from '../../gateway/refusals';
import { readBoundedBody } from '../../gateway/body';
import { recordOf as meterRecordOf } from '../../gateway/admission';
import { ANY_ORIGIN, sendBlockfrostError } from '../../gateway/respond';
import { errorMessageOf } from '../../gateway/gateway-response';
import { BackendPool, Forward } from '../../gateway/proxy';
import { NOT_FOUND_MESSAGE, SANDBOX_HEADER } from '../../blockfrost/http';
import { ALLOWED_EVM_METHODS, JSON_RPC_ERRORS, methodNotAllowedMessage } from '../../../shared/milkomeda';

// JSON-RPC 2.0 for Milkomeda keys, a backend of the gateway (server/gateway/backend.ts): the gateway
// admits the request by its key and allow-lists; every call (each one of a batch) then goes through
// the gateway's limits and metering steps with its method as the endpoint; only the contract's
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

export interface JsonRpcDeps {
  backend: EvmBackend;
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

/** The EVM backend's side of Milkomeda: one pool of connections, and the headers of every answer. */
class EvmRpc {
  readonly pool: BackendPool;
  readonly origin: string;
  readonly path: string;
  /** A flat [name, value, …] list, the same for every call; undici adds Host and Content-Length. */
  readonly upstreamHeaders: string[];
  /**
   * Headers of every answer: any origin may read it (respond.ts ANY_ORIGIN), and the embedded chain's
   * answers are marked as sandbox data. Given to writeHead whole, never set on the response first.
   */
  readonly headers: Record<string, string>;

  constructor(backend: EvmBackend, timeoutMs: number) {
    const base = new URL(backend.url);
    this.origin = base.origin;
    this.path = base.pathname + base.search;
    this.pool = new BackendPool(this.origin, timeoutMs);
    this.upstreamHeaders = ['content-type', 'application/json', ...(backend.auth ? [backend.auth.name, backend.auth.value] : [])];
    this.headers = backend.sandbox ? { ...ANY_ORIGIN, [SANDBOX_HEADER]: EVM_SANDBOX_HEADER_VALUE } : { ...ANY_ORIGIN };
  }

  send(res: http.ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...this.headers });
    res.end(text);
  }

  /** Sends one call as the client sent it; its answer goes back untouched. */
  forwardCall(body: Buffer, res: http.ServerResponse, record: MeteredRequest, id: Id): void {
    this.pool.dispatch({ origin: this.origin, method: 'POST', path: this.path, headers: this.upstreamHeaders, body }, new CallForward(this, res, record, id));
  }

  /** Sends a batch; resolves with the backend's whole answer, or null when it failed. */
  forwardBatch(body: Buffer, res: http.ServerResponse): Promise<Buffer | null | typeof TOO_LARGE> {
    return new Promise((resolve) => this.pool.dispatch({ origin: this.origin, method: 'POST', path: this.path, headers: this.upstreamHeaders, body }, new BatchForward(res, resolve)));
  }

  /** A call the limits refused: the gateway's refusal, as a JSON-RPC error. */
  limitReply(res: http.ServerResponse, id: Id, verdict: Exclude<Verdict, 'ok'>): void {
    const { status, message } = limitRefusal(verdict);
    this.send(res, status, errorReply(id, JSON_RPC_ERRORS.limitExceeded, message));
  }

  internalError(res: http.ServerResponse): void {
    if (!res.headersSent) this.send(res, 500, errorReply(null, JSON_RPC_ERRORS.internal, 'The request could not be handled. Please retry.'));
    else res.destroy();
  }
}

/** One call's answer, passed back untouched with the backend's headers and metered with its status; a failure is the JSON-RPC internal error. */
class CallForward extends Forward {
  constructor(
    private readonly rpc: EvmRpc,
    res: http.ServerResponse,
    private readonly record: MeteredRequest,
    private readonly id: Id,
  ) {
    super(res);
  }

  protected head(status: number, headers: Record<string, string | string[]>): http.OutgoingHttpHeaders {
    this.record.status = status;
    const out: http.OutgoingHttpHeaders = { 'content-type': headers['content-type'] ?? 'application/json', ...this.rpc.headers };
    const length = headers['content-length'];
    if (typeof length === 'string') out['content-length'] = length;
    return out;
  }

  protected failed(): void {
    this.record.status = 500;
    this.rpc.send(this.res, 500, errorReply(this.id, JSON_RPC_ERRORS.internal, BACKEND_FAILED));
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

/** A call's meter record, answered 200 unless its outcome says otherwise. */
const recordOf = (call: AdmittedCall, endpoint: string, admitted: boolean): MeteredRequest => {
  const record = meterRecordOf(call, endpoint, admitted);
  record.status = 200;
  return record;
};

/** A single call's record and the steps that meter it ride on its response until it closes. */
type MeteredResponse = http.ServerResponse & { [RECORD]?: MeteredRequest; [STEPS]?: CallSteps };
const STEPS = Symbol('cairn.jsonrpc.steps');

/** Made once: meters a single call once its answer has gone out. */
function meterOne(this: MeteredResponse): void {
  const record = this[RECORD]!;
  if (record.status >= 400 && record.message === undefined) record.message = errorMessageOf(this);
  this[STEPS]!.meter(record);
}

const parsed = (raw: Buffer | null): unknown => {
  if (!raw) return PARSE_FAILED;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return PARSE_FAILED;
  }
};

/**
 * A single allowed call with the in-memory limiter (the common case), answered without promises:
 * admit, stream the backend's answer back. False when the call takes the general path.
 */
function fastCall(rpc: EvmRpc, steps: CallSteps, res: http.ServerResponse, call: AdmittedCall, raw: Buffer, body: unknown): boolean {
  const c = checkCall(body);
  if (!c.ok || c.notification || !ALLOWED_EVM_METHODS.has(c.method)) return false;
  const verdict = steps.limitNow(call);
  if (verdict === null) return false;
  const record = recordOf(call, c.method, verdict === 'ok');
  (res as MeteredResponse)[RECORD] = record;
  (res as MeteredResponse)[STEPS] = steps;
  res.once('close', meterOne);
  if (verdict !== 'ok') {
    record.status = limitRefusal(verdict).status;
    rpc.limitReply(res, c.id, verdict);
  } else rpc.forwardCall(raw, res, record, c.id);
  return true;
}

/** Reads the body, then answers: the project's method allow-list first, then the fast path or the general one. */
function answer(rpc: EvmRpc, steps: CallSteps, req: http.IncomingMessage, res: http.ServerResponse, call: AdmittedCall, raw: Buffer | null): void {
  const body = parsed(raw);
  // The project's method allow-list, before any limit: one call of a batch outside it refuses the whole request.
  const allowed = call.project.allow?.methods;
  if (allowed && body !== PARSE_FAILED) {
    const method = outsideAllowList(body, allowed);
    if (method !== null) {
      const refusal = steps.refusedByList(call, 'method', endpointOf(method));
      return sendBlockfrostError(res, refusal.status, refusal.message);
    }
  }
  if (raw && body !== PARSE_FAILED && !Array.isArray(body) && fastCall(rpc, steps, res, call, raw, body)) return;
  run(rpc, steps, req, res, call, raw, body).catch(() => rpc.internalError(res));
}

/** The limits step for one call of the general path, and its meter record (noted in `records`). */
async function admitCall(steps: CallSteps, call: AdmittedCall, endpoint: string, records: MeteredRequest[]): Promise<{ verdict: Verdict; record: MeteredRequest }> {
  const verdict = steps.limitNow(call) ?? (await steps.limitLater(call));
  const record = recordOf(call, endpoint, verdict === 'ok');
  if (verdict !== 'ok') {
    const refusal = limitRefusal(verdict);
    record.status = refusal.status;
    record.message = refusal.message;
  }
  records.push(record);
  return { verdict, record };
}

/** The general path: a body too large or not JSON, a single call, or a batch. */
async function run(rpc: EvmRpc, steps: CallSteps, req: http.IncomingMessage, res: http.ServerResponse, call: AdmittedCall, raw: Buffer | null, body: unknown): Promise<void> {
  const records: MeteredRequest[] = [];
  res.once('close', () => {
    // A single call's failure says why in the answer; a batch's refused calls carry their message already.
    if (records.length === 1 && records[0]!.status >= 400 && records[0]!.message === undefined) records[0]!.message = errorMessageOf(res);
    for (const r of records) steps.meter(r);
  });
  if (!raw) {
    const { verdict, record } = await admitCall(steps, call, '(invalid request)', records);
    if (verdict !== 'ok') return rpc.limitReply(res, null, verdict);
    record.status = 413;
    res.setHeader('connection', 'close');
    return rpc.send(res, 413, errorReply(null, JSON_RPC_ERRORS.invalidRequest, `The request body is larger than ${MAX_JSON_RPC_BODY} bytes.`));
  }
  if (body === PARSE_FAILED) {
    const { verdict, record } = await admitCall(steps, call, '(parse error)', records);
    if (verdict !== 'ok') return rpc.limitReply(res, null, verdict);
    record.status = 400;
    return rpc.send(res, 400, errorReply(null, JSON_RPC_ERRORS.parse, 'Parse error: the body is not valid JSON.'));
  }
  if (!Array.isArray(body)) {
    const c = checkCall(body);
    const { verdict, record } = await admitCall(steps, call, c.ok ? endpointOf(c.method) : '(invalid request)', records);
    if (verdict !== 'ok') return rpc.limitReply(res, c.id, verdict);
    if (!c.ok) {
      record.status = 400;
      return rpc.send(res, 400, errorReply(c.id, JSON_RPC_ERRORS.invalidRequest, 'Invalid Request: expected {"jsonrpc":"2.0","method":…,"params":[…],"id":…}.'));
    }
    if (!ALLOWED_EVM_METHODS.has(c.method)) {
      record.status = 403;
      record.message = methodNotAllowedMessage(c.method);
      if (c.notification) return void res.writeHead(204, rpc.headers).end();
      return rpc.send(res, 200, errorReply(c.id, JSON_RPC_ERRORS.methodNotFound, methodNotAllowedMessage(c.method)));
    }
    return rpc.forwardCall(raw, res, record, c.id);
  }
  if (body.length === 0 || body.length > MAX_BATCH) {
    const { verdict, record } = await admitCall(steps, call, '(invalid request)', records);
    if (verdict !== 'ok') return rpc.limitReply(res, null, verdict);
    record.status = 400;
    return rpc.send(res, 400, errorReply(null, JSON_RPC_ERRORS.invalidRequest, body.length === 0 ? 'Invalid Request: the batch is empty.' : `Invalid Request: a batch may hold at most ${MAX_BATCH} calls.`));
  }
  return runBatch(rpc, steps, res, call, body, records);
}

interface ForwardedCall {
  index: number;
  id: Id;
  notification: boolean;
  record: MeteredRequest;
  call: Record<string, unknown>;
}

/** A batch: each call is its own request for limits, quota and metering; the allowed ones go to the backend as one batch. */
async function runBatch(rpc: EvmRpc, steps: CallSteps, res: http.ServerResponse, call: AdmittedCall, body: unknown[], records: MeteredRequest[]): Promise<void> {
  const replies: Array<Reply | null> = [];
  const forwarded: ForwardedCall[] = [];
  let limited: Exclude<Verdict, 'ok'> | null = null;
  let answered = 0;
  for (const item of body) {
    const c = checkCall(item);
    const { verdict, record } = await admitCall(steps, call, c.ok ? endpointOf(c.method) : '(invalid request)', records);
    if (verdict !== 'ok') {
      limited ??= verdict;
      replies.push(errorReply(c.id, JSON_RPC_ERRORS.limitExceeded, limitRefusal(verdict).message));
      continue;
    }
    answered++;
    if (!c.ok) {
      record.status = 400;
      replies.push(errorReply(c.id, JSON_RPC_ERRORS.invalidRequest, 'Invalid Request'));
    } else if (!ALLOWED_EVM_METHODS.has(c.method)) {
      record.status = 403;
      record.message = methodNotAllowedMessage(c.method);
      replies.push(c.notification ? null : errorReply(c.id, JSON_RPC_ERRORS.methodNotFound, methodNotAllowedMessage(c.method)));
    } else {
      forwarded.push({ index: replies.length, id: c.id, notification: c.notification, record, call: item as Record<string, unknown> });
      replies.push(null);
    }
  }
  if (forwarded.length > 0) await forwardBatch(rpc, res, forwarded, replies);
  const out = replies.filter((r): r is Reply => r !== null);
  // Only when every call was refused by the limits does the HTTP status say so (clients back off on it).
  const status = answered === 0 && limited ? limitRefusal(limited).status : 200;
  if (out.length === 0) return void res.writeHead(204, rpc.headers).end();
  rpc.send(res, status, out);
}

/** Sends a batch's allowed calls to the backend and puts each answer in its place among `replies`. */
async function forwardBatch(rpc: EvmRpc, res: http.ServerResponse, forwarded: ForwardedCall[], replies: Array<Reply | null>): Promise<void> {
  // Ids are replaced by positions on the way out, so the backend's answers map back whatever ids
  // (duplicates, notifications) the client used.
  const out = Buffer.from(JSON.stringify(forwarded.map((f, i) => ({ jsonrpc: '2.0', id: i, method: f.call.method, params: f.call.params ?? [] }))));
  const answer = await rpc.forwardBatch(out, res);
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
    replies[f.index] = a ? (a.error ? { jsonrpc: '2.0', id: f.id, error: a.error } : { jsonrpc: '2.0', id: f.id, result: a.result ?? null }) : errorReply(f.id, JSON_RPC_ERRORS.internal, answer === TOO_LARGE ? BATCH_TOO_LARGE : BACKEND_FAILED);
  });
}

/** Milkomeda's JSON-RPC as a backend of the gateway (its calls are admitted one by one: admits 'calls'). */
export function createJsonRpcBackend(deps: JsonRpcDeps): GatewayBackend {
  const rpc = new EvmRpc(deps.backend, deps.timeoutMs);
  return {
    kind: 'jsonrpc',
    admits: 'calls',
    handle(req, res, rest, call, steps) {
      if (rest !== '/') return sendBlockfrostError(res, 404, NOT_FOUND_MESSAGE);
      if (req.method !== 'POST') return rpc.send(res, 405, errorReply(null, JSON_RPC_ERRORS.invalidRequest, 'JSON-RPC requests are sent with POST.'));
      readBoundedBody(req, MAX_JSON_RPC_BODY, (raw) => answer(rpc, steps, req, res, call, raw));
    },
    close: () => void rpc.pool.destroy(),
  };
}

