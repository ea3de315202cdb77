// The desktop app's side of signing in through the system browser (RFC 8252 with PKCE, RFC 7636). No Electron
// here: start.ts passes in how to open the browser, this computer's name for the browser's consent page, and
// where to put the session cookie.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DESKTOP_CALLBACK_URI, DESKTOP_SIGN_IN_TTL_MS, cleanDeviceName, type DesktopTokenResult } from '../../shared/desktop-auth';

export const SESSION_COOKIE_NAME = 'cairn.sid';

interface PkcePair {
  verifier: string;
  challenge: string;
}

export function createPkcePair(): PkcePair {
  // 32 random bytes → 43 base64url characters, the RFC's recommended verifier.
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

export const createState = (): string => crypto.randomBytes(24).toString('base64url');

/** `device` names this computer on the browser's consent page ("Jane's laptop (macOS)"). */
export function startUrl(cairnOrigin: string, challenge: string, state: string, redirectUri: string, device?: string): string {
  const url = new URL('/auth/desktop/start', cairnOrigin);
  url.searchParams.set('code_challenge', challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  url.searchParams.set('redirect_uri', redirectUri);
  if (device !== undefined) url.searchParams.set('device', device);
  return url.href;
}

const PLATFORM_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux', freebsd: 'FreeBSD', openbsd: 'OpenBSD' };

/** The name the consent page shows for this computer: its host name and OS, in characters the server takes. */
export function deviceName(hostname: string, platform: NodeJS.Platform): string | undefined {
  const os = PLATFORM_NAMES[platform] ?? platform;
  const host = cleanDeviceName(hostname.replace(/\.local$/i, ''))?.slice(0, 80).trim();
  return cleanDeviceName(host ? `${host} (${os})` : os);
}

/** True for a cairn://auth/callback link, which belongs to this flow and never to page navigation. */
export function isAuthCallbackLink(link: string): boolean {
  try {
    const url = new URL(link);
    return url.protocol === 'cairn:' && url.host.toLowerCase() === 'auth' && url.pathname === '/callback';
  } catch {
    return false;
  }
}

/** The code from a callback URL whose state is the expected one; null for anything else. */
export function codeFromCallback(link: string, expectedState: string): string | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const code = url.searchParams.get('code');
  const state = url.searchParams.get('state');
  if (!code || !state || state.length !== expectedState.length) return null;
  return crypto.timingSafeEqual(Buffer.from(state), Buffer.from(expectedState)) ? code : null;
}

/**
 * Where the OS will not hand cairn:// links to the app (a Linux desktop without the .desktop registration, an
 * AppImage never integrated), the browser comes back to a loopback port instead.
 */
export const useLoopbackRedirect = (isDefaultProtocolClient: boolean): boolean => !isDefaultProtocolClient;

export interface SessionCookie {
  name: string;
  value: string;
  path: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'lax' | 'strict' | 'no_restriction';
  /** Seconds since the epoch. */
  expirationDate?: number;
}

/** The session cookie among a response's Set-Cookie lines, in the shape Electron's cookies.set takes. */
export function sessionCookieFrom(setCookies: readonly string[], name = SESSION_COOKIE_NAME, now = Date.now()): SessionCookie | null {
  for (const line of setCookies) {
    const [pair, ...attributes] = line.split(';');
    const i = pair?.indexOf('=') ?? -1;
    if (!pair || i <= 0 || pair.slice(0, i).trim() !== name) continue;
    const cookie: SessionCookie = { name, value: pair.slice(i + 1).trim(), path: '/', httpOnly: false, secure: false, sameSite: 'lax' };
    for (const attribute of attributes) {
      const [key = '', ...rest] = attribute.split('=');
      const value = rest.join('=').trim();
      switch (key.trim().toLowerCase()) {
        case 'path':
          cookie.path = value || '/';
          break;
        case 'httponly':
          cookie.httpOnly = true;
          break;
        case 'secure':
          cookie.secure = true;
          break;
        case 'samesite':
          cookie.sameSite = value.toLowerCase() === 'strict' ? 'strict' : value.toLowerCase() === 'none' ? 'no_restriction' : 'lax';
          break;
        case 'max-age':
          if (/^\d+$/.test(value)) cookie.expirationDate = Math.floor(now / 1000) + Number(value);
          break;
        case 'expires':
          if (cookie.expirationDate === undefined && !Number.isNaN(Date.parse(value))) cookie.expirationDate = Math.floor(Date.parse(value) / 1000);
          break;
      }
    }
    return cookie;
  }
  return null;
}

class SignInError extends Error {
  override name = 'SignInError';
}

/** Trades the code and verifier for a session on the server; returns the session cookie and who signed in. */
async function exchangeCode(
  cairnOrigin: string,
  code: string,
  verifier: string,
  fetchImpl: typeof fetch = fetch,
): Promise<{ cookie: SessionCookie; email: string }> {
  // The exchange is a state-changing /auth request, so it carries a CSRF token like any other.
  const csrf = await fetchImpl(new URL('/auth/csrf', cairnOrigin), { headers: { accept: 'application/json' } });
  // The token is bound to the cookies that came with it (a CSRF cookie, or a session): all go back.
  const preCookies = csrf.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!.trim())
    .filter((pair) => pair.indexOf('=') > 0);
  const { data } = (await csrf.json()) as { data: { csrfToken: string } };
  const res = await fetchImpl(new URL('/auth/desktop/token', cairnOrigin), {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'x-csrf-token': data.csrfToken,
      ...(preCookies.length > 0 ? { cookie: preCookies.join('; ') } : {}),
    },
    body: JSON.stringify({ code, code_verifier: verifier }),
    redirect: 'manual',
  });
  const body = (await res.json().catch(() => null)) as { data?: DesktopTokenResult; error?: { message?: string } } | null;
  if (!res.ok || !body?.data) throw new SignInError(body?.error?.message ?? `The server refused the sign-in (HTTP ${res.status}).`);
  const cookie = sessionCookieFrom(res.headers.getSetCookie());
  if (!cookie) throw new SignInError('The server did not start a session.');
  return { cookie, email: body.data.email };
}

