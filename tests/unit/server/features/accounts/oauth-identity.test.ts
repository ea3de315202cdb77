import { describe, expect, it } from 'vitest';
import { githubIdentity, gitlabIdentity, googleIdentity } from '../../../../../server/features/accounts/strategies';

describe('provider identities', () => {
  it('GitHub: the primary address and its verified flag', () => {
    expect(
      githubIdentity({ id: '1', emails: [{ value: 'a@x.io', primary: false, verified: true }, { value: 'b@x.io', primary: true, verified: false }] }),
    ).toEqual({ email: 'b@x.io', emailVerified: false });
    expect(githubIdentity({ id: '1' })).toEqual({ email: null, emailVerified: false });
  });

  it('Google: email_verified', () => {
    expect(googleIdentity({ id: '1', emails: [{ value: 'a@x.io', verified: true }] })).toEqual({ email: 'a@x.io', emailVerified: true });
    expect(googleIdentity({ id: '1', emails: [{ value: 'a@x.io', verified: false }] }).emailVerified).toBe(false);
  });

  it('GitLab: confirmed_at', () => {
    expect(gitlabIdentity({ id: '1', emails: [{ value: 'a@x.io' }], _json: { confirmed_at: '2024-01-01' } }).emailVerified).toBe(true);
    expect(gitlabIdentity({ id: '1', emails: [{ value: 'a@x.io' }], _json: { confirmed_at: null } }).emailVerified).toBe(false);
  });
});
