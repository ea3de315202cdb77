import type { Config } from '../../config';

/** Verifies an hCaptcha response token on the server. Network failures count as not verified. */
export async function verifyCaptcha(
  captcha: NonNullable<Config['captcha']>,
  token: string,
  remoteIp: string | undefined,
): Promise<boolean> {
  const form = new URLSearchParams({ secret: captcha.secret, response: token, sitekey: captcha.siteKey });
  if (remoteIp) form.set('remoteip', remoteIp);
  try {
    const res = await fetch(captcha.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) return false;
    const body = (await res.json()) as { success?: unknown };
    return body.success === true;
  } catch {
    return false;
  }
}
