// The API console's requests, sent from the main process: the key is read from the keychain here and goes out
// in the project_id header to the gateway the Cairn server names; the renderer only chooses path and body.
import type { ConsoleRequest, ConsoleResponse } from '../preload/bridge';
import { findNetwork } from '../../shared/networks';
import type { CairnApi } from './cairn-api';
import type { Keychain } from './keychain';

const CONSOLE_BODY_LIMIT = 1_000_000;
const CONSOLE_TIMEOUT_MS = 30_000;

/** The gateway's public address from the Cairn server's site settings (GATEWAY_PUBLIC_URL), read once. */
export function gatewayUrlFrom(api: CairnApi): () => Promise<string> {
  let cached: Promise<string> | null = null;
  return () => {
    cached ??= api
      .get<{ gatewayUrl?: string }>('/api/site')
      .then((answer) => {
        const raw = answer.data?.gatewayUrl;
        const url = raw ? new URL(raw) : null;
        if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new Error('The Cairn server did not name its gateway.');
        return url.href.replace(/\/+$/, '');
      })
      .catch((error: unknown) => {
        cached = null;
        throw error;
      });
    return cached;
  };
}

async function readCapped(res: Response, limit: number): Promise<{ text: string; truncated: boolean }> {
  if (!res.body) return { text: '', truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > limit) {
      chunks.push(value.subarray(0, limit - size));
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated };
}

interface ConsoleDeps {
  keychain: Pick<Keychain, 'secretFor' | 'list'>;
  gatewayUrl: () => Promise<string>;
  fetchImpl?: typeof fetch;
  now?: () => number;
}

export async function sendConsoleRequest(request: ConsoleRequest, deps: ConsoleDeps): Promise<ConsoleResponse> {
  const kept = (await deps.keychain.list()).find((k) => k.projectUuid === request.projectUuid);
  const key = kept ? await deps.keychain.secretFor(request.projectUuid) : null;
  if (!kept || key === null) throw new Error('That key is no longer in the keychain.');
  const slug = findNetwork(kept.networkId)?.slug;
  if (!slug) throw new Error('The project of that key is on a network the gateway does not serve.');
  const url = `${await deps.gatewayUrl()}/${slug}/api/v0${request.path}`;
  const now = deps.now ?? (() => performance.now());
  const started = now();
  const res = await (deps.fetchImpl ?? fetch)(url, {
    method: request.method,
    headers: {
      project_id: key,
      accept: 'application/json, */*',
      ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(request.body !== undefined ? { body: request.body } : {}),
    // A redirect would carry the key to wherever it points.
    redirect: 'manual',
    signal: AbortSignal.timeout(CONSOLE_TIMEOUT_MS),
  });
  const { text, truncated } = await readCapped(res, CONSOLE_BODY_LIMIT);
  const timeMs = Math.round((now() - started) * 10) / 10;
  return { status: res.status, statusText: res.statusText, headers: [...res.headers.entries()], timeMs, body: text, truncated, url };
}
