// The network's Blockfrost API as the push API's commands read it: calls to the network's gateway
// backend (an upstream, the sandbox chain) made in process for an admitted message, so one message is
// one metered request however many reads it takes.
import type { AdmittedCall } from '../../gateway/backend';
import type { InProcessAnswer, InProcessRequest } from '../../gateway/in-process';
import { PushError } from './protocol';

export type CallBackend = (network: string, request: InProcessRequest, call: AdmittedCall) => Promise<InProcessAnswer> | null;

export interface NetworkApi {
  /** The JSON of a GET; a refusal (400, 404, 500 …) is thrown as a PushError with the backend's message. */
  get<T>(path: string): Promise<T>;
  /** The same, with null for a 404. */
  find<T>(path: string): Promise<T | null>;
  /** Every page (of 100) of a list. */
  all<T>(path: string): Promise<T[]>;
  /** POST /tx/submit: the hash the backend answers. */
  submit(cbor: Buffer): Promise<string>;
}

const NO_BACKEND = 'This network has no backend configured on this Cairn server.';
/** More pages than this of one list are not read for one message. */
const MAX_PAGES = 100;

function messageOf(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : undefined;
  } catch {
    return undefined;
  }
}

export function networkApi(callBackend: CallBackend, network: string, call: AdmittedCall): NetworkApi {
  const request = async (req: InProcessRequest): Promise<InProcessAnswer> => {
    const pending = callBackend(network, req, call);
    if (!pending) throw new PushError(500, NO_BACKEND);
    return pending;
  };
  const json = <T>(answer: InProcessAnswer): T => {
    if (answer.status >= 400) throw new PushError(answer.status, messageOf(answer.body) ?? 'The backend refused the request.');
    try {
      return JSON.parse(answer.body.toString('utf8')) as T;
    } catch {
      throw new PushError(500, 'An unexpected response was received from the backend.');
    }
  };
  const api: NetworkApi = {
    get: async (path) => json(await request({ method: 'GET', path })),
    async find(path) {
      const answer = await request({ method: 'GET', path });
      return answer.status === 404 ? null : json(answer);
    },
    async all<T>(path: string) {
      const out: T[] = [];
      const sep = path.includes('?') ? '&' : '?';
      for (let page = 1; page <= MAX_PAGES; page++) {
        const batch = (await api.find<T[]>(`${path}${sep}count=100&page=${page}`)) ?? [];
        out.push(...batch);
        if (batch.length < 100) break;
      }
      return out;
    },
    submit: async (cbor) => json<string>(await request({ method: 'POST', path: '/tx/submit', body: cbor, contentType: 'application/cbor' })),
  };
  return api;
}
