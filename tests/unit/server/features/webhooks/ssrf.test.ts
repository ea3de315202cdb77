import { describe, expect, it } from 'vitest';
import { isAllowedAddress, isValidAllowlistEntry, parseAllowlist } from '../../../../../server/features/webhooks/ssrf';
import { signatureHeader } from '../../../../../server/features/webhooks/signature';

// Pure address classification: nothing here opens a connection.
const none = parseAllowlist('');

describe('address classification', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.254',
    '0.0.0.0', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255', '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '2001:db8::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1',
    '::ffff:169.254.169.254', '64:ff9b::a00:1', '2002:a00:1::',
    // IPv4-translated (::ffff:0:0:0/96)
    '::ffff:0:7f00:1', '::ffff:0:127.0.0.1', '::ffff:0:a00:1', '0:0:0:0:ffff:0:a9fe:a9fe',
  ])('refuses %s', (ip) => expect(isAllowedAddress(ip, none)).toBe(false));

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])('allows public %s', (ip) => expect(isAllowedAddress(ip, none)).toBe(true));

  it('honours allow-listed ranges, including through IPv4-mapped addresses', () => {
    const allow = parseAllowlist('127.0.0.1/32, 10.0.0.0/8, hooks.internal');
    expect(isAllowedAddress('127.0.0.1', allow)).toBe(true);
    expect(isAllowedAddress('127.0.0.2', allow)).toBe(false);
    expect(isAllowedAddress('::ffff:127.0.0.1', allow)).toBe(true);
    expect(isAllowedAddress('10.9.9.9', allow)).toBe(true);
    expect(allow.hosts.has('hooks.internal')).toBe(true);
  });

  it('validates allow-list entries', () => {
    for (const ok of ['127.0.0.1', '10.0.0.0/8', '::1/128', 'hooks.internal']) expect(isValidAllowlistEntry(ok)).toBe(true);
    for (const bad of ['10.0.0.0/33', '::1/129', 'a/b/c', 'bad host']) expect(isValidAllowlistEntry(bad)).toBe(false);
  });
});

describe('signature', () => {
  it('is HMAC-SHA256 of "<t>.<body>" keyed with the auth token', () => {
    // Known answer from: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac secret
    expect(signatureHeader('{"a":1}', 'secret', 1_700_000_000)).toBe('t=1700000000,v1=49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686');
  });

  it('signs the UTF-8 bytes of the body, given as text or as the Buffer that is sent', () => {
    // Known answer from: printf '1700000000.{"a":"é€😀"}' | openssl dgst -sha256 -hmac secret
    const body = '{"a":"é€😀"}';
    const expected = 't=1700000000,v1=19c4c2428419487eecf24978ed34123f7030da300e1e047ac75b4fef64672785';
    expect(signatureHeader(body, 'secret', 1_700_000_000)).toBe(expected);
    expect(signatureHeader(Buffer.from(body), 'secret', 1_700_000_000)).toBe(expected);
  });
});
