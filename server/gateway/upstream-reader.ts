// What the gateway itself reads from a network's Blockfrost-compatible upstream (not a client's
// request passed on): the tip, shared by every reader of the network in this gateway (the push API's
// watcher, the follower of submitted transactions), and any other path, sent to the network's
// upstreams in the pool's order with each one's own credentials, as a client's request would be.
import type { UpstreamConfig } from '../config';
import type { Block } from '../../shared/chain';

/** An upstream that could not be read: its status (null when it did not answer), and how long it asked us to wait (429 Retry-After). */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export interface UpstreamReaderOptions {
  /** The network's upstreams in the order to ask them (UpstreamPools.upstreamsOf). */
  upstreams: () => UpstreamConfig[];
  /** How long one request may take, in milliseconds. */
  timeoutMs: number;
  /** How long a read of the tip is reused (PUSH_UPSTREAM_TIP_MS): one read per this long, whoever asks. */
  tipMs: number;
  now?: () => number;
}

/** A path's answer: its status and body (parsed JSON, or the text). */
interface Answer {
  status: number;
  body: unknown;
}

export class UpstreamReader {
  private tip: { block: Block; at: number } | null = null;
  private reading: Promise<Block> | null = null;
  /** Requests sent (the tests count them). */
  requests = 0;

  constructor(private readonly opts: UpstreamReaderOptions) {}

  private get now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /**
   * The tip block (GET /blocks/latest): read at most once per `tipMs`, every caller within that time
   * getting the same answer, and those asking during a read waiting for it.
   */
  async latest(): Promise<Block> {
    if (this.tip && this.now - this.tip.at < this.opts.tipMs) return this.tip.block;
    this.reading ??= this.get<Block>('/blocks/latest')
      .then((block) => {
        if (!block) throw new UpstreamError('the upstream has no tip block', 404);
        this.tip = { block, at: this.now };
        return block;
      })
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }

  /** The tip as last read, however old; null before the first read. */
  lastTip(): Block | null {
    return this.tip?.block ?? null;
  }

  /** GET `path` (after the API's base, e.g. /blocks/{hash}/next): its JSON, or null for a 404. */
  async get<T>(path: string): Promise<T | null> {
    const answer = await this.send('GET', path);
    if (answer.status === 404) return null;
    if (answer.status < 200 || answer.status > 299) throw new UpstreamError(`the upstream answered ${answer.status} for GET ${path}`, answer.status);
    return answer.body as T;
  }

  /** POST `body` (CBOR) to `path`: the upstream's status and answer, whatever they are (a 400 is the ledger refusing it). */
  post(path: string, body: Uint8Array): Promise<Answer> {
    return this.send('POST', path, body);
  }

  /**
   * Sends one request to the first upstream that answers: one that fails to answer or answers 5xx is
   * passed over for the next, as the pool passes a client's GET on. A 429 is an answer (the caller
   * waits as long as it says). Throws UpstreamError when none answered.
   */
  private async send(method: 'GET' | 'POST', path: string, body?: Uint8Array): Promise<Answer> {
    const list = this.opts.upstreams();
    if (list.length === 0) throw new UpstreamError('the network has no upstream', null);
    let failure: UpstreamError | null = null;
    for (const u of list) {
      // A request with a body is sent once: it may have reached the first upstream before it failed.
      if (failure && method === 'POST') break;
      try {
        this.requests++;
        const res = await fetch(`${u.url}${path}`, {
          method,
          headers: { ...(u.auth ? { [u.auth.name]: u.auth.value } : {}), ...(body ? { 'content-type': 'application/cbor' } : {}) },
          ...(body ? { body: Buffer.from(body) } : {}),
          signal: AbortSignal.timeout(this.opts.timeoutMs),
        });
        const text = await res.text();
        if (res.status === 429) throw new UpstreamError(`the upstream answered 429 for ${method} ${path}`, 429, retryAfterMs(res.headers.get('retry-after'), this.now));
        if (res.status >= 500) {
          failure = new UpstreamError(`the upstream answered ${res.status} for ${method} ${path}`, res.status);
          continue;
        }
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: the text
        }
        return { status: res.status, body: parsed };
      } catch (err) {
        if (err instanceof UpstreamError && err.status === 429) throw err;
        failure = err instanceof UpstreamError ? err : new UpstreamError(`the upstream did not answer ${method} ${path}: ${(err as Error).message}`, null);
      }
    }
    throw failure!;
  }
}
