// The one classifier of IP addresses: what kind of network an address belongs to (IPv4, IPv6, and
// IPv4 inside IPv6). Pure, so every part uses it: the gateway's statistics (addresses no geolocation
// can place), the webhook guard (addresses a webhook may not reach), the webhook form's warning (the
// same addresses, said at save time) and the loopback-only development routes.

/** What the statistics show for requests from such addresses instead of a country. */
export const PRIVATE_NETWORK_LABEL = 'Private network';

/**
 * The kind of an address. 'shared' is the carrier-grade NAT space (100.64.0.0/10); 'translation' an
 * IPv6 address that carries an IPv4 address on to another network (IPv4-compatible, IPv4-translated,
 * NAT64, 6to4), so that it could reach any IPv4 address; 'reserved' the rest of the special-purpose
 * ranges (IETF protocol assignments, benchmarking, 240.0.0.0/4 and broadcast, discard, Teredo,
 * site-local). IPv4-mapped addresses (::ffff:a.b.c.d) are the kind of the IPv4 address inside.
 */
type IpKind =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'documentation'
  | 'translation'
  | 'reserved';

export const parseIpv4 = (ip: string): number[] | null => {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
};

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail is two of them); null when it is not one. */
export const parseIpv6 = (ip: string): number[] | null => {
  if (!ip.includes(':') || !/^[0-9a-f:.]+$/.test(ip)) return null;
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    const parts = s.split(':');
    for (const [i, p] of parts.entries()) {
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIpv4(p);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/.test(p)) {
        out.push(parseInt(p, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return null;
  // A dotted IPv4 part may only end the address.
  if (halves.length === 2 && halves[0]!.includes('.')) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
};

const ipv4Kind = ([a, b, c]: number[]): IpKind => {
  if (a === 0) return 'unspecified'; // 0.0.0.0/8, "this network"
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b! >= 64 && b! <= 127) return 'shared'; // 100.64.0.0/10
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  if ((a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'documentation';
  if ((a === 192 && b === 0 && c === 0) || (a === 192 && b === 88 && c === 99) || (a === 198 && (b === 18 || b === 19))) return 'reserved';
  if (a! >= 224 && a! <= 239) return 'multicast';
  if (a! >= 240) return 'reserved'; // 240.0.0.0/4 and 255.255.255.255
  return 'public';
};

const v4Of = (hi: number, lo: number): number[] => [hi >> 8, hi & 255, lo >> 8, lo & 255];

const ipv6Kind = (g: number[]): IpKind => {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4Kind(v4Of(g[6]!, g[7]!)); // IPv4-mapped ::ffff:0:0/96
  if (zeros(0, 7)) return g[7] === 0 ? 'unspecified' : g[7] === 1 ? 'loopback' : 'translation'; // ::, ::1, IPv4-compatible ::/96
  if (zeros(0, 6)) return 'translation'; // IPv4-compatible ::/96
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return 'translation'; // IPv4-translated ::ffff:0:0:0/96
  const [a, b, c] = g as [number, number, number];
  if (a === 0x64 && b === 0xff9b && (zeros(2, 6) || c === 1)) return 'translation'; // NAT64 64:ff9b::/96, 64:ff9b:1::/48
  if (a === 0x2002) return 'translation'; // 6to4 2002::/16
  if (a === 0x2001 && b === 0x0db8) return 'documentation'; // 2001:db8::/32
  if (a === 0x3fff && (b & 0xf000) === 0) return 'documentation'; // 3fff::/20
  if (a === 0x2001 && b < 0x200) return 'reserved'; // IETF protocol assignments 2001::/23 (Teredo among them)
  if (a === 0x100 && zeros(1, 4)) return 'reserved'; // discard 100::/64
  if ((a & 0xfe00) === 0xfc00) return 'unique-local'; // fc00::/7
  if ((a & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((a & 0xffc0) === 0xfec0) return 'reserved'; // site-local fec0::/10 (deprecated)
  if ((a & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  return 'public';
};

/** Lower case, without URL brackets ([::1]) or a zone suffix (fe80::1%eth0). */
const bare = (raw: string) => raw.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');

/** The kind of an IPv4 or IPv6 address; null for anything that is not an IP address (a host name, ''). */
export function classifyIp(raw: string): IpKind | null {
  const ip = bare(raw);
  const v4 = parseIpv4(ip);
  if (v4) return ipv4Kind(v4);
  const v6 = parseIpv6(ip);
  return v6 ? ipv6Kind(v6) : null;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:hhhh:hhhh); null otherwise. */
export function mappedIpv4(raw: string): string | null {
  const g = parseIpv6(bare(raw));
  if (!g || !g.slice(0, 5).every((x) => x === 0) || g[5] !== 0xffff) return null;
  return v4Of(g[6]!, g[7]!).join('.');
}

/** An address on the public internet: none of the special-purpose ranges. False for what is not an address. */
export const isPublicIp = (raw: string): boolean => classifyIp(raw) === 'public';

/** 127.0.0.0/8, ::1, and their IPv4-mapped forms. */
export const isLoopbackIp = (raw: string): boolean => classifyIp(raw) === 'loopback';

const LOCAL_KINDS: ReadonlySet<IpKind> = new Set<IpKind>(['unspecified', 'loopback', 'private', 'shared', 'link-local', 'unique-local']);

/**
 * A client address no geolocation can place: private, loopback, link-local, CGNAT, unique-local or
 * unspecified, IPv4 or IPv6 (also IPv4-mapped `::ffff:10.0.0.1` and a zone suffix `fe80::1%eth0`);
 * false for public addresses, for the other special-purpose ranges and for anything that is not an
 * IP address at all.
 */
export const isPrivateIp = (raw: string): boolean => {
  const kind = classifyIp(raw);
  return kind !== null && LOCAL_KINDS.has(kind);
};
