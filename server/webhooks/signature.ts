import crypto from 'node:crypto';

/** Blockfrost-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the auth token>. */
export function signatureHeader(body: string, authToken: string, unixSeconds: number): string {
  const v1 = crypto.createHmac('sha256', authToken).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}
