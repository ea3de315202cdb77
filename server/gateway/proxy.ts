import type http from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import type { UpstreamConfig } from '../config';
import { INTERNAL_ERROR_MESSAGE } from '../blockfrost/http';
import { ANY_ORIGIN, sendBlockfrostError } from './respond';

// Headers that describe one hop, not the message; never passed back to the client (RFC 9110 7.6.1).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);
/**
 * The only client headers a Blockfrost backend is sent (beside the operator's own credentials): what
 * the answer may look like, the body's type and length, the client's name, and ranges and
 * revalidation for IPFS files. Everything else stays here: the key, cookies, the Host, client-written
 * proxy headers (X-Forwarded-For, X-Original-URL, X-Rewrite-URL, X-HTTP-Method-Override …) that a
 * backend or the proxy in front of it could believe, arriving beside the operator's credentials.
 * A body without Content-Length goes out chunked, as undici sends a streamed body.
 */
export const FORWARDED_HEADERS: ReadonlySet<string> = new Set(['accept', 'accept-encoding', 'content-type', 'content-length', 'user-agent', 'range', 'if-range', 'if-none-match', 'if-modified-since']);

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

/**
 * Answers that declare a length up to this are gathered and sent with their head in one write, as
 * nginx buffers proxied answers: one syscall and no stream plumbing per answer instead of two writes
 * through a pipe. Bigger or unsized answers (a large script, an IPFS file) stream through.
 */
export const GATHER_MAX_BYTES = 64 * 1024;

/** Whether an answer declaring this Content-Length is gathered (else it streams). */
const gathers = (declared: string | string[] | undefined): boolean => typeof declared === 'string' && Number(declared) <= GATHER_MAX_BYTES;

/** A request without Content-Length or Transfer-Encoding has no body (RFC 9112 6.3); nor has one of length 0. */
const hasNoBody = (h: http.IncomingHttpHeaders): boolean => h['transfer-encoding'] === undefined && (h['content-length'] === undefined || h['content-length'] === '0');

/**
 * One request to a backend, as undici's dispatch handler: the backend's answer is passed to `res`
 * (its 4xx too), gathered and written with its head in one go when it declares up to
 * GATHER_MAX_BYTES, streamed otherwise (pausing the backend while the client is slow); a failure,
 * timeout or 5xx before anything was sent becomes the caller's error answer (`failed`), unless a
 * failover pool takes the request over; a client that leaves stops the backend request.
 * Subclasses give the head sent and the error answer (the Blockfrost proxy's, the JSON-RPC backend's);
 * a JSON-RPC batch gathers every answer whole for itself instead.
 */
