import { describe, expect, it } from 'vitest';
import {
  bannersFor,
  checkoutBuyerSchema,
  checkoutSchema,
  excessFor,
  nearlyExhausted,
  nextStatus,
  normalizeTaxId,
  sellablePrices,
  taxIdTypeFor,
} from '../../../shared/billing';
import { plans } from '../../../shared/plans';
import { messages } from '../../../shared/messages';

describe('the subscription state machine', () => {
  it('moves a first payment, renewals and an unpaid invoice the way Stripe does', () => {
    expect(nextStatus('active', 'first_payment_failed')).toBe('incomplete');
    expect(nextStatus('incomplete', 'incomplete_timeout')).toBe('incomplete_expired');
    expect(nextStatus('incomplete_expired', 'first_payment_paid')).toBe('active');
    expect(nextStatus('active', 'renewal_failed')).toBe('past_due');
    expect(nextStatus('past_due', 'renewal_failed')).toBe('unpaid');
    expect(nextStatus('unpaid', 'invoice_paid')).toBe('active');
    expect(nextStatus('active', 'canceled')).toBe('canceled');
  });
  it('refuses events that do not apply', () => {
    expect(nextStatus('active', 'incomplete_timeout')).toBeNull();
    expect(nextStatus('canceled', 'renewal_paid')).toBeNull();
    expect(nextStatus('incomplete', 'renewal_failed')).toBeNull();
  });
});

describe('tax ids per country', () => {
  it.each([
    ['DE', 'DE 123 456 789', 'eu_vat'],
    ['GR', 'EL123456789', 'eu_vat'],
    ['NL', 'nl123456789b01', 'eu_vat'],
    ['US', '12-3456789', 'us_ein'],
    ['GB', 'GB123456789', 'gb_vat'],
    ['AU', '12345678912', 'au_abn'],
    ['CA', '123456789RT0002', 'ca_gst_hst'],
    ['CH', 'CHE-123.456.789 MWST', 'ch_vat'],
    ['IN', '12ABCDE3456FGZH', 'in_gst'],
    ['JP', '1234567891234', 'jp_cn'],
  ])('%s accepts %s as %s', (country, value, type) => {
    const t = taxIdTypeFor(country)!;
    expect(t.type).toBe(type);
    expect(t.pattern.test(normalizeTaxId(value))).toBe(true);
  });
  it.each([
    ['DE', 'DE12'],
    ['DE', 'FR123456789'],
    ['US', '123'],
    ['GB', 'GB12'],
  ])('%s refuses %s', (country, value) => expect(taxIdTypeFor(country)!.pattern.test(normalizeTaxId(value))).toBe(false));
  it('has none for a country without one here', () => expect(taxIdTypeFor('AQ')).toBeNull());
  it('checkout refuses a tax id of the wrong shape and one for a country without tax ids', () => {
    expect(checkoutSchema.safeParse({ priceId: 'p', country: 'DE', taxId: 'DE12' }).success).toBe(false);
    expect(checkoutSchema.safeParse({ priceId: 'p', country: 'AQ', taxId: '123' }).success).toBe(false);
    expect(checkoutSchema.safeParse({ priceId: 'p', country: 'ZZ' }).success).toBe(false);
    expect(checkoutSchema.safeParse({ priceId: 'p', country: 'DE', taxId: 'DE123456789' }).success).toBe(true);
  });

  it('are the same rules, with the same words, in the checkout form as in the server', () => {
    const messagesOf = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
      r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    for (const buyer of [{ country: 'DE', taxId: 'DE12' }, { country: 'AQ', taxId: '123' }, { country: 'ZZ' }, { country: 'DE', taxId: 'DE123456789' }]) {
      expect(messagesOf(checkoutBuyerSchema.safeParse(buyer)), JSON.stringify(buyer)).toEqual(messagesOf(checkoutSchema.safeParse({ priceId: 'p', ...buyer })));
    }
    expect(messagesOf(checkoutBuyerSchema.safeParse({ country: 'DE', taxId: 'DE12' }))).toEqual(['taxId: The tax id does not look like a eu_vat (for example DE123456789).']);
  });

  it('take an empty country choice as no country', () => {
    expect(checkoutBuyerSchema.parse({ country: '', taxId: '' })).toEqual({ country: undefined, taxId: '' });
    expect(checkoutSchema.parse({ priceId: 'p', country: '' }).country).toBeUndefined();
    expect(checkoutBuyerSchema.safeParse({ country: '', taxId: 'DE123456789' }).success).toBe(false);
  });
});

