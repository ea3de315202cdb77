import { Passport } from 'passport';
import { Strategy as GitHubStrategy } from 'passport-github2';
import { Strategy as GoogleStrategy } from 'passport-google-oauth20';
// passport-gitlab2 ships no types; its Strategy has the same shape as the other passport-oauth2 strategies.
// @ts-expect-error no type declarations for passport-gitlab2
import { Strategy as GitLabStrategy } from 'passport-gitlab2';
import type { Config } from '../../config';
import type { Db } from '../../db/index';
import { findUserById } from './users';
import { signInWithProvider, type ProviderIdentity } from './oauth-accounts';
import type { OAuthProvider } from '../../../shared/auth';

interface Profile {
  id: string;
  emails?: Array<{ value: string; verified?: boolean | string; primary?: boolean }>;
  _json?: Record<string, unknown>;
}

type Done = (err: unknown, user?: Express.User | false) => void;

const verifier =
  (db: Db, provider: OAuthProvider, identify: (p: Profile) => Pick<ProviderIdentity, 'email' | 'emailVerified'>) =>
  (_accessToken: string, _refreshToken: string, profile: Profile, done: Done) => {
    signInWithProvider(db, { provider, providerUserId: String(profile.id), ...identify(profile) })
      .then((user) => done(null, user))
      .catch(done);
  };

/** GitHub lists every address with its verified flag (allRawEmails); we use the primary one. */
export const githubIdentity = (p: Profile) => {
  const primary = p.emails?.find((e) => e.primary) ?? p.emails?.[0];
  return { email: primary?.value ?? null, emailVerified: primary?.verified === true };
};

export const googleIdentity = (p: Profile) => {
  const e = p.emails?.[0];
  return { email: e?.value ?? null, emailVerified: e?.verified === true || e?.verified === 'true' };
};

/** GitLab's user API reports confirmed_at once the primary e-mail has been confirmed. */
export const gitlabIdentity = (p: Profile) => ({
  email: p.emails?.[0]?.value ?? null,
  emailVerified: Boolean(p._json?.confirmed_at),
});

export const providerScopes: Record<OAuthProvider, string[]> = {
  github: ['read:user', 'user:email'],
  google: ['profile', 'email'],
  gitlab: ['read_user'],
};

/** A passport instance per app (not the global one), with a strategy for each configured provider. */
export function createPassport(config: Config, db: Db): { passport: InstanceType<typeof Passport>; enabled: Set<OAuthProvider> } {
  const passport = new Passport();
  const enabled = new Set<OAuthProvider>();
  const callbackURL = (p: OAuthProvider) => `${config.publicUrl}/auth/callback/${p}`;

  passport.serializeUser((user, done) => done(null, (user as { id: number }).id));
  passport.deserializeUser((id: number, done) => {
    findUserById(db, id)
      .then((user) => done(null, user ?? false))
      .catch(done);
  });

  if (config.github) {
    const g = config.github;
    passport.use(
      'github',
      new GitHubStrategy(
        {
          clientID: g.clientId,
          clientSecret: g.clientSecret,
          callbackURL: callbackURL('github'),
          authorizationURL: g.authorizationUrl,
          tokenURL: g.tokenUrl,
          userProfileURL: `${g.apiUrl}/user`,
          userEmailURL: `${g.apiUrl}/user/emails`,
          scope: providerScopes.github,
          allRawEmails: true,
          state: true,
        } as unknown as ConstructorParameters<typeof GitHubStrategy>[0],
        verifier(db, 'github', githubIdentity) as never,
      ),
    );
    enabled.add('github');
  }
  if (config.google) {
    passport.use(
      'google',
      new GoogleStrategy(
        {
          clientID: config.google.clientId,
          clientSecret: config.google.clientSecret,
          callbackURL: callbackURL('google'),
          scope: providerScopes.google,
          state: true,
        },
        verifier(db, 'google', googleIdentity) as never,
      ),
    );
    enabled.add('google');
  }
  if (config.gitlab) {
    passport.use(
      'gitlab',
      new GitLabStrategy(
        {
          clientID: config.gitlab.clientId,
          clientSecret: config.gitlab.clientSecret,
          callbackURL: callbackURL('gitlab'),
          baseURL: `${config.gitlab.baseUrl}/`,
          scope: providerScopes.gitlab,
          state: true,
        },
        verifier(db, 'gitlab', gitlabIdentity),
      ),
    );
    enabled.add('gitlab');
  }
  return { passport, enabled };
}
