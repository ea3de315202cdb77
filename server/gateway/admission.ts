// The data plane's admission: every request (a REST call, a JSON-RPC call of a batch, an IPFS call, a
// websocket frame, a devnet's steering call) passes the same named steps here, in this order, and
// only then reaches a backend (backend.ts):
//   key        the project key is known, of the network asked, its network on and its account not restricted
//   allow-lists the project's browser origins and client addresses (and, for JSON-RPC, its methods)
//   limits     the IP ban, the project's token bucket and the subscription's daily quota (or its
//              pay-as-you-go balance), in one limiter call
//   metering   every answered request, admitted or refused by an allow-list or a limit
// Each step answers with an entry of the refusal table (refusals.ts) or lets the request on. The steps
// know nothing of HTTP: the gateway's request handler (gateway.ts) is one adapter of them, admit() the
// whole path for a caller without a request and response.
import { evmSlugs } from '../../shared/networks';
import { refusedCode, type AllowListName } from '../../shared/allow-list';
import type { AdmittedCall, CallSteps } from './backend';
import { KeyCache, type ProjectKey } from './key-cache';
import { MemoryLimiter, utcDay, type Limiter, type Verdict } from './limiter';
import type { MeteredRequest } from './metering';
import { REFUSALS, limitRefusal, type Refusal } from './refusals';

/** The key step's answer for a key the cache does not know yet but may once it caught up (a key created a moment ago). */
export const CATCH_UP = Symbol('cairn.catchUp');

export interface AdmissionDeps {
  keys: Pick<KeyCache, 'lookup' | 'catchUp'>;
  limiter: Limiter;
  meter: { record(r: MeteredRequest): void };
  /** Networks the operator turned off (DISABLED_NETWORKS). */
  disabled: ReadonlySet<string>;
  now: () => number;
}

/** A request to admit, as any transport knows it. */
export interface AdmissionContext {
  /** The key as sent (a header sent twice is an array, which no key matches); undefined when none was. */
  key: string | string[] | undefined;
  /** The network the caller addressed (host or path); undefined: the key's own. */
  network?: string | undefined;
  /** A JSON-RPC call to the API root without a network: only a key of a JSON-RPC network may make it. */
  jsonRpcRoot?: boolean;
  origin?: string | undefined;
  ip: string;
  userAgent?: string | undefined;
  /** What metering counts it under (an endpoint template, a JSON-RPC method, a frame's kind). */
  endpoint: string;
  /** performance.now() when it arrived; now by default. */
  started?: number;
}

export type Decision = { admitted: true; call: AdmittedCall; record: MeteredRequest } | { admitted: false; refusal: Refusal };

export type Admission = ReturnType<typeof createAdmission>;

/** A refused or admitted call's meter record; its status is set once its answer is known. */
export const recordOf = (call: AdmittedCall, endpoint: string, admitted: boolean): MeteredRequest => ({
  projectId: call.project.projectId,
  ownerId: call.project.ownerId,
  endpoint,
  status: 0,
  ip: call.ip,
  userAgent: call.userAgent,
  admitted,
  at: call.at,
  started: call.started,
});

