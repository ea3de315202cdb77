import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, proxyTrust } from '../../../server/config';

const fails = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('configuration', () => {
  it('runs on embedded defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      trustProxy: false,
      magicLinkTtlMs: 15 * 60 * 1000,
      captcha: null,
      github: null,
      google: null,
      gitlab: null,
      isProduction: false,
    });
    expect(c.mail.smtpUrl).toBeUndefined();
  });

  it('names the variable and the problem', () => {
    expect(fails({ PORT: 'abc' })).toBe('Invalid configuration: PORT must be a whole number between 1 and 65535 (got "abc")');
    expect(fails({ DATABASE_URL: 'nonsense' })).toMatch(/^Invalid configuration: DATABASE_URL must be a PostgreSQL URL/);
    expect(fails({ MAGIC_LINK_TTL_MINUTES: '-3' })).toMatch(/^Invalid configuration: MAGIC_LINK_TTL_MINUTES must be/);
    expect(fails({ SMTP_URL: 'mail.example' })).toMatch(/^Invalid configuration: SMTP_URL must be an smtp/);
    expect(fails({ TRUST_PROXY: 'maybe?' })).toMatch(/^Invalid configuration: TRUST_PROXY/);
    expect(fails({ HCAPTCHA_SITE_KEY: 'x' })).toMatch(/HCAPTCHA_SITE_KEY and HCAPTCHA_SECRET must be set together/);
  });

  it('never echoes secrets', () => {
    expect(fails({ DATABASE_URL: 'mysql://u:hunter2@h/db' })).not.toContain('hunter2');
    expect(fails({ SESSION_SECRET: 'hunter2' })).not.toContain('hunter2');
  });

  it('enables a provider only with both id and secret', () => {
    expect(loadConfig({ GITHUB_CLIENT_ID: 'id' }).github).toBeNull();
    expect(loadConfig({ GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 's' }).github).toMatchObject({ clientId: 'id', apiUrl: 'https://api.github.com' });
    expect(loadConfig({ GITLAB_CLIENT_ID: 'id', GITLAB_CLIENT_SECRET: 's', GITLAB_URL: 'https://git.example/' }).gitlab).toMatchObject({ baseUrl: 'https://git.example' });
  });

  it('parses TRUST_PROXY forms', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
    expect(fails({ TRUST_PROXY: '10.0.0.0/99' })).toMatch(/^Invalid configuration: TRUST_PROXY must be false, the number of proxies/);
  });

  it('refuses TRUST_PROXY=true, naming the variable and the forms it takes', () => {
    expect(fails({ TRUST_PROXY: 'true' })).toBe(
      'Invalid configuration: TRUST_PROXY must be false, the number of proxies in front of Cairn (e.g. 1), or their addresses/CIDRs (e.g. loopback or 10.0.0.0/8); true is refused because it believes every X-Forwarded-For entry, including what the client writes itself (got "true")',
    );
  });

  it('trusts hops, not the whole X-Forwarded-For header', () => {
    // hop 0 is the TCP peer, hop 1 the entry the first proxy appended, …
    const one = proxyTrust(1);
    expect([one('127.0.0.1', 0), one('203.0.113.9', 1)]).toEqual([true, false]);
    const listed = proxyTrust('loopback, 10.0.0.0/8');
    expect([listed('127.0.0.1', 0), listed('10.1.2.3', 1), listed('203.0.113.9', 2)]).toEqual([true, true, false]);
    expect(proxyTrust(false)('127.0.0.1', 0)).toBe(false);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' }).port).toBe(3000);
  });
});

