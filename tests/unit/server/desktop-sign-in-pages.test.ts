import { describe, expect, it } from 'vitest';
import { consentPageCsp, consentPageHtml, describeBrowser, describeRedirect } from '../../../server/features/accounts/desktop-pages';
import { APP_ICON_LINK } from '../../../shared/site';

describe('the desktop sign-in consent page in words', () => {
  it('names the browser and OS the sign-in started in', () => {
    expect(describeBrowser('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('Chrome on Windows');
    expect(describeBrowser('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15')).toBe('Safari on macOS');
    expect(describeBrowser('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox on Linux');
    expect(describeBrowser('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toBe('Edge on Windows');
    expect(describeBrowser('curl/8.5.0')).toBe('An unknown browser');
    expect(describeBrowser(null)).toBe('An unknown browser');
  });

  it('says where the code goes: the cairn:// handler or whatever listens on the loopback port', () => {
    expect(describeRedirect('cairn://auth/callback').note).toContain('cairn:// links');
    expect(describeRedirect('http://127.0.0.1:49731/callback')).toEqual({
      target: 'http://127.0.0.1:49731/callback',
      note: 'Whatever program listens on port 49731 of this computer.',
    });
  });
});

describe('the consent page', () => {
  const view = {
    email: 'o\'hara+<x>@example.com',
    deviceName: null,
    userAgent: null,
    redirectUri: 'http://127.0.0.1:49731/callback',
    csrfToken: 'tok"en',
    signIn: 'a'.repeat(64),
    action: '/auth/desktop/finish',
  };

  it('escapes what it shows and posts the token and the sign-in it names', () => {
    const html = consentPageHtml(view);
    expect(html).toContain('o&#39;hara+&lt;x&gt;@example.com');
    expect(html).toContain('<input type="hidden" name="csrf_token" value="tok&quot;en">');
    expect(html).toContain(`<input type="hidden" name="sign_in" value="${'a'.repeat(64)}">`);
    expect(html).toContain('<form method="post" action="/auth/desktop/finish">');
    expect(html).toContain('Not named by the app');
    expect(html).toContain(APP_ICON_LINK);
  });

  it("lets its form redirect to the loopback origin it names, and nowhere else", () => {
    const csp = "default-src 'self';form-action 'self';frame-ancestors 'self'";
    expect(consentPageCsp(csp, view.redirectUri)).toBe("default-src 'self';form-action 'self' http://127.0.0.1:49731;frame-ancestors 'self'");
    expect(consentPageCsp(csp, 'cairn://auth/callback')).toBe(csp);
  });
});