export function createAdmission(deps: AdmissionDeps) {
  const { keys, limiter, meter, disabled, now } = deps;
  const memory = limiter instanceof MemoryLimiter ? limiter : null;
  /** Requests each subscription owner made today before this process counted any (from quota_usage). */
  let quotaBase = new Map<number, number>();
  let quotaBaseDay = -1;

  /** The key step, first half: the project a key names; CATCH_UP when it may be a key the cache has not seen yet (once per request: `caughtUp`). */
  const project = (key: string | string[] | undefined, caughtUp: boolean): ProjectKey | Refusal | typeof CATCH_UP => {
    if (key === undefined) return REFUSALS.missingKey;
    const found = typeof key === 'string' ? keys.lookup(key) : undefined;
    if (found) return found;
    if (typeof key === 'string' && !caughtUp && KeyCache.looksLikeKey(key)) return CATCH_UP;
    return REFUSALS.invalidKey;
  };

  /**
   * The key step, second half, before any limit (refused here, a request costs nothing and is not
   * metered): the key is of the network addressed, its network is on, and its account may use the API.
   */
  const keyRefusal = (p: ProjectKey, network: string | undefined, jsonRpcRoot: boolean): Refusal | null => {
    if (network !== undefined && network !== p.network) return REFUSALS.mismatch;
    if (network === undefined && jsonRpcRoot && !evmSlugs.has(p.network)) return REFUSALS.mismatch;
    if (disabled.size > 0 && disabled.has(p.network)) return REFUSALS.disabled;
    // incomplete_expired: the first payment failed and none succeeded within 23 hours (spec: access restricted).
    if (p.status === 'incomplete_expired') return REFUSALS.restricted;
    return null;
  };

  /** The allow-lists step for a browser origin and a client address; compiled in the key cache, so a project without lists costs one null check. */
  const refusingList = (p: ProjectKey, origin: string | undefined, ip: string): AllowListName | null => {
    const allow = p.allow;
    if (allow === null) return null;
    if (allow.origin !== null && !allow.origin(origin)) return 'origin';
    if (allow.ip !== null && !allow.ip(ip)) return 'ip';
    return null;
  };

  /**
   * The one request the limits step checks for a project's call: the bucket per project (during a
   * key roll's grace both keys share it), the quota per subscription owner, and the workspace's
   * pay-as-you-go balance, always passed (a credited total of 0 is no balance to the limiter).
   */
  const admittedCall = (p: ProjectKey, ip: string, at: number, started: number, userAgent: string | undefined): AdmittedCall => {
    const day = utcDay(at);
    if (day !== quotaBaseDay) {
      // The day turned: nothing flushed for it yet.
      quotaBase = new Map();
      quotaBaseDay = day;
    }
    return {
      ip,
      bucketKey: p.uuid,
      rate: p.limitPerSecond,
      burst: p.limitBurst,
      quotaKey: p.quotaKey,
      day,
      quotaLimit: p.requestLimit,
      quotaBase: quotaBase.get(p.ownerId) ?? 0,
      balanceKey: p.balanceKey,
      balanceCredited: p.ppuCredited,
      balanceSpentBase: p.ppuSpent,
      project: p,
      at,
      started,
      userAgent,
    };
  };

  /** The steps a backend runs per call (JSON-RPC batches): made once. */
  const steps: CallSteps = {
    limitNow: (call) => (memory ? memory.admitNow(call) : null),
    limitLater: (call) => limiter.admit(call),
    meter: (record) => meter.record(record),
    refusedByList(call, list, endpoint) {
      const refusal = REFUSALS[list];
      const record = recordOf(call, endpoint, false);
      record.status = refusal.status;
      record.refused = refusedCode(list);
      meter.record(record);
      return refusal;
    },
  };

  const verdictOf = (call: AdmittedCall, endpoint: string, verdict: Verdict): Decision => {
    if (verdict === 'ok') return { admitted: true, call, record: recordOf(call, endpoint, true) };
    const refusal = limitRefusal(verdict);
    const record = recordOf(call, endpoint, false);
    record.status = refusal.status;
    record.message = refusal.message;
    meter.record(record);
    return { admitted: false, refusal };
  };

  /**
   * The whole path for a caller without an HTTP request (a websocket frame, a devnet's steering
   * call): key, allow-lists, limits; a refusal by a list or a limit is metered here, an admitted
   * call's record is metered by the caller once it answered (`answered`).
   */
  async function admit(ctx: AdmissionContext): Promise<Decision> {
    const started = ctx.started ?? performance.now();
    let p = project(ctx.key, false);
    if (p === CATCH_UP) {
      await keys.catchUp().catch(() => undefined);
      p = project(ctx.key, true);
    }
    if (p === CATCH_UP || !('projectId' in p)) return { admitted: false, refusal: p === CATCH_UP ? REFUSALS.invalidKey : p };
    const refusal = keyRefusal(p, ctx.network, ctx.jsonRpcRoot ?? false);
    if (refusal) return { admitted: false, refusal };
    const call = admittedCall(p, ctx.ip, now(), started, ctx.userAgent);
    const list = refusingList(p, ctx.origin, ctx.ip);
    if (list !== null) return { admitted: false, refusal: steps.refusedByList(call, list, ctx.endpoint) };
    return verdictOf(call, ctx.endpoint, steps.limitNow(call) ?? (await limiter.admit(call)));
  }

  /** Meters an admitted call once it has been answered. */
  const answered = (record: MeteredRequest, status: number, message?: string): void => {
    record.status = status;
    if (status >= 400 && message !== undefined) record.message = message;
    meter.record(record);
  };

  return {
    project,
    keyRefusal,
    refusingList,
    admittedCall,
    recordOf,
    steps,
    admit,
    answered,
    /** The in-memory limiter when that is the limiter: its verdicts come at once, without a promise. */
    memory,
    limiter,
    setQuotaBase(base: Map<number, number>, at = now()) {
      quotaBase = base;
      quotaBaseDay = utcDay(at);
    },
  };
}