interface LoopbackListener {
  redirectUri: string;
  /** Resolves with the callback URL the browser was sent to. */
  callback: Promise<string>;
  close(): void;
}

/** A one-shot HTTP server on 127.0.0.1 with a port the OS picks (RFC 8252 §7.3). */
async function listenOnLoopback(): Promise<LoopbackListener> {
  let deliver: (url: string) => void = () => undefined;
  const callback = new Promise<string>((resolve) => {
    deliver = resolve;
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback' || !url.searchParams.has('code')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' })
      .end('<!doctype html><meta charset="utf-8"><title>Cairn</title><h1 style="font-family:system-ui,sans-serif">You can return to the Cairn app</h1><p style="font-family:system-ui,sans-serif">Signing in finishes there; this tab may be closed.</p>');
    deliver(`http://127.0.0.1:${(server.address() as AddressInfo).port}${req.url ?? ''}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    callback,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

interface DesktopSignInDeps {
  cairnOrigin: string;
  /** Opens the system browser. */
  openExternal(url: string): void | Promise<void>;
  /** Whether cairn:// links reach this app; when not, the loopback redirect is used. */
  deepLinksDelivered(): boolean;
  /** Names this computer on the browser's consent page (deviceName()). */
  deviceName?: string;
  fetch?: typeof fetch;
  /** How long to wait for the browser; 15 minutes like the server's start request. */
  timeoutMs?: number;
}

interface Pending {
  state: string;
  resolve(link: string): void;
}

/** One sign-in at a time: a new one replaces the one still waiting. */
export class DesktopSignIn {
  private pending: Pending | null = null;

  constructor(private readonly deps: DesktopSignInDeps) {}

  /** Opens the browser and resolves once the app holds its own session. */
  async signIn(): Promise<{ cookie: SessionCookie; email: string }> {
    const { verifier, challenge } = createPkcePair();
    const state = createState();
    const loopback = useLoopbackRedirect(this.deps.deepLinksDelivered()) ? await listenOnLoopback() : null;
    let timer: NodeJS.Timeout | undefined;
    try {
      const link = new Promise<string>((resolve, reject) => {
        this.pending = { state, resolve };
        loopback?.callback.then(resolve, reject);
        timer = setTimeout(() => reject(new SignInError('Signing in took too long. Please try again.')), this.deps.timeoutMs ?? DESKTOP_SIGN_IN_TTL_MS);
      });
      await this.deps.openExternal(startUrl(this.deps.cairnOrigin, challenge, state, loopback?.redirectUri ?? DESKTOP_CALLBACK_URI, this.deps.deviceName));
      const code = codeFromCallback(await link, state);
      if (code === null) throw new SignInError('The browser came back without a valid sign-in code. Please try again.');
      return await exchangeCode(this.deps.cairnOrigin, code, verifier, this.deps.fetch);
    } finally {
      clearTimeout(timer);
      loopback?.close();
      if (this.pending?.state === state) this.pending = null;
    }
  }

  /** A cairn://auth/callback link from the OS; true when it answered the sign-in under way. */
  handleCallback(link: string): boolean {
    const pending = this.pending;
    if (!pending || codeFromCallback(link, pending.state) === null) return false;
    pending.resolve(link);
    return true;
  }
}
