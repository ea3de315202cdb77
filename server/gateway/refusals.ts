// Every refusal of the data plane, its HTTP status and its text, in one table: the admission steps
// (admission.ts) answer with an entry, and each way of answering (Blockfrost's error body, a JSON-RPC
// error, a websocket frame) writes the same status and message from it.
import { INVALID_PATH_MESSAGE } from '../blockfrost/http';
import { ALLOW_LIST_MESSAGES, type AllowListName } from '../../shared/allow-list';
import type { Verdict } from './limiter';

export interface Refusal {
  readonly status: number;
  readonly message: string;
}

const OVER_LIMIT = 'Usage is over limit.';

export const REFUSALS = {
  missingKey: { status: 403, message: 'Missing project token. Please include project_id in your request.' },
  invalidKey: { status: 403, message: 'Invalid project token.' },
  mismatch: { status: 403, message: 'Network token mismatch. Are you using token for the correct network? See https://docs.blockfrost.io/#section/Available-networks.' },
  disabled: { status: 403, message: 'This network is turned off on this Cairn server by its operator: its keys are refused (and requests are not counted).' },
  restricted: { status: 402, message: 'API access is restricted: the first payment of this subscription failed. Pay the open invoice in the dashboard to restore it.' },
  noBackend: { status: 500, message: 'This network has no backend configured on this Cairn server, so requests to it cannot be answered (and are not counted).' },
  badPath: { status: 400, message: "The path is not valid: dot segments (also encoded), encoded slashes, backslashes and '#' are not allowed." },
  invalidPath: { status: 400, message: INVALID_PATH_MESSAGE },
  origin: { status: 403, message: ALLOW_LIST_MESSAGES.origin },
  ip: { status: 403, message: ALLOW_LIST_MESSAGES.ip },
  method: { status: 403, message: ALLOW_LIST_MESSAGES.method },
  banned: { status: 418, message: 'IP has been auto-banned for flooding.' },
  rate_limited: { status: 429, message: OVER_LIMIT },
  over_quota: { status: 402, message: OVER_LIMIT },
  limiterFailed: { status: 500, message: 'The request could not be checked against its limits. Please retry.' },
} as const satisfies Record<string, Refusal>;

export type RefusalName = keyof typeof REFUSALS;

/** The refusal of a limiter's verdict other than 'ok'. */
export const limitRefusal = (verdict: Exclude<Verdict, 'ok'>): Refusal => REFUSALS[verdict];

/** The refusal of a project's allow-list. */
export const listRefusal = (list: AllowListName): Refusal => REFUSALS[list];
