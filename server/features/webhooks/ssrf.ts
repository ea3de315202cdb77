import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import type { Allowlist } from '../../allowlist';

// Addresses a webhook may never reach unless an operator allow-lists them: private, loopback,
// link-local, CGNAT, multicast, documentation, benchmarking and reserved ranges, IPv4 and IPv6.
const blocked = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net4, prefix, 'ipv4');
}
for (const [net6, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::', 96], // IPv4-compatible (deprecated)
  ['::ffff:0:0:0', 96], // IPv4-translated (RFC 2765): ::ffff:0:a.b.c.d is not the mapped form
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments, Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net6, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:hhhh:hhhh). */
function mappedV4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

export { isValidAllowlistEntry, parseAllowlist, type Allowlist } from '../../allowlist';

/** May a webhook connect to this address? Mapped IPv6 addresses are judged by the IPv4 inside. */
export function isAllowedAddress(address: string, allow: Allowlist): boolean {
  const family = net.isIP(address);
  if (!family) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allow.ranges.check(address, type)) return true;
  const v4 = family === 6 ? mappedV4(address) : null;
  if (v4) return allow.ranges.check(v4, 'ipv4') || !blocked.check(v4, 'ipv4');
  return !blocked.check(address, type);
}

/**
 * The guard refused the address this attempt would connect to. Final for the attempt: it is not
 * retried on the schedule (the same name would resolve to the same refused address), and the
 * message says how an operator allows it.
 */
export class BlockedAddressError extends Error {
  readonly final = true;
  constructor(host: string, address: string) {
    super(`The endpoint ${host} resolves to ${address}, a private, loopback or reserved address webhooks may not reach unless WEBHOOK_ALLOWLIST lists it.`);
    this.name = 'BlockedAddressError';
  }
}

/**
 * A DNS lookup for http.request that refuses disallowed addresses. The connection is made to the
 * address this returns, so a name that resolves differently later (DNS rebinding) cannot slip past.
 * Every address the name resolves to must be allowed.
 */
export function guardedLookup(host: string, allow: Allowlist): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: (options as { family?: number }).family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      if (!allow.hosts.has(host.toLowerCase())) {
        const bad = list.find((a) => !isAllowedAddress(a.address, allow));
        if (bad) return callback(new BlockedAddressError(host, bad.address), '', 0);
      }
      const first = list[0];
      if (!first) return callback(new Error(`no address for ${hostname}`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, first.address, first.family);
    });
  };
}

/** Checks a URL whose host is an IP literal (no lookup happens for those). */
export function checkLiteralHost(hostname: string, allow: Allowlist): void {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(bare) && !allow.hosts.has(bare.toLowerCase()) && !isAllowedAddress(bare, allow)) throw new BlockedAddressError(hostname, bare);
}
