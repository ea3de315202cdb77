import http from 'node:http';
import https from 'node:https';
import type { UpstreamConfig } from '../config';
import { INTERNAL_ERROR_MESSAGE } from '../chain/sandbox/http';
import { ANY_ORIGIN, sendBlockfrostError } from './respond';

// Headers that describe one hop, not the message; never forwarded either way (RFC 9110 7.6.1).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);
// What the client sends that the upstream must not see: our key, cookies, and the original host.
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'host', 'project_id', 'cookie', 'authorization']);

/** What a failover pool learns from one forward (server/gateway/upstream-pool.ts). */
export interface ForwardHooks {
  /** The backend failed before answering; true when the pool took the request over (the 500 is not sent). */
  unavailable(): boolean;
  /** The backend answered (status below 500). */
  answered(): void;
}

export interface Upstream {
  forward(req: http.IncomingMessage, res: http.ServerResponse, path: string, hooks?: ForwardHooks): void;
  close(): void;
}

/** One forward's state, on its upstream request: the listeners below are made once, not per request. */
const FORWARD = Symbol('cairn.forward');
interface Forward {
  res: http.ServerResponse;
  hooks: ForwardHooks | undefined;
  answered: boolean;
}
type ForwardRequest = http.ClientRequest & { [FORWARD]: Forward };
type ForwardedResponse = http.ServerResponse & { [FORWARD]?: ForwardRequest };
type UpstreamResponse = http.IncomingMessage & { [FORWARD]?: http.ServerResponse; [GATHER]?: Gathered };

/**
 * Answers that declare a length up to this are gathered and sent with their head in one write, as
 * nginx buffers proxied answers: one syscall and no stream plumbing per answer instead of two writes
 * through a pipe. Bigger or unsized answers (a large script, an IPFS file) stream through.
 */
export const GATHER_MAX_BYTES = 64 * 1024;
const GATHER = Symbol('cairn.gather');
interface Gathered {
  res: http.ServerResponse;
  status: number;
  headers: http.OutgoingHttpHeaders;
  chunks: Buffer[];
  /** Answers for a gathered answer whose backend broke off before its end (nothing was sent yet). */
  broken: (res: http.ServerResponse) => void;
}

function gatherChunk(this: UpstreamResponse, chunk: Buffer): void {
  this[GATHER]!.chunks.push(chunk);
}

function sendGathered(this: UpstreamResponse): void {
  const g = this[GATHER]!;
  if (g.res.destroyed) return;
  g.res.writeHead(g.status, g.headers);
  g.res.end(g.chunks.length === 1 ? g.chunks[0] : Buffer.concat(g.chunks));
}

/** The backend's connection broke before the whole answer came: nothing was sent yet, so the client gets an error answer. */
function gatherFailed(this: UpstreamResponse): void {
  const { res, broken } = this[GATHER]!;
  if (!res.headersSent && !res.destroyed) broken(res);
}

function destroyClient(this: UpstreamResponse): void {
  this[FORWARD]?.destroy();
}

/**
 * Sends a backend's answer on with `status` and `headers`: gathered and written in one go when it
 * declares a length up to GATHER_MAX_BYTES, streamed through otherwise. `broken` answers instead
 * when a gathered answer's backend breaks off before its end.
 */
export function passAnswer(upstreamRes: http.IncomingMessage, res: http.ServerResponse, status: number, headers: http.OutgoingHttpHeaders, broken: (res: http.ServerResponse) => void): void {
  const up = upstreamRes as UpstreamResponse;
  const declared = up.headers['content-length'];
  if (declared !== undefined && Number(declared) <= GATHER_MAX_BYTES) {
    up[GATHER] = { res, status, headers, chunks: [], broken };
    up.on('data', gatherChunk);
    up.on('end', sendGathered);
    up.on('error', gatherFailed);
    return;
  }
  res.writeHead(status, headers);
  up[FORWARD] = res;
  up.pipe(res);
  up.on('error', destroyClient);
}

const blockfrost500 = (res: http.ServerResponse): void => sendBlockfrostError(res, 500, INTERNAL_ERROR_MESSAGE);

