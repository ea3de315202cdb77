import { describe, expect, it } from 'vitest';
import { isPrivateIp } from '../../../shared/ip';

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
