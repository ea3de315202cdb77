// A client of the IPFS Pinning Service API (https://ipfs.github.io/pinning-services-api-spec/), the
// interface Filecoin storage providers' pinning services speak: POST /pins, GET /pins/{requestid}.

export type RemotePinStatus = 'queued' | 'pinning' | 'pinned' | 'failed';

export interface PinningService {
  readonly url: string;
  add(cid: string, name: string): Promise<{ requestid: string; status: RemotePinStatus }>;
  status(requestid: string): Promise<{ requestid: string; status: RemotePinStatus }>;
}

export class PinningServiceError extends Error {
  override name = 'PinningServiceError';
}

export function pinningService(url: string, token: string, timeoutMs: number): PinningService {
  const base = url.replace(/\/+$/, '');
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      throw new PinningServiceError(`pinning service unreachable: ${(err as Error).message}`);
    }
    const text = await res.text();
    let json: { requestid?: unknown; status?: unknown; error?: { reason?: string; details?: string } } = {};
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON
    }
    if (!res.ok) throw new PinningServiceError(`pinning service answered ${res.status}: ${json.error?.details ?? json.error?.reason ?? text.slice(0, 200)}`);
    const status = json.status;
    if (typeof json.requestid !== 'string' || (status !== 'queued' && status !== 'pinning' && status !== 'pinned' && status !== 'failed')) {
      throw new PinningServiceError('pinning service answered without a requestid and status');
    }
    return { requestid: json.requestid, status: status as RemotePinStatus };
  };
  return {
    url: base,
    add: (cid, name) => call('POST', '/pins', { cid, name }),
    status: (requestid) => call('GET', `/pins/${encodeURIComponent(requestid)}`),
  };
}
