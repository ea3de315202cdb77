import { describe, expect, it } from 'vitest';
import { classifyIp, isLoopbackIp, isPrivateIp, mappedIpv4 } from '../../../shared/ip';
import { privateEndpointWarning } from '../../../shared/webhooks';
import { isAllowedAddress, parseAllowlist } from '../../../server/features/webhooks/ssrf';
import { isLoopback } from '../../../server/http/loopback';
import { isLoopbackAddress } from '../../../server/sandbox/faucet';

describe('isPrivateIp', () => {
  it.each([
    '127.0.0.1', '127.255.1.2', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.10.1', '100.64.0.1', '0.0.0.0',
    '::1', '0:0:0:0:0:0:0:1', '::', '::ffff:127.0.0.1', '0:0:0:0:0:ffff:10.0.0.1', 'fd00::1', 'FC00::abcd', 'fe80::1%eth0',
  ])('%s is a private network address', (ip) => expect(isPrivateIp(ip)).toBe(true));

  it.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '192.169.0.1', '::ffff:8.8.8.8', '2001:db8::1', '2a00:1450::1', 'unknown', '', '999.1.1.1', '10.0.0'])(
    '%s is not',
    (ip) => expect(isPrivateIp(ip)).toBe(false),
  );
});

describe('classifyIp', () => {
  it.each([
    ['8.8.8.8', 'public'], ['93.184.216.34', 'public'], ['2606:4700:4700::1111', 'public'], ['::ffff:93.184.216.34', 'public'],
    ['0.0.0.0', 'unspecified'], ['0.1.2.3', 'unspecified'], ['::', 'unspecified'], ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['127.0.0.1', 'loopback'], ['127.8.9.10', 'loopback'], ['::1', 'loopback'], ['0:0:0:0:0:0:0:1', 'loopback'], ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'], ['::ffff:10.0.0.1', 'private'],
    ['100.64.0.1', 'shared'], ['100.127.255.254', 'shared'],
    ['169.254.169.254', 'link-local'], ['fe80::1', 'link-local'], ['fe80::1%eth0', 'link-local'], ['febf::1', 'link-local'], ['::ffff:a9fe:a9fe', 'link-local'],
    ['fc00::1', 'unique-local'], ['FD12:3456::1', 'unique-local'],
    ['224.0.0.1', 'multicast'], ['239.255.255.250', 'multicast'], ['ff02::1', 'multicast'],
    ['192.0.2.1', 'documentation'], ['198.51.100.7', 'documentation'], ['203.0.113.9', 'documentation'], ['2001:db8::1', 'documentation'], ['3fff::1', 'documentation'],
    ['::7f00:1', 'translation'], ['::127.0.0.1', 'translation'], ['::ffff:0:7f00:1', 'translation'], ['::ffff:0:127.0.0.1', 'translation'],
    ['0:0:0:0:ffff:0:a9fe:a9fe', 'translation'], ['64:ff9b::a00:1', 'translation'], ['64:ff9b:1::1', 'translation'], ['2002:a00:1::', 'translation'],
    ['192.0.0.8', 'reserved'], ['192.88.99.1', 'reserved'], ['198.18.0.1', 'reserved'], ['198.19.255.255', 'reserved'], ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'], ['100::1', 'reserved'], ['2001::1', 'reserved'], ['2001:1ff::1', 'reserved'], ['fec0::1', 'reserved'],
  ])('%s is %s', (ip, kind) => expect(classifyIp(ip)).toBe(kind));

  it.each(['', 'localhost', 'example.com', '10.0.0', '999.1.1.1', '1.2.3.4.5', '01.2.3.4x', '1::2::3', ':1', '12345::', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7::8', '1.2.3.4::'])(
    '%s is not an address',
    (raw) => expect(classifyIp(raw)).toBeNull(),
  );

  it('finds the IPv4 address inside a mapped one only', () => {
    expect(mappedIpv4('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(mappedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(mappedIpv4('0:0:0:0:0:ffff:c0a8:101')).toBe('192.168.1.1');
    expect(mappedIpv4('::ffff:0:7f00:1')).toBeNull();
    expect(mappedIpv4('10.0.0.1')).toBeNull();
  });

  it('loopback is 127.0.0.0/8 and ::1 in every spelling, nothing else', () => {
    for (const a of ['127.0.0.1', '127.255.255.254', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:0:0:1']) expect(isLoopbackIp(a)).toBe(true);
    for (const a of ['10.0.0.1', '::ffff:10.0.0.1', 'fe80::1', '::', '0.0.0.0', '', 'localhost', '::127.0.0.1']) expect(isLoopbackIp(a)).toBe(false);
  });
});

// Before shared/ip.ts was the one classifier, the statistics, the webhook form's warning and the
// webhook guard each had their own ranges, and these addresses got different answers.
describe('the classifier the statistics, the webhook warning and the webhook guard share', () => {
  const none = parseAllowlist('');
  const warns = (ip: string) => privateEndpointWarning(`http://${ip.includes(':') ? `[${ip}]` : ip}/hook`) !== null;

  it.each([
    '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '2001:db8::1', // documentation and benchmarking: the guard refused, the form said nothing
    '64:ff9b::a00:1', '2002:a00:1::', '::127.0.0.1', 'fec0::1', '2001::1', // translation and reserved IPv6: likewise
    '224.0.0.1', 'ff02::1', '240.0.0.1', // multicast and reserved: both refused
  ])('the form warns exactly when the guard refuses: %s', (ip) => {
    expect(isAllowedAddress(ip, none)).toBe(false);
    expect(warns(ip)).toBe(true);
  });

  it.each(['93.184.216.34', '2606:4700::1111', '172.32.0.1', '100.128.0.1'])('public %s: allowed and no warning', (ip) => {
    expect(isAllowedAddress(ip, none)).toBe(true);
    expect(warns(ip)).toBe(false);
  });

  it('counts a hex IPv4-mapped loopback as a private network, as the guard refuses it (isPrivateIp missed it)', () => {
    expect(isPrivateIp('::ffff:7f00:1')).toBe(true);
    expect(isPrivateIp('0:0:0:0:0:ffff:7f00:1')).toBe(true);
    expect(isAllowedAddress('::ffff:7f00:1', none)).toBe(false);
  });

  it('does not count multicast, documentation or translation addresses as a private network: geolocation is not the guard', () => {
    for (const ip of ['224.0.0.1', 'ff02::1', '192.0.2.1', '2001:db8::1', '64:ff9b::a00:1']) expect(isPrivateIp(ip)).toBe(false);
  });

  it('judges loopback the same way for the development routes, the built-in billing and the faucet', () => {
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect([isLoopbackIp(a), isLoopback(a), isLoopbackAddress(a)]).toEqual([true, true, true]);
    // The old checks took a prefix: '127.' or '::ffff:127.' followed by anything.
    for (const a of ['127.evil', '::ffff:127.0.0.1.5', '::ffff:10.0.0.1']) expect([isLoopbackIp(a), isLoopback(a), isLoopbackAddress(a)]).toEqual([false, false, false]);
  });
});
