import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { codeFromCallback, createPkcePair, deviceName, isAuthCallbackLink, sessionCookieFrom, startUrl, useLoopbackRedirect } from '../../../desktop/main/sign-in';
import { desktopStartQuerySchema } from '../../../shared/desktop-auth';

const validStart = () => Object.fromEntries(new URL(startUrl('http://localhost:3000', createPkcePair().challenge, 'x'.repeat(32), 'cairn://auth/callback')).searchParams);

describe('desktop sign-in helpers', () => {
  it('makes an RFC 7636 verifier and its S256 challenge, and a start URL the server accepts', () => {
    const { verifier, challenge } = createPkcePair();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(crypto.createHash('sha256').update(verifier).digest('base64url'));
    const url = new URL(startUrl('http://localhost:3000', challenge, 'x'.repeat(32), 'cairn://auth/callback'));
    expect(url.pathname).toBe('/auth/desktop/start');
    expect(desktopStartQuerySchema.safeParse(Object.fromEntries(url.searchParams)).success).toBe(true);
  });

  it('names this computer for the consent page in characters the server takes, whatever the host name', () => {
    expect(deviceName('janes-laptop.local', 'darwin')).toBe('janes-laptop (macOS)');
    expect(deviceName('DESKTOP-4F2K', 'win32')).toBe('DESKTOP-4F2K (Windows)');
    expect(deviceName('', 'linux')).toBe('Linux');
    expect(deviceName('<b>ev\u202eil</b>\n', 'linux')).toBe('b ev il b (Linux)');
    expect(deviceName('h'.repeat(300), 'linux')).toBe(`${'h'.repeat(80)} (Linux)`);
    for (const name of ['janes-laptop (macOS)', deviceName('<b>ev\u202eil</b>', 'linux')!, deviceName('h'.repeat(300), 'freebsd')!]) {
      const url = new URL(startUrl('http://localhost:3000', createPkcePair().challenge, 'x'.repeat(32), 'cairn://auth/callback', name));
      expect(desktopStartQuerySchema.safeParse(Object.fromEntries(url.searchParams)).success).toBe(true);
    }
    expect(desktopStartQuerySchema.safeParse({ ...validStart(), device: 'a<b' }).success).toBe(false);
    expect(desktopStartQuerySchema.safeParse({ ...validStart(), device: '' }).success).toBe(false);
    expect(desktopStartQuerySchema.safeParse({ ...validStart(), device: 'x'.repeat(101) }).success).toBe(false);
  });

  it('takes a callback only with the expected state', () => {
    const state = 'a'.repeat(32);
    expect(codeFromCallback(`cairn://auth/callback?code=c1&state=${state}`, state)).toBe('c1');
    expect(codeFromCallback(`http://127.0.0.1:5555/callback?code=c1&state=${state}`, state)).toBe('c1');
    expect(codeFromCallback(`cairn://auth/callback?code=c1&state=${'b'.repeat(32)}`, state)).toBeNull();
    expect(codeFromCallback('cairn://auth/callback?code=c1', state)).toBeNull();
    expect(codeFromCallback(`cairn://auth/callback?state=${state}`, state)).toBeNull();
    expect(isAuthCallbackLink('cairn://auth/callback?code=1')).toBe(true);
    expect(isAuthCallbackLink('cairn://open?path=/dashboard')).toBe(false);
    expect(isAuthCallbackLink('https://auth/callback')).toBe(false);
  });

  it('falls back to the loopback redirect when cairn:// links do not reach the app', () => {
    expect(useLoopbackRedirect(true)).toBe(false);
    expect(useLoopbackRedirect(false)).toBe(true);
  });

  it("reads the session cookie from Set-Cookie in Electron's cookie shape", () => {
    const cookie = sessionCookieFrom(['other=1; Path=/', 'cairn.sid=s%3Aabc.def; Path=/; Expires=Wed, 23 Dec 2026 10:00:00 GMT; HttpOnly; SameSite=Lax'], 'cairn.sid');
    expect(cookie).toEqual({ name: 'cairn.sid', value: 's%3Aabc.def', path: '/', httpOnly: true, secure: false, sameSite: 'lax', expirationDate: Date.parse('Wed, 23 Dec 2026 10:00:00 GMT') / 1000 });
    expect(sessionCookieFrom(['cairn.sid=x; Max-Age=60; Secure; SameSite=None'], 'cairn.sid', 1_000_000)).toMatchObject({ secure: true, sameSite: 'no_restriction', expirationDate: 1060 });
    expect(sessionCookieFrom(['other=1'], 'cairn.sid')).toBeNull();
  });
});