export abstract class Forward implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  /** The answer began (a status below 500 came). */
  private answered = false;
  /** The forward is over: answered in full, failed, or given up because the client left. */
  private over = false;
  private status = 0;
  private headers: http.OutgoingHttpHeaders | null = null;
  /** The gathered body (null while streaming). */
  private chunks: Buffer[] | null = null;
  private gatheredBytes = 0;
  /** A gathered answer longer than this is given up: the backend is asked to stop and `tooLarge` answers. */
  protected readonly gatherLimit: number = Infinity;
  /** performance.now() when the backend was last heard from (the request went out, or a piece of the answer came). */
  heard = 0;
  /** Where this forward sits in its pool's stall watch while it waits on the backend (-1: not waiting). */
  slot = -1;
  /** The pool's stall watch (BackendPool). */
  watch: StallWatch | null = null;

  constructor(
    readonly res: http.ServerResponse,
    private readonly hooks?: ForwardHooks,
  ) {}

  /** The head sent to the client for the backend's answer (status below 500). */
  protected abstract head(status: number, headers: Record<string, string | string[]>): http.OutgoingHttpHeaders;
  /** Answers the client for a backend that failed before anything was sent to it. */
  protected abstract failed(): void;
  /** Answers the client for a gathered answer over `gatherLimit` (nothing was sent to it yet). */
  protected tooLarge(): void {
    this.failed();
  }
  /** Whether this answer is gathered whole before anything is sent (else it streams through). */
  protected gathered(headers: Record<string, string | string[]>): boolean {
    return gathers(headers['content-length']);
  }
  /** A gathered answer is complete: writes its head and body in one go. */
  protected complete(status: number, headers: http.OutgoingHttpHeaders, chunks: Buffer[]): void {
    if (this.res.destroyed) return;
    this.res.writeHead(status, headers);
    this.res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    this.heard = performance.now();
    this.await(true);
  }

  /** Starts or stops the stall watch for this forward. */
  private await(on: boolean): void {
    if (!this.watch || on === this.slot >= 0) return;
    if (on) this.watch.add(this);
    else this.watch.remove(this);
  }

  /** The forward is over: nothing more goes to the client, and the stall watch lets it go. */
  private end(): void {
    this.over = true;
    this.await(false);
  }

  /** The backend said nothing for the pool's timeout: it is asked to stop, and onResponseError answers for it. */
  stalled(): void {
    this.await(false);
    this.controller?.abort(new Error('the backend stalled past the timeout'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[]>): void {
    if (this.over || status < 200) return;
    if (status >= 500) {
      // Reported in our own words; the backend's body is not wanted.
      this.fail();
      controller.abort(new Error(`the backend answered ${status}`));
      return;
    }
    this.answered = true;
    this.hooks?.answered();
    const out = this.head(status, headers);
    if (this.gathered(headers)) {
      this.status = status;
      this.headers = out;
      this.chunks = [];
      return;
    }
    this.res.writeHead(status, out);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.over) return;
    this.heard = performance.now();
    if (this.chunks) {
      this.gatheredBytes += chunk.length;
      if (this.gatheredBytes > this.gatherLimit) {
        this.end();
        this.chunks = null;
        controller.abort(new Error('the answer is larger than this forward gathers'));
        if (!this.res.headersSent && !this.res.destroyed) this.tooLarge();
        return;
      }
      this.chunks.push(chunk);
    } else if (!this.res.write(chunk)) {
      // A slow client is not a stalled backend: the watch stops while paused.
      controller.pause();
      this.await(false);
      this.res.once('drain', () => {
        if (this.over) return;
        this.heard = performance.now();
        this.await(true);
        controller.resume();
      });
    }
  }

  onResponseEnd(): void {
    if (this.over) return;
    this.end();
    if (this.chunks) this.complete(this.status, this.headers!, this.chunks);
    else if (!this.res.destroyed) this.res.end();
  }

  /** Refused, broken off, or stalled past the timeout (headers or body). */
  onResponseError(_controller: Dispatcher.DispatchController, _err: Error): void {
    this.await(false);
    if (this.over) return;
    if (!this.answered) return this.fail();
    this.over = true;
    // In the middle of the answer: a gathered one becomes the error answer (nothing was sent yet), a streamed one is cut.
    if (this.chunks) {
      if (!this.res.headersSent && !this.res.destroyed) this.failed();
    } else this.res.destroy();
  }

  /** The backend failed before answering. */
  private fail(): void {
    this.end();
    const { res, hooks } = this;
    if (hooks && !res.headersSent && hooks.unavailable()) return;
    if (!res.headersSent) this.failed();
    else res.destroy();
  }

  /** The client went away before the answer was complete: stop asking the backend. */
  clientGone(): void {
    if (this.over) return;
    this.end();
    this.controller?.abort(new Error('the client went away'));
  }
}

/** The Blockfrost proxy's forward: the backend's headers but hop-by-hop ones, readable by any origin; failures are the Blockfrost 500. */
class BlockfrostForward extends Forward {
  protected head(_status: number, headers: Record<string, string | string[]>): http.OutgoingHttpHeaders {
    const out: http.OutgoingHttpHeaders = {};
    for (const name in headers) if (!HOP_BY_HOP.has(name)) out[name] = headers[name];
    return Object.assign(out, ANY_ORIGIN);
  }

  protected failed(): void {
    sendBlockfrostError(this.res, 500, INTERNAL_ERROR_MESSAGE);
  }
}

const FORWARDING = Symbol('cairn.forwarding');
type ForwardedResponse = http.ServerResponse & { [FORWARDING]?: Forward };

function onClientClose(this: ForwardedResponse): void {
  if (!this.writableFinished) this[FORWARDING]?.clientGone();
}

/**
 * The forwards of a pool waiting on their backend: a dense array, each forward knowing its slot, so
 * leaving is one swap with the last (a Set's churn of entries kept a busy gateway's finished requests
 * alive across young-generation collections in bench:gateway).
 */
