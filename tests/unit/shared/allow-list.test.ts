import { describe, expect, it } from 'vitest';
import { memoized, allowListsFormSchema, allowListsSchema, canonicalCidr, canonicalMethod, canonicalOrigin, compileAllowList, compileIps, compileOrigins, MAX_ALLOW_LIST_ENTRIES } from '../../../shared/allow-list';

const ok = (r: { ok: boolean; value?: string }) => (r.ok ? r.value : null);

describe('origin patterns', () => {
  it('keeps exact origins and wildcards in canonical form, refuses the rest', () => {
    expect(ok(canonicalOrigin('https://App.Example.com/'))).toBe('https://app.example.com');
    expect(ok(canonicalOrigin('http://localhost:3000'))).toBe('http://localhost:3000');
    expect(ok(canonicalOrigin('https://app.example.com:443'))).toBe('https://app.example.com');
    expect(ok(canonicalOrigin('*.example.com'))).toBe('*.example.com');
    expect(ok(canonicalOrigin('https://*.example.com'))).toBe('https://*.example.com');
    expect(ok(canonicalOrigin('http://[::1]:8080'))).toBe('http://[::1]:8080');
    for (const bad of ['example.com', 'https://app.example.com/path', 'ftp://example.com', '*.com', '*example.com', 'https://*.', 'https://a.*.example.com', 'https://x.example.com:99999', '', 'https://exa mple.com', 'https://[zz]']) {
      expect(canonicalOrigin(bad).ok, bad).toBe(false);
    }
  });

  it('matches exact origins, and wildcards on any subdomain depth with the scheme and port they name', () => {
    const m = compileOrigins(['https://app.example.com', '*.dapp.io', 'https://*.secure.org', '*.ported.net:8443']);
    expect(m('https://app.example.com')).toBe(true);
    expect(m('https://APP.example.com')).toBe(true);
    expect(m('http://app.example.com')).toBe(false);
    expect(m('https://app.example.com:8443')).toBe(false);
    expect(m('https://evil-app.example.com')).toBe(false);
    expect(m('https://a.dapp.io')).toBe(true);
    expect(m('http://a.b.dapp.io')).toBe(true);
    expect(m('https://dapp.io')).toBe(false);
    expect(m('https://a.dapp.io.evil.com')).toBe(false);
    expect(m('https://xdapp.io')).toBe(false);
    // Only a host name matches a wildcard: no path, query, user or empty label before the suffix.
    for (const bad of ['https://evil.com/.dapp.io', 'https://evil.com?.dapp.io', 'https://evil.com#.dapp.io', 'https://evil.com\\.dapp.io', 'https://u@evil.com/x.dapp.io', 'https://.dapp.io', 'https://a..dapp.io', 'https://evil.com:1/.ported.net:8443']) {
      expect(m(bad), bad).toBe(false);
    }
    expect(m('https://a.secure.org')).toBe(true);
    expect(m('http://a.secure.org')).toBe(false);
    expect(m('https://a.dapp.io:444')).toBe(false);
    expect(m('https://a.ported.net:8443')).toBe(true);
    expect(m('https://a.ported.net')).toBe(false);
    expect(m(undefined)).toBe(false);
    expect(m('null')).toBe(false);
    expect(m('')).toBe(false);
  });
});

describe('IP addresses and CIDRs', () => {
  it('stores canonical forms and refuses bad ones with a reason', () => {
    expect(ok(canonicalCidr('203.0.113.7'))).toBe('203.0.113.7');
    expect(ok(canonicalCidr('203.0.113.0/24'))).toBe('203.0.113.0/24');
    expect(ok(canonicalCidr('0.0.0.0/0'))).toBe('0.0.0.0/0');
    expect(ok(canonicalCidr('2001:DB8:0:0::/32'))).toBe('2001:db8::/32');
    expect(ok(canonicalCidr('2001:db8::1'))).toBe('2001:db8::1');
    expect(ok(canonicalCidr('::ffff:10.0.0.0/104'))).toBe('10.0.0.0/8');
    expect(ok(canonicalCidr('::ffff:192.0.2.1'))).toBe('192.0.2.1');
    const hostBits = canonicalCidr('10.0.0.1/8');
    expect(hostBits).toEqual({ ok: false, error: expect.stringContaining('did you mean 10.0.0.0/8?') });
    expect(canonicalCidr('2001:db8::1/32')).toEqual({ ok: false, error: expect.stringContaining('did you mean 2001:db8::/32?') });
    expect(canonicalCidr('10.0.0.0/33')).toEqual({ ok: false, error: expect.stringContaining('0 to 32') });
    expect(canonicalCidr('::/129')).toEqual({ ok: false, error: expect.stringContaining('0 to 128') });
    for (const bad of ['10.0.0', '256.1.1.1', '10.0.0.0/', '10.0.0.0/x', 'example.com', '1:2:3', '10.0.0.0/-1']) expect(canonicalCidr(bad).ok, bad).toBe(false);
  });

  it('matches IPv4 and IPv6 ranges, and IPv4-mapped client addresses as IPv4', () => {
    const m = compileIps(['203.0.113.0/24', '198.51.100.7', '2001:db8:abcd::/48', '::1', '10.0.0.0/8']);
    expect(m('203.0.113.200')).toBe(true);
    expect(m('203.0.114.1')).toBe(false);
    expect(m('198.51.100.7')).toBe(true);
    expect(m('198.51.100.8')).toBe(false);
    expect(m('::ffff:203.0.113.9')).toBe(true);
    expect(m('::ffff:cb00:7109')).toBe(true);
    expect(m('::ffff:203.0.114.9')).toBe(false);
    expect(m('10.255.255.255')).toBe(true);
    expect(m('11.0.0.0')).toBe(false);
    expect(m('2001:db8:abcd:12::1')).toBe(true);
    expect(m('2001:DB8:ABCD:FFFF:1:2:3:4')).toBe(true);
    expect(m('2001:db8:abce::1')).toBe(false);
    expect(m('::1')).toBe(true);
    expect(m('::2')).toBe(false);
    expect(m('fe80::1%eth0')).toBe(false);
    expect(m('')).toBe(false);
    expect(m('garbage')).toBe(false);
    // A /0 admits every address of its family, and only of its family.
    expect(compileIps(['0.0.0.0/0'])('192.0.2.1')).toBe(true);
    expect(compileIps(['0.0.0.0/0'])('2001:db8::1')).toBe(false);
    expect(compileIps(['::/0'])('2001:db8::1')).toBe(true);
    // A mapped entry matches the IPv4 client, with or without the mapping.
    const mapped = compileIps([ok(canonicalCidr('::ffff:127.0.0.0/104'))!]);
    expect(mapped('127.0.0.1')).toBe(true);
    expect(mapped('::ffff:127.0.0.1')).toBe(true);
  });
});

