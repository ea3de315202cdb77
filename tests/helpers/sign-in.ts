import { expect } from 'vitest';
import type { Mailer } from '../../server/mail/mailer';
import { Client, linkIn } from './http-client';

/** Signs a client in the way a person does: asks for a magic link, reads the mail, opens the link. */
export async function signIn(client: Client, mailer: Mailer, email: string): Promise<void> {
  const before = mailer.captured().length;
  const res = await client.post('/auth/signin/email', { email, callbackUrl: '/dashboard' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const mail = mailer.captured()[0]!;
  expect(mailer.captured().length).toBe(before + 1);
  const link = new URL(linkIn(mail.text));
  const cb = await client.get(link.pathname + link.search);
  expect(cb.status).toBe(302);
  expect(cb.headers.get('location')).toBe('/dashboard');
  // Sign-in regenerates the session, and with it the CSRF token.
  client.csrfToken = null;
}
