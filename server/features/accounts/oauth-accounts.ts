import type { Db } from '../../db/index';
import type { OAuthProvider } from '../../../shared/auth';
import { findOrCreateUserByEmail, findUserByEmail, findUserById, type User } from './users';

export interface ProviderIdentity {
  provider: OAuthProvider;
  providerUserId: string;
  email: string | null;
  emailVerified: boolean;
}

export class OAuthSignInError extends Error {
  constructor(readonly code: 'OAuthAccountNotLinked' | 'OAuthNoEmail' | 'OAuthEmailNotVerified') {
    super(code);
  }
}

/**
 * Resolves a provider identity to a Cairn account. A known provider account signs in its user. An
 * e-mail matching an existing account links to it only when the provider says the e-mail is verified,
 * otherwise anyone could claim an account by adding its e-mail, unverified, at a provider. New
 * accounts need a verified e-mail for the same reason.
 */
export async function signInWithProvider(db: Db, id: ProviderIdentity): Promise<User> {
  const linked = await db('oauth_accounts')
    .where({ provider: id.provider, provider_user_id: id.providerUserId })
    .first('user_id');
  if (linked) {
    const user = await findUserById(db, linked.user_id as number);
    if (user) return user;
  }
  if (!id.email) throw new OAuthSignInError('OAuthNoEmail');
  const email = id.email.toLowerCase();
  const existing = await findUserByEmail(db, email);
  if (existing && !id.emailVerified) throw new OAuthSignInError('OAuthAccountNotLinked');
  // Creating an account on an unverified address would let its real owner later sign in to an
  // account someone else controls through the provider.
  if (!existing && !id.emailVerified) throw new OAuthSignInError('OAuthEmailNotVerified');
  const user = existing ?? (await findOrCreateUserByEmail(db, email));
  await db('oauth_accounts')
    .insert({ user_id: user.id, provider: id.provider, provider_user_id: id.providerUserId, email, created_at: Date.now() })
    .onConflict(['provider', 'provider_user_id'])
    .ignore();
  return user;
}
