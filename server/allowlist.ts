import net from 'node:net';

// WEBHOOK_ALLOWLIST's syntax, apart from the SSRF guard that applies it, so server/config.ts can
// validate the variable without importing a feature module.

export interface Allowlist {
  hosts: Set<string>;
  ranges: net.BlockList;
}

/** WEBHOOK_ALLOWLIST: comma-separated host names and CIDR ranges (a bare address is a /32 or /128). */
export function parseAllowlist(raw: string): Allowlist {
  const hosts = new Set<string>();
  const ranges = new net.BlockList();
  for (const entry of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [addr, bits] = entry.split('/');
    const family = net.isIP(addr!);
    if (family) {
      const type = family === 4 ? 'ipv4' : 'ipv6';
      ranges.addSubnet(addr!, bits === undefined ? (family === 4 ? 32 : 128) : Number(bits), type);
    } else {
      hosts.add(entry.toLowerCase());
    }
  }
  return { hosts, ranges };
}

export const isValidAllowlistEntry = (entry: string): boolean => {
  const [addr, bits, extra] = entry.split('/');
  if (extra !== undefined) return false;
  const family = net.isIP(addr!);
  if (family) return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  return bits === undefined && /^[a-z0-9.-]+$/i.test(entry);
};
