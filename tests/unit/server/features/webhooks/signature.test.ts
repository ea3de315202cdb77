import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { liveSecrets, signatureHeader } from '../../../../../server/features/webhooks/signature';

const hmac = (secret: string, t: number, body: string) => crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

describe('signatureHeader', () => {
  const body = '{"id":"e1","type":"block"}';

  it('signs with one secret: t=…,v1=…', () => {
    expect(signatureHeader(body, 'secret-a', 1700000000)).toBe(`t=1700000000,v1=${hmac('secret-a', 1700000000, body)}`);
  });

  it('carries one v1 per secret, in order, over the same timestamp and bytes', () => {
    expect(signatureHeader(Buffer.from(body), ['secret-a', 'secret-b'], 1700000001)).toBe(
      `t=1700000001,v1=${hmac('secret-a', 1700000001, body)},v1=${hmac('secret-b', 1700000001, body)}`,
    );
  });
});

describe('liveSecrets', () => {
  const w = { auth_token: 'new', previous_auth_token: 'old', previous_auth_token_expires_at: 2000 };

  it('includes the replaced secret until its overlap ends, and not from that moment', () => {
    expect(liveSecrets(w, 1999)).toEqual(['new', 'old']);
    expect(liveSecrets(w, 2000)).toEqual(['new']);
  });

  it('is the current secret alone without a rotation', () => {
    expect(liveSecrets({ auth_token: 'only', previous_auth_token: null, previous_auth_token_expires_at: null }, 0)).toEqual(['only']);
    expect(liveSecrets({ auth_token: 'only' }, 0)).toEqual(['only']);
  });
});
