import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import type { Allowlist } from '../../allowlist';
import { isPublicIp, mappedIpv4 } from '../../../shared/ip';
import { privateEndpointWarning } from '../../../shared/webhooks';

// Addresses a webhook may never reach unless an operator allow-lists them: every kind but public
// (private, loopback, link-local, CGNAT, multicast, documentation, translation and reserved ranges,
// IPv4 and IPv6), as shared/ip.ts classifies them.

export { isValidAllowlistEntry, parseAllowlist, type Allowlist } from '../../allowlist';

/** May a webhook connect to this address? Mapped IPv6 addresses are judged by the IPv4 inside. */
export function isAllowedAddress(address: string, allow: Allowlist): boolean {
  const family = net.isIP(address);
  if (!family) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allow.ranges.check(address, type)) return true;
  const v4 = family === 6 ? mappedIpv4(address) : null;
  if (v4 && allow.ranges.check(v4, 'ipv4')) return true;
  return isPublicIp(address);
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

/**
 * What the webhook form says about an endpoint: the private-endpoint warning when its host is a local
 * name or a non-public address, unless WEBHOOK_ALLOWLIST lets deliveries reach it (the host by name,
 * or an address literal inside an allowed range).
 */
export function endpointWarning(url: string, allow: Allowlist): string | null {
  const warning = privateEndpointWarning(url);
  if (!warning) return null;
  const host = new URL(url.trim()).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (allow.hosts.has(host)) return null;
  if (net.isIP(host) && isAllowedAddress(host, allow)) return null;
  return warning;
}
