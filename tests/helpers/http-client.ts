import { expect } from 'vitest';

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A tiny browser-like client: keeps cookies, fetches and sends the CSRF token, never follows redirects. */
export class Client {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  /** headers: sent with every request (a proxy's X-Forwarded-*, say). */
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string> = {},
  ) {}

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keepCookies(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request<T = any>(method: string, path: string, opts: { body?: unknown; rawBody?: string; headers?: Record<string, string>; csrf?: boolean } = {}): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.headers, ...opts.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    const stateChanging = !['GET', 'HEAD', 'OPTIONS'].includes(method);
    if (stateChanging && opts.csrf !== false) {
      if (!this.csrfToken) await this.fetchCsrf();
      headers['x-csrf-token'] = this.csrfToken!;
      headers.cookie = this.cookieHeader();
    }
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    this.keepCookies(res);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  async fetchCsrf(): Promise<string> {
    const res = await this.request<{ data: { csrfToken: string } }>('GET', '/auth/csrf');
    expect(res.status).toBe(200);
    this.csrfToken = res.body.data.csrfToken;
    return this.csrfToken;
  }

  get = <T = any>(path: string) => this.request<T>('GET', path);
  post = <T = any>(path: string, body?: unknown) => this.request<T>('POST', path, { body });
  put = <T = any>(path: string, body?: unknown) => this.request<T>('PUT', path, { body });
  delete = <T = any>(path: string) => this.request<T>('DELETE', path);
}

/** Pulls the first http(s) link out of a mail text. */
export const linkIn = (text: string): string => {
  const m = /(https?:\/\/\S+)/.exec(text);
  if (!m) throw new Error(`no link in mail: ${text}`);
  return m[1]!;
};