class StallWatch {
  private readonly forwards: Forward[] = [];

  add(forward: Forward): void {
    forward.slot = this.forwards.length;
    this.forwards.push(forward);
  }

  remove(forward: Forward): void {
    const last = this.forwards.pop()!;
    if (last !== forward) {
      this.forwards[forward.slot] = last;
      last.slot = forward.slot;
    }
    forward.slot = -1;
  }

  /** The forwards last heard from before `before` (performance.now() time). */
  stalled(before: number): Forward[] {
    return this.forwards.filter((f) => f.heard <= before);
  }
}

/**
 * A keep-alive connection pool to one backend origin (up to 256 connections). `timeoutMs` bounds the
 * connect, the wait for the answer's head, and each wait between pieces of its body. The waits are
 * checked by one sweep over the forwards in flight, a tenth of the timeout apart (at most a second),
 * instead of undici's timers: those make a timer object per request (a pooled connection switches
 * between its answer and keep-alive timeouts), which outlive young-generation collections in a
 * busy gateway and make each one slower.
 */
export class BackendPool {
  private readonly pool: Pool;
  private readonly watch = new StallWatch();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    origin: string,
    private readonly timeoutMs: number,
  ) {
    this.pool = new Pool(origin, { connections: 256, headersTimeout: 0, bodyTimeout: 0, connect: { timeout: timeoutMs } });
    this.sweeper = setInterval(() => this.sweep(), Math.min(1000, Math.max(10, Math.round(timeoutMs / 10))));
    this.sweeper.unref();
  }

  /** Sends one request, its answer going to `forward`; the client leaving stops it. */
  dispatch(request: Dispatcher.DispatchOptions, forward: Forward): void {
    (forward.res as ForwardedResponse)[FORWARDING] = forward;
    forward.res.on('close', onClientClose);
    forward.watch = this.watch;
    this.pool.dispatch(request, forward);
  }

  private sweep(): void {
    const now = performance.now();
    for (const forward of this.watch.stalled(now - this.timeoutMs)) forward.stalled();
  }

  destroy(): Promise<void> {
    clearInterval(this.sweeper);
    return this.pool.destroy();
  }
}

/**
 * A Blockfrost-compatible HTTP backend, reached through an undici connection pool (keep-alive, up
 * to 256 connections). Request bodies stream through; answers up to GATHER_MAX_BYTES go out in one
 * write once complete, bigger ones stream through; a failure or timeout before the answer starts (or,
 * for a gathered answer, before it is complete) becomes the Blockfrost 500 body. undici rather than
 * node:http's client: per forwarded request it takes about a fifth less of the gateway's thread (a
 * bare proxy built on each, bench:gateway's harness: 122 and 125 % of node:http's throughput).
 */
export function httpUpstream(cfg: UpstreamConfig, timeoutMs: number): Upstream {
  const base = new URL(cfg.url);
  const pool = new BackendPool(base.origin, timeoutMs);
  const basePath = base.pathname.replace(/\/+$/, '');
  const authName = cfg.auth?.name.toLowerCase();

  return {
    forward(req, res, path, hooks) {
      // A flat [name, value, …] list; undici adds the backend's own Host.
      const headers: string[] = [];
      const incoming = req.headers;
      for (const name of FORWARDED_HEADERS) {
        const value = incoming[name];
        // A client's own copy of the upstream's auth header would reach it beside ours.
        if (value === undefined || name === authName) continue;
        if (typeof value === 'string') headers.push(name, value);
        else for (const v of value) headers.push(name, v);
      }
      if (cfg.auth) headers.push(cfg.auth.name, cfg.auth.value);
      // A body read whole before (a submitted transaction the gateway records) goes out as it was
      // read; a failover retry forwards a request whose (empty) body has already been read; a request
      // without a body (no length, not chunked: every GET) goes out without one.
      const read = (req as http.IncomingMessage & { body?: unknown }).body;
      const body = Buffer.isBuffer(read) ? read : req.readableEnded || hasNoBody(incoming) ? null : req;
      pool.dispatch({ origin: base.origin, method: req.method as Dispatcher.HttpMethod, path: basePath + path, headers, body }, new BlockfrostForward(res, hooks));
    },
    close: () => void pool.destroy(),
  };
}
