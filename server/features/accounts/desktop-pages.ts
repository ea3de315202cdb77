// The server-rendered pages of the desktop app's sign-in, as HTML (desktop-routes.ts sends them): the consent
// page that names what is signing in and waits for the user's click, and the short pages around it.
import { APP_ICON, APP_ICON_LINK } from '../../../shared/site';
import { DESKTOP_CALLBACK_URI } from '../../../shared/desktop-auth';

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;line-height:1.5;color:#212529;background:#f8f9fa}
main{max-width:34rem;margin:3rem auto;padding:0 1rem}
.card{background:#fff;border:1px solid #dee2e6;border-radius:.5rem;padding:1.5rem}
.brand{display:flex;align-items:center;gap:.75rem;margin-bottom:1rem}
.brand img{flex:none}
h1{font-size:1.5rem;line-height:1.25;margin:0}
dl{margin:1rem 0;display:grid;grid-template-columns:max-content 1fr;gap:.5rem 1rem}
dt{font-weight:600;color:#495057}
dd{margin:0;overflow-wrap:anywhere}
dd small{display:block;color:#6c757d}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em;background:#f1f3f5;padding:0 .25rem;border-radius:.25rem}
.warn{background:#fff9db;border:1px solid #ffe066;border-radius:.375rem;padding:.75rem 1rem;margin:1rem 0}
.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.25rem}
button{font:inherit;font-weight:600;border-radius:.375rem;padding:.6rem 1.1rem;cursor:pointer;border:1px solid #ced4da;background:#fff;color:#212529}
button.primary{background:#4263eb;border-color:#4263eb;color:#fff}
button:focus-visible{outline:3px solid #91a7ff;outline-offset:2px}
@media (max-width:30rem){main{margin:1rem auto}.card{padding:1rem}h1{font-size:1.25rem}dl{gap:.375rem .75rem}.warn{padding:.5rem .75rem}.actions{flex-direction:column}button{width:100%}}
`;

/** One page of the flow; `refreshTo` sends the browser on by itself (the cairn:// return page). */
export function pageHtml(title: string, body: string, refreshTo?: string): string {
  const refresh = refreshTo ? `<meta http-equiv="refresh" content="0;url=${escapeHtml(refreshTo)}">` : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)} · Cairn</title>${APP_ICON_LINK}${refresh}<style>${STYLE}</style></head>` +
    `<body><main><div class="card"><div class="brand"><img src="${APP_ICON}" alt="Cairn" width="40" height="40">` +
    `<h1>${escapeHtml(title)}</h1></div>${body}</div></main></body></html>`
  );
}

/** "Chrome on Linux" from a User-Agent header; good enough to tell one's own browser from another. */
export function describeBrowser(userAgent: string | null | undefined): string {
  const ua = userAgent ?? '';
  const os = /Windows NT/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad|iPod/.test(ua)
        ? 'iOS'
        : /Macintosh|Mac OS X/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : null;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chromium\//.test(ua)
          ? 'Chromium'
          : /Chrome\//.test(ua)
            ? 'Chrome'
            : /Safari\//.test(ua)
              ? 'Safari'
              : null;
  if (!browser && !os) return 'An unknown browser';
  return `${browser ?? 'A browser'}${os ? ` on ${os}` : ''}`;
}

/** Where the code will go, in words: the cairn:// handler or a program on a loopback port. */
export function describeRedirect(redirectUri: string): { target: string; note: string } {
  if (redirectUri === DESKTOP_CALLBACK_URI) {
    return { target: redirectUri, note: 'The app registered for cairn:// links on this computer.' };
  }
  const port = new URL(redirectUri).port;
  return { target: redirectUri, note: `Whatever program listens on port ${port} of this computer.` };
}

export interface ConsentView {
  email: string;
  deviceName: string | null;
  userAgent: string | null;
  redirectUri: string;
  csrfToken: string;
  /** Names the sign-in this page was shown for; the POST must name the same one. */
  signIn: string;
  action: string;
}

export const CONSENT_TITLE = 'Sign in to the Cairn desktop app?';

/**
 * The consent form's answer is a redirect to the app's loopback port, and browsers hold a form's redirects to
 * the page's CSP form-action ('self'): this page, and only this one, may also send its form on to the origin it
 * names as the place the code goes.
 */
export function consentPageCsp(csp: string, redirectUri: string): string {
  if (redirectUri === DESKTOP_CALLBACK_URI) return csp; // answered by a page of ours, not a redirect
  const origin = new URL(redirectUri).origin;
  return csp.replace(/(^|;)\s*form-action ([^;]*)/, (_m, lead: string, sources: string) => `${lead}form-action ${sources} ${origin}`);
}

export function consentPageHtml(view: ConsentView): string {
  const { target, note } = describeRedirect(view.redirectUri);
  const device = view.deviceName
    ? `${escapeHtml(view.deviceName)}<small>As the app names this computer.</small>`
    : 'Not named by the app';
  return pageHtml(
    CONSENT_TITLE,
    `<p>You are signed in as <strong>${escapeHtml(view.email)}</strong>. An app asks to sign in to this account.</p>` +
      `<dl>` +
      `<dt>App</dt><dd>Cairn desktop app</dd>` +
      `<dt>Device</dt><dd>${device}</dd>` +
      `<dt>Started in</dt><dd>${escapeHtml(describeBrowser(view.userAgent))}</dd>` +
      `<dt>Returns to</dt><dd><code>${escapeHtml(target)}</code><small>${escapeHtml(note)}</small></dd>` +
      `</dl>` +
      `<p class="warn">Continue only if you just started signing in from the Cairn desktop app on this computer. ` +
      `If a web page or a link brought you here, cancel: whatever receives the sign-in gets access to your account.</p>` +
      `<form method="post" action="${escapeHtml(view.action)}">` +
      `<input type="hidden" name="csrf_token" value="${escapeHtml(view.csrfToken)}">` +
      `<input type="hidden" name="sign_in" value="${escapeHtml(view.signIn)}">` +
      `<div class="actions"><button class="primary" type="submit" name="decision" value="approve">Sign in to the desktop app</button>` +
      `<button type="submit" name="decision" value="cancel">Cancel</button></div>` +
      `</form>`,
  );
}