/** The backend failed (error, timeout or 5xx) before the answer started: the Blockfrost 500, unless a failover pool takes the request over. */
function failForward(this: ForwardRequest): void {
  const f = this[FORWARD];
  // Broke off or stalled in the middle of the answer: let go of the backend's connection, which ends
  // the answer too (a gathered one becomes the 500, a streamed one is cut).
  if (f.answered) return void this.destroy();
  f.answered = true;
  this.destroy();
  const { res, hooks } = f;
  if (hooks && !res.headersSent && hooks.unavailable()) return;
  if (!res.headersSent) sendBlockfrostError(res, 500, INTERNAL_ERROR_MESSAGE);
  else res.destroy();
}

/** The backend's answer: passed through (its 4xx too), or a 5xx reported in our own words. */
function onUpstreamResponse(this: ForwardRequest, upstreamRes: UpstreamResponse): void {
  const f = this[FORWARD];
  if (f.answered) return void upstreamRes.resume();
  const status = upstreamRes.statusCode ?? 502;
  if (status >= 500) {
    upstreamRes.resume();
    return failForward.call(this);
  }
  f.answered = true;
  f.hooks?.answered();
  const out: http.OutgoingHttpHeaders = {};
  const h = upstreamRes.headers;
  for (const name in h) if (!HOP_BY_HOP.has(name) && h[name] !== undefined) out[name] = h[name];
  Object.assign(out, ANY_ORIGIN);
  passAnswer(upstreamRes, f.res, status, out, blockfrost500);
}

/** A request without Content-Length or Transfer-Encoding has no body (RFC 9112 6.3); nor has one of length 0. */
const hasNoBody = (h: http.IncomingHttpHeaders): boolean => h['transfer-encoding'] === undefined && (h['content-length'] === undefined || h['content-length'] === '0');

/** The client went away before the answer was complete: stop asking the backend. */
function onClientClose(this: ForwardedResponse): void {
  if (!this.writableFinished) this[FORWARD]?.destroy();
}

/**
 * A Blockfrost-compatible HTTP backend. Request bodies stream through; answers up to
 * GATHER_MAX_BYTES go out in one write once complete, bigger ones stream through; connections are
 * kept alive; a failure or timeout before the answer starts (or, for a gathered answer, before it
 * is complete) becomes the Blockfrost 500 body.
 */
export function httpUpstream(cfg: UpstreamConfig, timeoutMs: number): Upstream {
  const base = new URL(cfg.url);
  const isHttps = base.protocol === 'https:';
  // The timeout lives on the agent's sockets, armed once per socket rather than per request.
  const agent = isHttps ? new https.Agent({ keepAlive: true, maxSockets: 256, timeout: timeoutMs }) : new http.Agent({ keepAlive: true, maxSockets: 256, timeout: timeoutMs });
  const basePath = base.pathname.replace(/\/+$/, '');
  const request = isHttps ? https.request : http.request;
  const authName = cfg.auth?.name.toLowerCase();

  return {
    forward(req, res, path, hooks) {
      // A flat [name, value, …] list goes out as it is; an object would be copied header by header
      // through setHeader's checks again. Node adds no Host to a list, so it is the first entry.
      const headers: string[] = ['host', base.host];
      const incoming = req.headers;
      for (const name in incoming) {
        const value = incoming[name];
        // A client's own copy of the upstream's auth header would reach it beside ours.
        if (value === undefined || NOT_FORWARDED.has(name) || name === authName) continue;
        if (typeof value === 'string') headers.push(name, value);
        else for (const v of value) headers.push(name, v);
      }
      if (cfg.auth) headers.push(cfg.auth.name, cfg.auth.value);
      const upstreamReq = request({
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port || (isHttps ? 443 : 80),
        method: req.method,
        path: basePath + path,
        headers,
        agent,
      }) as ForwardRequest;
      upstreamReq[FORWARD] = { res, hooks, answered: false };
      upstreamReq.on('timeout', failForward);
      upstreamReq.on('error', failForward);
      upstreamReq.on('response', onUpstreamResponse);
      (res as ForwardedResponse)[FORWARD] = upstreamReq;
      res.on('close', onClientClose);
      // A failover retry forwards a request whose (empty) body has already been read; a request
      // without a body (no length, not chunked: every GET) goes out at once, without a pipe.
      if (req.readableEnded || hasNoBody(incoming)) upstreamReq.end();
      else req.pipe(upstreamReq);
    },
    close: () => agent.destroy(),
  };
}
