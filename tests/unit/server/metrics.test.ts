import { describe, expect, it } from 'vitest';
import { isLoopback, Metrics, metricsAccess } from '../../../server/metrics';
import { parseMetrics } from '../../helpers/metrics-text';

describe('isLoopback', () => {
  it('knows IPv4 and IPv6 loopback, also IPv4-mapped', () => {
    for (const a of ['127.0.0.1', '127.0.0.2', '127.255.1.9', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', '128.0.0.1', '1127.0.0.1', '::2', '', undefined]) expect(isLoopback(a), String(a)).toBe(false);
  });
});

describe('metricsAccess', () => {
  const token = 'a-token-of-sixteen-or-more';
  it('lets a loopback client in without a token', () => {
    expect(metricsAccess('127.0.0.1', undefined, undefined)).toBe(200);
    expect(metricsAccess('::1', undefined, token)).toBe(200);
  });
  it('refuses another address: 403 without METRICS_TOKEN, 401 (ask for the token) with it', () => {
    expect(metricsAccess('10.1.2.3', undefined, undefined)).toBe(403);
    expect(metricsAccess('10.1.2.3', undefined, token)).toBe(401);
  });
  it('lets the right bearer token in from anywhere, and refuses a wrong one even from loopback', () => {
    expect(metricsAccess('10.1.2.3', `Bearer ${token}`, token)).toBe(200);
    expect(metricsAccess('10.1.2.3', `bearer   ${token} `, token)).toBe(200);
    expect(metricsAccess('10.1.2.3', `Bearer ${token}x`, token)).toBe(401);
    expect(metricsAccess('10.1.2.3', `Bearer ${token.slice(0, -1)}`, token)).toBe(401);
    expect(metricsAccess('127.0.0.1', 'Bearer nope', token)).toBe(401);
    expect(metricsAccess('10.1.2.3', `Basic ${token}`, token)).toBe(401);
    expect(metricsAccess('10.1.2.3', `Bearer ${token}`, undefined)).toBe(401);
  });
});

describe('Metrics', () => {
  it('counts gateway answers in bound slots and writes histograms Prometheus reads', async () => {
    const m = new Metrics('gateway');
    const g = m.gateway(new Map([['cardano-mainnet', 'sandbox']]), ['cardano-mainnet']);
    const slot = g.slot('cardano-mainnet', true);
    slot.byClass[1]!.inc();
    slot.byClass[1]!.inc();
    slot.latency.observe(0.003);
    slot.latency.observe(20);
    g.slot(undefined, false).byClass[3]!.inc();
    g.refusals.rate_limited.inc();
    const p = parseMetrics(await m.text());
    expect(p.families.get('cairn_gateway_requests_total')).toBe('counter');
    expect(p.families.get('cairn_gateway_request_duration_seconds')).toBe('histogram');
    expect(p.sum('cairn_gateway_requests_total', { network: 'cardano-mainnet', status_class: '2xx', backend: 'sandbox', role: 'gateway' })).toBe(2);
    expect(p.sum('cairn_gateway_requests_total', { network: 'unknown', status_class: '4xx', backend: 'gateway' })).toBe(1);
    expect(p.sum('cairn_gateway_limiter_refusals_total', { reason: 'rate_limited' })).toBe(1);
    const bucket = (le: string) => p.sum('cairn_gateway_request_duration_seconds_bucket', { backend: 'sandbox', le });
    expect(bucket('0.0025')).toBe(0);
    expect(bucket('0.005')).toBe(1);
    expect(bucket('10')).toBe(1);
    expect(bucket('30')).toBe(2);
    expect(bucket('+Inf')).toBe(2);
    expect(p.sum('cairn_gateway_request_duration_seconds_count', { backend: 'sandbox' })).toBe(2);
    expect(p.sum('cairn_gateway_request_duration_seconds_sum', { backend: 'sandbox' })).toBeCloseTo(20.003);
    // Process series carry the process's role.
    expect(p.find('process_resident_memory_bytes', { role: 'gateway' })).toHaveLength(1);
  });

  it('lists a histogram series once it has an observation, and every counter series from the start', async () => {
    const m = new Metrics('gateway');
    const g = m.gateway(new Map([['cardano-mainnet', 'sandbox'], ['cardano-preprod', 'sandbox']]), ['cardano-mainnet', 'cardano-preprod']);
    let p = parseMetrics(await m.text());
    expect(p.find('cairn_gateway_request_duration_seconds_count')).toHaveLength(0);
    expect(p.find('cairn_gateway_requests_total', { network: 'cardano-preprod', status_class: '2xx', backend: 'sandbox' })).toHaveLength(1);
    g.slot('cardano-preprod', true).latency.observe(0.01);
    p = parseMetrics(await m.text());
    expect(p.find('cairn_gateway_request_duration_seconds_count').map((s) => s.labels.network)).toEqual(['cardano-preprod']);
    expect(p.find('cairn_gateway_request_duration_seconds_bucket', { network: 'cardano-preprod' })).toHaveLength(15);
  });

  it('reads a database gauge at most once per interval, keeping the last value when a read fails', async () => {
    const m = new Metrics('worker');
    let reads = 0;
    let fail = false;
    m.outboxDepth(async () => {
      reads++;
      if (fail) throw new Error('database is down');
      return 7;
    });
    expect(parseMetrics(await m.text()).sum('cairn_webhook_outbox_pending_events', { role: 'worker' })).toBe(7);
    await m.text();
    expect(reads).toBe(1);
    fail = true;
    expect(parseMetrics(await m.text()).sum('cairn_webhook_outbox_pending_events')).toBe(7);
  });

  it('answers a scrape with the last value while a database read hangs', async () => {
    const m = new Metrics('worker');
    let release: (n: number) => void = () => undefined;
    m.outboxDepth(() => new Promise<number>((resolve) => (release = resolve)));
    const started = performance.now();
    // The first read hangs: the scrape still answers (within the wait), without the gauge's value.
    expect(parseMetrics(await m.text()).find('cairn_webhook_outbox_pending_events')).toHaveLength(0);
    expect(performance.now() - started).toBeLessThan(5000);
    release(3);
    await new Promise((r) => setImmediate(r));
    expect(parseMetrics(await m.text()).sum('cairn_webhook_outbox_pending_events')).toBe(3);
  });
});
