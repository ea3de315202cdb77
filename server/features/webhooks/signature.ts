import crypto from 'node:crypto';

/**
 * Blockfrost-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the auth token>,
 * one v1 per signing secret (during a rotation's overlap the new and the old one), so a receiver
 * checking any one of them accepts the delivery.
 */
export function signatureHeader(body: string | Buffer, authTokens: string | readonly string[], unixSeconds: number): string {
  const tokens = typeof authTokens === 'string' ? [authTokens] : authTokens;
  // The body as a second update rather than joined to the prefix: no copy of it (a Buffer is not encoded again).
  const v1 = tokens.map((token) => `,v1=${crypto.createHmac('sha256', token).update(`${unixSeconds}.`).update(body).digest('hex')}`);
  return `t=${unixSeconds}${v1.join('')}`;
}

/** The secrets that sign a delivery sent at `now`: the current one, and the replaced one during its overlap. */
export const liveSecrets = (w: { auth_token: string; previous_auth_token?: string | null; previous_auth_token_expires_at?: number | string | null }, now: number): string[] =>
  w.previous_auth_token && w.previous_auth_token_expires_at !== null && w.previous_auth_token_expires_at !== undefined && Number(w.previous_auth_token_expires_at) > now
    ? [w.auth_token, w.previous_auth_token]
    : [w.auth_token];
