import crypto from 'node:crypto';
import type { Db } from '../../db/index';
import { DAY_MS } from '../../../shared/time';

const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** Creates a single-use sign-in token bound to the e-mail. Only its hash is stored. */
export async function createMagicLinkToken(db: Db, email: string, ttlMs: number, now = Date.now()): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await db('magic_link_tokens').insert({
    token_hash: hash(token),
    email: email.toLowerCase(),
    expires_at: now + ttlMs,
    created_at: now,
  });
  // Expired tokens are of no use to anyone; drop them while we are here.
  await db('magic_link_tokens').where('expires_at', '<', now - DAY_MS).delete();
  return token;
}

/**
 * Spends a token: one atomic UPDATE that succeeds only for an unused, unexpired token of this e-mail,
 * so two concurrent clicks cannot both sign in.
 */
export async function consumeMagicLinkToken(db: Db, token: string, email: string, now = Date.now()): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const updated = await db('magic_link_tokens')
    .where({ token_hash: hash(token), email: email.toLowerCase() })
    .whereNull('used_at')
    .andWhere('expires_at', '>', now)
    .update({ used_at: now });
  return updated === 1;
}
