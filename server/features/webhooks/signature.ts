import crypto from 'node:crypto';

/** Blockfrost-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the auth token>. */
export function signatureHeader(body: string | Buffer, authToken: string, unixSeconds: number): string {
  // The body as a second update rather than joined to the prefix: no copy of it (a Buffer is not encoded again).
  const v1 = crypto.createHmac('sha256', authToken).update(`${unixSeconds}.`).update(body).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}