describe('site configuration', () => {
  it('has honest defaults', () => {
    expect(loadConfig({}).site).toEqual({
      links: { status: '/status', blog: null, docs: '/docs', cookiePolicy: '/cookie-policy' },
      chatUrl: null,
      supportEmail: 'support@localhost',
      socialLinks: [],
      companyAddress: null,
      maintenance: { enabled: false, eta: null },
      gatewayUrl: 'http://localhost:3001',
      devMailbox: '/dev/mailbox',
    });
  });

  it('refuses malformed values', () => {
    expect(fails({ SOCIAL_LINKS: 'GitHub' })).toMatch(/^Invalid configuration: SOCIAL_LINKS must be a comma-separated list/);
    expect(fails({ MAINTENANCE_MODE: 'sometimes' })).toBe('Invalid configuration: MAINTENANCE_MODE must be true or false (got "sometimes")');
    expect(fails({ MAINTENANCE_ETA: 'soon' })).toMatch(/^Invalid configuration: MAINTENANCE_ETA must be a date and time/);
    expect(fails({ STATUS_URL: 'ftp://x' })).toMatch(/^Invalid configuration: STATUS_URL must be an http\(s\) URL/);
    expect(fails({ SUPPORT_EMAIL: 'nope' })).toMatch(/^Invalid configuration: SUPPORT_EMAIL must be an e-mail address/);
  });

  it('names the development mailbox to the sign-in pages only outside production and without SMTP', () => {
    expect(loadConfig({}).site.devMailbox).toBe('/dev/mailbox');
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example' }).site.devMailbox).toBeNull();
    expect(loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example' }).site.devMailbox).toBeNull();
  });

  it('gives the sandbox chains a worker that sweeps in production, one that only sums in development, none in tests; SANDBOX_SWEEP decides when set', () => {
    const prod = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example' };
    expect(loadConfig(prod).gateway.sandboxSweep).toBe('all');
    expect(loadConfig({}).gateway.sandboxSweep).toBe('sums');
    expect(loadConfig({ NODE_ENV: 'test' }).gateway.sandboxSweep).toBe('off');
    expect(loadConfig({ ...prod, SANDBOX_SWEEP: 'false' }).gateway.sandboxSweep).toBe('off');
    expect(loadConfig({ SANDBOX_SWEEP: 'false' }).gateway.sandboxSweep).toBe('off');
    expect(loadConfig({ NODE_ENV: 'test', SANDBOX_SWEEP: 'true' }).gateway.sandboxSweep).toBe('all');
    expect(loadConfig({ SANDBOX_SWEEP: '' }).gateway.sandboxSweep).toBe('sums');
  });

  it('chooses billing: local test billing by default, none in production, Stripe with its key pair', () => {
    expect(loadConfig({}).billing).toEqual({ provider: 'local', stripe: null });
    expect(loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example' }).billing.provider).toBe('none');
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).billing).toEqual({ provider: 'stripe', stripe: { secretKey: 'sk_x', webhookSecret: 'whsec_x', apiUrl: null } });
    expect(fails({ STRIPE_SECRET_KEY: 'sk_x' })).toBe('Invalid configuration: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together');
    expect(fails({ BILLING_PROVIDER: 'stripe' })).toMatch(/BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY/);
    expect(fails({ BILLING_PROVIDER: 'local', NODE_ENV: 'production' })).toMatch(/BILLING_PROVIDER=local is test billing/);
    expect(fails({ BILLING_PROVIDER: 'paypal' })).toBe('Invalid configuration: BILLING_PROVIDER must be stripe, local or none (got "paypal")');
    expect(loadConfig({ BILLING_PROVIDER: 'none' }).billing.provider).toBe('none');
  });

  it('reads OPERATOR_EMAILS as lower-cased addresses', () => {
    expect(loadConfig({ OPERATOR_EMAILS: ' Ops@Example.com , root@cairn.example ' }).operatorEmails).toEqual(['ops@example.com', 'root@cairn.example']);
    expect(loadConfig({}).operatorEmails).toEqual([]);
    expect(fails({ OPERATOR_EMAILS: 'ops@example.com,not-an-email' })).toMatch(/^Invalid configuration: OPERATOR_EMAILS must be a comma-separated list of e-mail addresses/);
  });
});
