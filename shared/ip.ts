// Client addresses that no geolocation can place: private networks, loopback, link-local and shared
// (CGNAT) space. Pure, so the dashboard and the server can both use it.

/** What the statistics show for requests from such addresses instead of a country. */
export const PRIVATE_NETWORK_LABEL = 'Private network';

const parseIpv4 = (ip: string): number[] | null => {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
};

const privateIpv4 = ([a, b]: number[]): boolean =>
  a === 10 || // 10.0.0.0/8
  a === 127 || // loopback
  a === 0 || // "this network"
  (a === 172 && b! >= 16 && b! <= 31) || // 172.16.0.0/12
  (a === 192 && b === 168) || // 192.168.0.0/16
  (a === 169 && b === 254) || // link-local
  (a === 100 && b! >= 64 && b! <= 127); // shared address space (CGNAT)

/**
 * True for a private, loopback, link-local or CGNAT address, IPv4 or IPv6 (also IPv4-mapped
 * `::ffff:10.0.0.1` and a zone suffix `fe80::1%eth0`); false for public addresses and for anything
 * that is not an IP address at all.
 */
export function isPrivateIp(raw: string): boolean {
  const ip = raw.trim().toLowerCase().replace(/%.*$/, '');
  const v4 = parseIpv4(ip);
  if (v4) return privateIpv4(v4);
  if (!ip.includes(':') || !/^[0-9a-f:.]+$/.test(ip)) return false;
  const mapped = /^(?:(?:0{1,4}:){5}|::)ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) {
    const inner = parseIpv4(mapped[1]!);
    return inner ? privateIpv4(inner) : false;
  }
  if (/^(?:0{0,4}:){2,7}0{0,3}1$/.test(ip) || ip === '::1' || ip === '::') return true; // loopback, unspecified
  const first = ip.startsWith('::') ? 0 : parseInt(ip.split(':')[0]!, 16);
  if (Number.isNaN(first)) return false;
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80; // unique local fc00::/7, link-local fe80::/10
}