describe('checkout callback paths', () => {
  it('accepts same-origin relative paths only, with defaults', () => {
    expect(checkoutSchema.parse({ priceId: 'p' })).toMatchObject({ mode: 'subscription', successCallbackPath: '/dashboard/subscription', cancelCallbackPath: '/dashboard/subscription/plans/fixed' });
    expect(checkoutSchema.parse({ priceId: 'p', successCallbackPath: '/dashboard?x=1' }).successCallbackPath).toBe('/dashboard?x=1');
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', 'dashboard', 'javascript:alert(1)']) {
      expect(checkoutSchema.safeParse({ priceId: 'p', successCallbackPath: bad }).success, bad).toBe(false);
      expect(checkoutSchema.safeParse({ priceId: 'p', cancelCallbackPath: bad }).success, bad).toBe(false);
    }
  });
});

describe('plan-change rule and quota warning', () => {
  it('names what must go, with the spec words', () => {
    expect(excessFor(plans.HOBBY, { projects: 3, webhooks: 3, workspaces: 1 })).toBeNull();
    const e = excessFor(plans.STARTER, { projects: 3, webhooks: 2, workspaces: 2 })!;
    expect(messages.billing.removeToMatch(e.projects, e.webhooks, e.workspaces, 'STARTER')).toBe('Please remove 2 projects, 1 webhook and 1 workspace to match the STARTER plan');
    expect(messages.billing.removeToMatch(2, 0, 1, 'HOBBY')).toBe('Please remove 2 projects and 1 workspace to match the HOBBY plan');
    expect(messages.billing.removeToMatch(0, 3, 0, 'HOBBY')).toBe('Please remove 3 webhooks to match the HOBBY plan');
    expect(messages.billing.removeToMatch(1, 0, 0, 'STARTER')).toBe('Please remove 1 project to match the STARTER plan');
  });
  it('warns at 80 % of any part of the quota', () => {
    const q = (used: Partial<Record<'projectCount' | 'webhookCount' | 'requests' | 'storage', number>>) => ({
      quota: { projectCount: 10, webhookCount: 10, requestLimit: 1000, storageLimit: 1000 },
      used: { subscription: { projectCount: 0, webhookCount: 0, requests: 0, storage: 0, ...used } },
    });
    expect(nearlyExhausted(q({ projectCount: 7, requests: 799 }))).toEqual([]);
    expect(nearlyExhausted(q({ projectCount: 8, requests: 800, storage: 999 }))).toEqual(['Projects', 'Requests today', 'Storage']);
  });
  it('does not warn for a count the plan allows exactly one of, but still for requests and storage', () => {
    const starter = { quota: { projectCount: 1, webhookCount: 1, requestLimit: 1000, storageLimit: 1000 }, used: { subscription: { projectCount: 1, webhookCount: 1, requests: 0, storage: 0 } } };
    expect(nearlyExhausted(starter)).toEqual([]);
    expect(nearlyExhausted({ ...starter, used: { subscription: { projectCount: 1, webhookCount: 1, requests: 900, storage: 850 } } })).toEqual(['Requests today', 'Storage']);
    expect(nearlyExhausted({ ...starter, quota: { ...starter.quota, requestLimit: 1, storageLimit: 1 }, used: { subscription: { projectCount: 1, webhookCount: 1, requests: 1, storage: 1 } } })).toEqual(['Requests today', 'Storage']);
  });
  it('sells HOBBY and DEVELOPER by month and year and both boosts, in cents', () => {
    const prices = sellablePrices();
    expect(prices.map((p) => [p.lookupKey, p.amount])).toEqual([
      ['cairn_hobby_month', 2900],
      ['cairn_hobby_year', 29900],
      ['cairn_developer_month', 7900],
      ['cairn_developer_year', 79900],
      ['cairn_requests_boost_300k', 1900],
      ['cairn_requests_boost_1m', 4900],
    ]);
  });
});

describe('warning banners', () => {
  const quota = (projects: number) => ({
    quota: { projectCount: 3, webhookCount: 3, requestLimit: 1000, storageLimit: 1000 },
    used: { subscription: { projectCount: projects, webhookCount: 0, requests: 0, storage: 0 } },
  });
  it('shows the failed initial payment, the unpaid invoice of the user or of the owner, and the quota', () => {
    expect(bannersFor(true, quota(0), { status: 'active', delinquent: false })).toEqual([]);
    expect(bannersFor(true, quota(3), { status: 'incomplete', delinquent: false })).toEqual(['initial-payment', 'quota']);
    expect(bannersFor(true, quota(0), { status: 'past_due', delinquent: true })).toEqual(['unpaid-own']);
    expect(bannersFor(false, quota(0), { status: 'unpaid', delinquent: false })).toEqual(['unpaid-owner']);
    expect(bannersFor(false, quota(0), { status: 'incomplete_expired', delinquent: false })).toEqual(['initial-payment']);
  });
});
