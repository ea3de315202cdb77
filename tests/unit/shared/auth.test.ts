import { describe, expect, it } from 'vitest';
import { authErrorReason, emailSignInSchema } from '../../../shared/auth';
import { messages } from '../../../shared/messages';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('sign-in validation', () => {
  it('uses the spec texts', () => {
    expect(firstMessage(emailSignInSchema(false).safeParse({ email: '' }))).toBe(messages.signIn.emailEmpty);
    expect(firstMessage(emailSignInSchema(false).safeParse({}))).toBe(messages.signIn.emailEmpty);
    expect(firstMessage(emailSignInSchema(false).safeParse({ email: 'x@y' }))).toBe(messages.signIn.emailInvalid);
    expect(firstMessage(emailSignInSchema(true).safeParse({ email: 'a@b.co' }))).toBe(messages.signIn.captchaRequired);
    expect(firstMessage(emailSignInSchema(true).safeParse({ email: 'a@b.co', captchaToken: '' }))).toBe(messages.signIn.captchaRequired);
  });

  it('normalises the address and ignores the captcha when it is off', () => {
    expect(emailSignInSchema(false).parse({ email: ' A@B.Co ' })).toEqual({ email: 'a@b.co' });
  });

  it('explains known errors and falls back to the support text', () => {
    expect(authErrorReason('Verification')).toMatch(/no longer valid/);
    expect(authErrorReason('Whatever')).toBe('Error while signing in. Please contact our support.');
    expect(authErrorReason(null)).toBe(messages.signIn.genericError);
  });
});