describe('JSON-RPC methods and the lists', () => {
  it('accepts only methods the gateway serves', () => {
    expect(ok(canonicalMethod(' eth_call '))).toBe('eth_call');
    expect(canonicalMethod('eth_sign')).toEqual({ ok: false, error: expect.stringContaining('not a JSON-RPC method this gateway serves') });
  });

  it('validates, de-duplicates and caps the lists', () => {
    expect(allowListsSchema.parse({ origins: ['https://a.example.com', 'https://A.example.com/', ''], ips: [] })).toEqual({ origins: ['https://a.example.com'], ips: [], methods: [] });
    const tooMany = allowListsSchema.safeParse({ ips: Array.from({ length: MAX_ALLOW_LIST_ENTRIES + 1 }, (_, i) => `10.0.${i >> 8}.${i & 255}`) });
    expect(tooMany.success).toBe(false);
    expect(tooMany.error?.issues[0]?.message).toBe(`An allow-list holds at most ${MAX_ALLOW_LIST_ENTRIES} entries.`);
    const badCidr = allowListsSchema.safeParse({ ips: ['10.0.0.0/40'] });
    expect(badCidr.error?.issues[0]?.message).toContain('0 to 32');
  });

  it("reads the card's text one entry a line into the request, with the request's messages on the field itself", () => {
    expect(allowListsFormSchema.parse({ origins: ' https://App.example.com/ \n\n*.dapp.io\n', ips: '', methods: ['eth_call'] })).toEqual({
      origins: ['https://app.example.com', '*.dapp.io'],
      ips: [],
      methods: ['eth_call'],
    });
    const bad = allowListsFormSchema.safeParse({ origins: '', ips: '203.0.113.0/24\n10.0.0.1/8', methods: [] });
    expect(bad.error?.issues.map((i) => [i.path, i.message])).toEqual([[['ips'], allowListsSchema.safeParse({ ips: ['10.0.0.1/8'] }).error?.issues[0]?.message]]);
    expect(bad.error?.issues[0]?.message).toContain('did you mean 10.0.0.0/8?');
    const tooLong = allowListsFormSchema.safeParse({ origins: `https://${'a'.repeat(300)}.io`, ips: '', methods: [] });
    expect(tooLong.error?.issues.map((i) => i.path)).toEqual([['origins']]);
  });

  it('compiles to nothing when no list restricts, and to one matcher per list otherwise', () => {
    expect(compileAllowList({ origins: [], ips: [], methods: [] })).toBeNull();
    const c = compileAllowList({ origins: [], ips: ['127.0.0.1'], methods: ['eth_call'] })!;
    expect(c.origin).toBeNull();
    expect(c.ip!('127.0.0.1')).toBe(true);
    expect(c.methods!.has('eth_call')).toBe(true);
  });
});

describe('memoized matchers', () => {
  it('answers as the matcher does, asking it once per value, and forgets everything past its size', () => {
    const asked: string[] = [];
    const m = memoized((v) => (asked.push(v), v.startsWith('ok')));
    expect([m('ok-1'), m('no'), m('ok-1'), m('no'), m(undefined)]).toEqual([true, false, true, false, false]);
    expect(asked).toEqual(['ok-1', 'no', '']);
    for (let i = 0; i < 300; i++) m(`v${i}`);
    asked.length = 0;
    m('ok-1');
    expect(asked).toEqual(['ok-1']);
  });
});
