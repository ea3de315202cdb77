import { CSRF_HEADER, type ApiErrorBody, type ApiSuccess, type CsrfToken } from '../../../../shared/api';
import type { PageDto } from '../../../../shared/pagination';

/** A failed API call: the HTTP status and the server's {error: {code, message}}. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const isApiError = (error: unknown, status?: number): error is ApiError =>
  error instanceof ApiError && (status === undefined || error.status === status);

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface ApiFetchOptions {
  method?: HttpMethod;
  body?: unknown;
  signal?: AbortSignal;
  /** Send the CSRF token on a GET too (GET /api/stripe/cancel_subscription changes state, as the spec names it). */
  csrf?: boolean;
}

const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set(['GET']);

// One token per session: fetched on the first state-changing call and reused until the server
// says it is stale (a new session after sign-in or sign-out issues a new one).
let csrfToken: Promise<string> | null = null;

/** Forget the CSRF token, e.g. after signing out. */
export function resetCsrfToken(): void {
  csrfToken = null;
}

function getCsrfToken(): Promise<string> {
  if (!csrfToken) {
    const pending = request<CsrfToken>('/auth/csrf', { method: 'GET' }, null).then((d) => d.csrfToken);
    pending.catch(() => {
      if (csrfToken === pending) csrfToken = null;
    });
    csrfToken = pending;
  }
  return csrfToken;
}

async function readError(res: Response): Promise<ApiError> {
  let body: Partial<ApiErrorBody> | null = null;
  try {
    body = (await res.json()) as Partial<ApiErrorBody>;
  } catch {
    body = null;
  }
  const err = body?.error;
  if (err && typeof err.message === 'string') {
    return new ApiError(res.status, typeof err.code === 'string' ? err.code : 'error', err.message, err.details);
  }
  return new ApiError(res.status, 'http_error', `The server answered with status ${res.status}${res.statusText ? ` (${res.statusText})` : ''}.`);
}

async function request<T>(path: string, options: ApiFetchOptions, token: string | null, whole = false): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers[CSRF_HEADER] = token;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.');
  }
  if (!res.ok) throw await readError(res);
  if (res.status === 204) return undefined as T;
  try {
    const body = (await res.json()) as ApiSuccess<T>;
    return whole ? (body as T) : body.data;
  } catch {
    throw new ApiError(res.status, 'malformed_response', 'The server sent a response that could not be read.');
  }
}

/**
 * Calls the Cairn API with the session cookie. Non-GET calls carry the CSRF token; if the server
 * refuses it as stale, the token is fetched again and the call retried once.
 */
export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  if (SAFE_METHODS.has(method) && !options.csrf) return request<T>(path, options, null);
  try {
    return await request<T>(path, options, await getCsrfToken());
  } catch (err) {
    if (!isApiError(err, 403) || err.code !== 'csrf') throw err;
    resetCsrfToken();
    return request<T>(path, options, await getCsrfToken());
  }
}

/** GET one page of a paged list: the whole answer, `{data: [...], next}` (shared/pagination.ts). */
export function apiFetchPage<T>(path: string, options: Pick<ApiFetchOptions, 'signal'> = {}): Promise<PageDto<T>> {
  return request<PageDto<T>>(path, { method: 'GET', signal: options.signal }, null, true);
}

/** The text to show for a failed call: the server's message, else the error's own, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

// Codes this client makes up when the server sent no readable {error} body.
const UNREADABLE_CODES: ReadonlySet<string> = new Set(['http_error', 'malformed_response']);

/**
 * The text the server gave for a failed call (or the network failure), null when there is none to
 * show, so callers can fall back to their own wording.
 */
export function apiErrorText(error: unknown): string | null {
  if (!(error instanceof ApiError) || UNREADABLE_CODES.has(error.code) || !error.message) return null;
  return error.message;
}
