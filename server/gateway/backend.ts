// What answers a request once the data plane's steps admitted it: each backend (an upstream pool, the
// sandbox chain, IPFS, JSON-RPC) implements GatewayBackend; the gateway owns this interface and
// imports no backend, the composition root hands them over.
import type http from 'node:http';
import type { AllowListName } from '../../shared/allow-list';
import type { ProjectKey } from './key-cache';
import type { AdmitRequest, Verdict } from './limiter';
import type { MeteredRequest } from './metering';
import type { Refusal } from './refusals';

/**
 * One admitted request as a backend sees it: the limits step's request (bucket per project, quota
 * per subscription owner, pay-as-you-go balance) with the project, when the request arrived and its
 * client. One object per request, made by the gateway whichever backend answers.
 */
export interface AdmittedCall extends AdmitRequest {
  project: ProjectKey;
  /** Epoch ms (the quota's day and metering's buckets). */
  at: number;
  /** performance.now() when the request reached the gateway (latency runs from it). */
  started: number;
  userAgent: string | undefined;
}

/**
 * The admission steps a backend whose request holds several calls (a JSON-RPC batch) runs for each
 * call, so it never re-implements one: the gateway's ban, bucket and quota, its metering and its
 * refusals. Made once by the gateway.
 */
export interface CallSteps {
  /** The ban, bucket and quota for one call: the verdict at once with the in-memory limiter, else null (then `limitLater`). */
  limitNow(call: AdmittedCall): Verdict | null;
  limitLater(call: AdmittedCall): Promise<Verdict>;
  /** Counts one answered call. */
  meter(record: MeteredRequest): void;
  /** A call a project's allow-list refused: metered as refused (never toward the quota); answers what to say. */
  refusedByList(call: AdmittedCall, list: AllowListName, endpoint: string): Refusal;
}

export type BackendKind = 'upstream' | 'sandbox' | 'ipfs' | 'jsonrpc' | 'metrics' | 'cairn';

export interface GatewayBackend {
  /** What it is, for the metrics' backend label. */
  readonly kind: BackendKind;
  /**
   * 'request': the gateway applies the limits and meters the request before handing it over.
   * 'calls': the request holds calls each admitted on its own, which the backend runs through `steps`.
   */
  readonly admits: 'request' | 'calls';
  /** Answers one admitted request; `path` is the part after /api/v0, with its query string. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, path: string, call: AdmittedCall, steps: CallSteps): void;
  close?(): void;
}

/**
 * Cairn's own routes on the gateway, outside Blockfrost's paths (/cairn/v1/…, also after a network
 * segment): admitted like any request, and metered under the template it names.
 */
export interface CairnExtension extends GatewayBackend {
  /** The endpoint template a request is counted under; null: not one of its routes (404). */
  template(method: string, path: string): string | null;
}
